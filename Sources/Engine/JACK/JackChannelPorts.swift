// Per-channel JACK outputs (`--outputs channels`, as FluidSynth's multi-channel output): beside out_L/out_R, a
// stereo pair per MIDI channel and the reverb's and the chorus's returns, so a DAW can record each part. The
// synth renders them (Synth.channelOutput); the callback copies them into the ports after the period.
import CJack
import DSP
import Realtime

/// The per-channel output ports, registered before activation in `Synth.channelOutput` row order: `ch1_L`,
/// `ch1_R` ... `ch16_R`, `reverb_L`, `reverb_R`, `chorus_L`, `chorus_R`. Empty without `--outputs channels`.
struct ChannelPortList: ~Copyable {
    /// The ports' short names, in row order.
    static let names: [String] = (1...16).flatMap { ["ch\($0)_L", "ch\($0)_R"] }
        + ["reverb_L", "reverb_R", "chorus_L", "chorus_R"]

    /// Rows of `Synth.channelOutput`, one port each (`Synth.channelOutputCount`, a constant here: the
    /// callback must not touch the class's metadata).
    static var rowCount: Int { @_noLocks get { 36 } }

    /// The list's ports for the callback (`JackPorts.channelOuts`), nil when empty; freed with the list.
    let ports: UnsafeMutablePointer<OpaquePointer>?

    init() { ports = nil }

    /// Registers every port with `client`; throws `portRegistrationFailed` naming the first JACK refused.
    init(registeringWith client: JackClient) throws {
        precondition(Self.names.count == Synth.channelOutputCount && Self.rowCount == Synth.channelOutputCount)
        var registered: [OpaquePointer] = []
        for name in Self.names { registered.append(try client.registerPort(name, kind: .audio, input: false)) }
        let ports = UnsafeMutablePointer<OpaquePointer>.allocate(capacity: registered.count)
        ports.initialize(from: registered, count: registered.count)
        self.ports = ports
    }

    deinit { ports?.deallocate() }
}

extension JackSession {
    /// The per-channel ports by short name (none without `--outputs channels`).
    var channelPorts: [String: OpaquePointer] {
        guard let ports = channelPortList.ports else { return [:] }
        var result: [String: OpaquePointer] = [:]
        for (row, name) in ChannelPortList.names.enumerated() { result[name] = ports[row] }
        return result
    }
}

extension RealtimeContext {
    /// The synth's per-channel outputs of the period into their ports; silence while the audio gate is closed
    /// (as out_L/out_R) or when the synth kept fewer frames than the period has.
    @_noLocks
    func writeChannelOutputs(_ ports: UnsafeMutablePointer<OpaquePointer>, frames: Int, audioOpen: Bool) {
        let synth = rtSynth
        var complete = false
        if audioOpen { complete = synth._withUnsafeGuaranteedRef { $0.channelOutputFrames } >= frames }
        for row in 0..<ChannelPortList.rowCount {
            let buffer = backbeat_rt_port_buffer(ports[row], jack_nframes_t(frames)).assumingMemoryBound(to: Float.self)
            var source: UnsafePointer<Float>? = nil
            if complete { source = synth._withUnsafeGuaranteedRef { $0.channelOutput(row) } }
            if let source {
                for n in 0..<frames { buffer[n] = source[n] }
            } else {
                buffer.update(repeating: 0, count: frames)
            }
        }
    }
}
