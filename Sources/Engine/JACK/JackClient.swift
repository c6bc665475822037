import CJack
import Glibc
import Synchronization

/// A JACK client: the one place in Backbeat that calls libjack's `jack_*` functions outside the real-time
/// path (which uses the `backbeat_rt_*` shims, checked as real-time safe). Each method names the C function
/// it wraps; a failure throws an `EngineError` naming that call. Non-real-time: use it from any thread but
/// the process callback. Not thread-safe by itself: its owner serializes calls, except `connect` and
/// `close`, which exclude each other (a session restore may connect while the supervisor closes).
public final class JackClient: @unchecked Sendable {
    /// The `jack_client_t *`, for the real-time shims (`backbeat_rt_last_frame_time`).
    public let handle: OpaquePointer
    /// Set by `close()`; `connect` holds it too, so it never runs on a closed client.
    private let closed = Mutex(false)

    /// `jack_client_open` with `JackNoStartServer`: never starts a server (Backbeat starts its own, visibly).
    public init(name: String, server: String) throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = backbeat_jack_client_open(name, jack_options_t(rawValue: JackNoStartServer.rawValue),
                                                     &status, server) else {
            throw EngineError.clientOpenFailed(server: server, status: JackStatus(status))
        }
        handle = client
    }

    deinit { close() }

    /// The longest client name libjack takes, in bytes (`jack_client_name_size`, which counts the final NUL):
    /// a longer one fails `jack_client_open` with only "overall failure, communication error".
    public static var maximumNameLength: Int { Int(jack_client_name_size()) - 1 }

    /// `jack_client_close` (after `jack_deactivate`). Idempotent.
    public func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            jack_deactivate(handle)
            jack_client_close(handle)
        }
    }

    /// True when a client can connect to server `name` now: `jack_client_open` of a probe client, closed again.
    public static func serverAccepts(name: String) -> Bool {
        (try? JackClient(name: "backbeat-probe", server: name)) != nil
    }

    /// `jack_set_error_function` and `jack_set_info_function`: libjack's own messages silenced.
    public static func silenceLibraryMessages() {
        jack_set_error_function(ignoreJackMessage)
        jack_set_info_function(ignoreJackMessage)
    }

    // MARK: - Ports

    public enum PortKind: Sendable { case audio, midi }

    /// `jack_port_register`; throws `portRegistrationFailed` naming the port.
    public func registerPort(_ name: String, kind: PortKind, input: Bool) throws -> OpaquePointer {
        let type = kind == .audio ? backbeat_jack_audio_type() : backbeat_jack_midi_type()
        let flags = input ? JackPortIsInput : JackPortIsOutput
        guard let port = jack_port_register(handle, name, type, UInt(flags.rawValue), 0) else {
            throw EngineError.portRegistrationFailed(port: name)
        }
        return port
    }

    /// `jack_port_name`: "client:port".
    public func fullName(_ port: OpaquePointer) -> String { String(cString: jack_port_name(port)) }

    /// `jack_port_by_name` found a port of that full name.
    public func portExists(_ name: String) -> Bool { jack_port_by_name(handle, name) != nil }

    /// `jack_get_ports` for physical ports of a kind: playback inputs (`input: true`) or capture outputs.
    public func physicalPorts(kind: PortKind, input: Bool) -> [String] {
        let type = kind == .audio ? backbeat_jack_audio_type() : backbeat_jack_midi_type()
        let mask = UInt(JackPortIsPhysical.rawValue) | UInt((input ? JackPortIsInput : JackPortIsOutput).rawValue)
        return Self.names(jack_get_ports(handle, nil, type, mask))
    }

    /// `jack_port_get_all_connections`: the other ends of `port`'s connections.
    public func connections(of port: OpaquePointer) -> [String] {
        Self.names(jack_port_get_all_connections(handle, port))
    }

    /// `jack_connect`; an existing connection counts as success. Each end must exist (`noSuchPort`).
    public func connect(_ source: String, _ destination: String) throws {
        try closed.withLock { closed throws(EngineError) in
            guard !closed, portExists(source) else { throw .noSuchPort(source) }
            guard portExists(destination) else { throw .noSuchPort(destination) }
            let code = jack_connect(handle, source, destination)
            if code != 0 && code != EEXIST {
                throw .connectFailed(source: source, destination: destination, reason: "code \(code)")
            }
        }
    }

    /// A NULL-terminated list from libjack as Swift strings, freed with `jack_free`.
    private static func names(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    // MARK: - Callbacks and activation

    /// `jack_set_process_callback`.
    public func setProcessCallback(_ callback: JackProcessCallback, argument: UnsafeMutableRawPointer) {
        jack_set_process_callback(handle, callback, argument)
    }

    /// `jack_set_xrun_callback`.
    public func setXrunCallback(_ callback: JackXRunCallback, argument: UnsafeMutableRawPointer) {
        jack_set_xrun_callback(handle, callback, argument)
    }

    /// `jack_on_info_shutdown`.
    public func setShutdownCallback(_ callback: JackInfoShutdownCallback, argument: UnsafeMutableRawPointer) {
        jack_on_info_shutdown(handle, callback, argument)
    }

    /// `jack_activate`; throws `activateFailed` with its code.
    public func activate() throws {
        let code = jack_activate(handle)
        if code != 0 { throw EngineError.activateFailed(code: code) }
    }

    // MARK: - Reads

    /// `jack_get_sample_rate`.
    public var sampleRate: Int { Int(jack_get_sample_rate(handle)) }
    /// `jack_get_buffer_size`.
    public var bufferSize: Int { Int(jack_get_buffer_size(handle)) }
    /// `jack_cpu_load`: the server's DSP load estimate, percent.
    public var cpuLoad: Float { jack_cpu_load(handle) }
    /// `jack_get_client_name`: the name the server gave this client.
    public var name: String { String(cString: jack_get_client_name(handle)) }
    /// `jack_frame_time`: the server's current frame time.
    public var frameTime: UInt32 { jack_frame_time(handle) }
}

private func ignoreJackMessage(_ message: UnsafePointer<CChar>?) {}
