import CJack

/// The JACK backend: one open client with Backbeat's four ports (midi_in, midi_out, out_L, out_R; with
/// `--outputs channels` the per-channel ports of JackChannelPorts.swift too), whose process callback runs the
/// real-time context. Non-real-time: opened, activated, connected and closed by the engine (its `start()` or
/// its supervisor thread), never from the process callback. Every libjack call goes through `JackClient`.
final class JackSession: AudioBackend, @unchecked Sendable {
    let client: JackClient
    let ports: JackPorts
    let serverName: String
    /// The per-channel output ports in `Synth.channelOutput` row order, or none (JackChannelPorts.swift).
    let channelPortList: ChannelPortList

    static let midiInName = "midi_in"
    static let midiOutName = "midi_out"
    static let outLeftName = "out_L"
    static let outRightName = "out_R"

    /// Opens a client (never starting a server: Backbeat starts its own, visibly) and registers the ports.
    init(clientName: String, serverName: String, channelOutputs: Bool = false) throws {
        let client = try JackClient(name: clientName, server: serverName)
        let midiIn = try client.registerPort(Self.midiInName, kind: .midi, input: true)
        let midiOut = try client.registerPort(Self.midiOutName, kind: .midi, input: false)
        let outLeft = try client.registerPort(Self.outLeftName, kind: .audio, input: false)
        let outRight = try client.registerPort(Self.outRightName, kind: .audio, input: false)
        let list = channelOutputs ? try ChannelPortList(registeringWith: client) : ChannelPortList()
        self.client = client
        self.serverName = serverName
        ports = JackPorts(client: client.handle, midiIn: midiIn, midiOut: midiOut, outLeft: outLeft, outRight: outRight,
                          channelOuts: list.ports)
        channelPortList = list
    }

    var sampleRate: Int { client.sampleRate }
    var periodFrames: Int { client.bufferSize }
    var bufferSize: Int { client.bufferSize }
    var deviceLoad: Float { client.cpuLoad }
    var frameTime: UInt32 { client.frameTime }
    var actualClientName: String { client.name }

    /// Installs the process, xrun and shutdown callbacks with `context` as their argument, then activates.
    func activate(context: RealtimeContext) throws {
        let argument = Unmanaged.passUnretained(context).toOpaque()
        client.setProcessCallback(backbeatProcessCallback, argument: argument)
        client.setXrunCallback(backbeatXrunCallback, argument: argument)
        client.setShutdownCallback(backbeatShutdownCallback, argument: argument)
        try client.activate()
    }

    func close() { client.close() }

    func fullName(_ port: OpaquePointer) -> String { client.fullName(port) }

    func portExists(_ name: String) -> Bool { client.portExists(name) }

    /// `jack_connect`; an existing connection counts as success.
    func connect(_ source: String, _ destination: String) throws { try client.connect(source, destination) }

    /// The physical ports of a kind: playback inputs (`input: true`) or capture outputs.
    func physicalPorts(kind: JackClient.PortKind, input: Bool) -> [String] { client.physicalPorts(kind: kind, input: input) }

    /// The other ends of each of our ports' connections, keyed by our port's short name.
    func connections() -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (name, port) in [(Self.midiInName, ports.midiIn), (Self.midiOutName, ports.midiOut), (Self.outLeftName, ports.outLeft), (Self.outRightName, ports.outRight)] {
            result[name] = client.connections(of: port)
        }
        for (name, port) in channelPorts { result[name] = client.connections(of: port) }
        return result
    }
}
