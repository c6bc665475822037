import CJack
import Foundation

/// One open JACK client with Backbeat's three ports. Non-real-time: opened, activated, connected and
/// closed from the engine's supervisor or the main thread, never from the process callback.
final class JackSession {
    let client: OpaquePointer
    let ports: JackPorts
    let serverName: String

    static let midiInName = "midi_in"
    static let outLeftName = "out_L"
    static let outRightName = "out_R"

    /// Opens a client (never starting a server: Backbeat starts its own, visibly) and registers the ports.
    init(clientName: String, serverName: String) throws {
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue)
        guard let client = backbeat_jack_client_open(clientName, options, &status, serverName) else {
            throw EngineError.clientOpenFailed(server: serverName, status: JackStatus(status))
        }
        func register(_ name: String, _ type: UnsafePointer<CChar>, _ flags: JackPortFlags) throws -> OpaquePointer {
            guard let port = jack_port_register(client, name, type, UInt(flags.rawValue), 0) else {
                jack_client_close(client)
                throw EngineError.portRegistrationFailed(port: name)
            }
            return port
        }
        let midiIn = try register(Self.midiInName, backbeat_jack_midi_type(), JackPortIsInput)
        let outLeft = try register(Self.outLeftName, backbeat_jack_audio_type(), JackPortIsOutput)
        let outRight = try register(Self.outRightName, backbeat_jack_audio_type(), JackPortIsOutput)
        self.client = client
        self.serverName = serverName
        ports = JackPorts(client: client, midiIn: midiIn, outLeft: outLeft, outRight: outRight)
    }

    /// A portless client for one-off graph changes (connecting other clients' ports).
    static func utility(serverName: String) throws -> OpaquePointer {
        var status = jack_status_t(rawValue: 0)
        guard let client = backbeat_jack_client_open("backbeat-util", jack_options_t(rawValue: JackNoStartServer.rawValue), &status, serverName) else {
            throw EngineError.clientOpenFailed(server: serverName, status: JackStatus(status))
        }
        return client
    }

    /// `jack_connect` by any client; an existing connection counts as success.
    static func connect(_ client: OpaquePointer, _ source: String, _ destination: String) throws {
        guard jack_port_by_name(client, source) != nil else { throw EngineError.noSuchPort(source) }
        guard jack_port_by_name(client, destination) != nil else { throw EngineError.noSuchPort(destination) }
        let code = jack_connect(client, source, destination)
        if code != 0 && code != EEXIST {
            throw EngineError.connectFailed(source: source, destination: destination, reason: "code \(code)")
        }
    }

    var sampleRate: Int { Int(jack_get_sample_rate(client)) }
    var bufferSize: Int { Int(jack_get_buffer_size(client)) }
    var cpuLoad: Float { jack_cpu_load(client) }
    var actualClientName: String { String(cString: jack_get_client_name(client)) }

    /// Installs the callbacks with `context` as their argument, then activates.
    func activate(context: RealtimeContext, onShutdown: JackInfoShutdownCallback) throws {
        let argument = Unmanaged.passUnretained(context).toOpaque()
        jack_set_process_callback(client, backbeatProcessCallback, argument)
        jack_set_xrun_callback(client, backbeatXrunCallback, argument)
        jack_on_info_shutdown(client, onShutdown, argument)
        let code = jack_activate(client)
        if code != 0 { throw EngineError.activateFailed(code: code) }
    }

    func close() {
        jack_deactivate(client)
        jack_client_close(client)
    }

    func fullName(_ port: OpaquePointer) -> String { String(cString: jack_port_name(port)) }

    func portExists(_ name: String) -> Bool { jack_port_by_name(client, name) != nil }

    /// `jack_connect`; an existing connection counts as success.
    func connect(_ source: String, _ destination: String) throws { try Self.connect(client, source, destination) }

    /// Ports matching a type and flags (jack_get_ports), e.g. the physical playback ports.
    func ports(type: UnsafePointer<CChar>, flags: JackPortFlags...) -> [String] {
        let mask = flags.reduce(UInt(0)) { $0 | UInt($1.rawValue) }
        guard let list = jack_get_ports(client, nil, type, mask) else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    /// The other ends of each of our ports' connections, keyed by our port's short name.
    func connections() -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (name, port) in [(Self.midiInName, ports.midiIn), (Self.outLeftName, ports.outLeft), (Self.outRightName, ports.outRight)] {
            guard let list = jack_port_get_all_connections(client, port) else { continue }
            defer { jack_free(list) }
            var index = 0
            var others: [String] = []
            while let other = list[index] {
                others.append(String(cString: other))
                index += 1
            }
            result[name] = others
        }
        return result
    }
}
