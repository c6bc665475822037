/// Errors from the engine, each naming the JACK call or the thing that failed.
public enum EngineError: Error, CustomStringConvertible, Equatable {
    case clientOpenFailed(server: String, status: JackStatus)
    case portRegistrationFailed(port: String)
    case activateFailed(code: Int32)
    case connectFailed(source: String, destination: String, reason: String)
    case noSuchPort(String)
    case serverStartFailed(server: String, reason: String)
    /// `--server` or `$JACK_DEFAULT_SERVER` (`source`) names no server jackd can start under.
    case invalidServerName(source: String, name: String, problem: String)

    public var description: String {
        switch self {
        case let .clientOpenFailed(server, status):
            "jack_client_open on server '\(server)' failed: \(status)"
        case let .portRegistrationFailed(port):
            "jack_port_register failed for port '\(port)'"
        case let .activateFailed(code):
            "jack_activate failed (code \(code))"
        case let .connectFailed(source, destination, reason):
            "jack_connect '\(source)' -> '\(destination)' failed: \(reason)"
        case let .noSuchPort(name):
            "no JACK port named '\(name)' (jack_lsp lists them)"
        case let .serverStartFailed(server, reason):
            "could not start a private JACK server '\(server)': \(reason)"
        case let .invalidServerName(source, name, problem):
            "\(source) \(String(reflecting: name)) is not a JACK server name: \(problem)"
        }
    }
}
