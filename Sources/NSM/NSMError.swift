/// Why the NSM session could not be joined. Each says what was wrong and where.
public enum NSMError: Error, CustomStringConvertible, Equatable {
    case badURL(url: String, problem: String)
    case socket(url: String, problem: String)
    case refused(url: String, code: Int32, message: String)
    case timeout(url: String, waitingFor: String, seconds: Int)

    public var description: String {
        switch self {
        case let .badURL(url, problem): "NSM_URL \(String(reflecting: url)) is not an NSM server address: \(problem)"
        case let .socket(url, problem): "cannot talk to the NSM server at \(url): \(problem)"
        case let .refused(url, code, message): "the NSM server at \(url) refused Backbeat (error \(code)): \(message)"
        case let .timeout(url, what, seconds): "the NSM server at \(url) sent no \(what) within \(seconds) s"
        }
    }
}
