import Foundation
import Glibc
import Synchronization
import SystemPackage

/// What `/nsm/client/open` hands a client.
public struct NSMOpen: Equatable, Sendable {
    /// Where the client keeps its state (a path without extension: Backbeat makes it a directory).
    public var path: String
    public var displayName: String
    /// Unique in the session; Backbeat uses it as its JACK client name.
    public var clientID: String
}

/// A client of the NSM session protocol (New Session Manager, RaySession, Agordejo) over OSC/UDP.
///
/// Its socket is a UDP socket *connected* to the server's address: the kernel binds it to the local
/// address that reaches the server (127.0.0.1 for a server on loopback) and delivers only datagrams that
/// come from the server's address and port; each datagram's sender is checked once more before it is read.
/// Nothing is opened unless a client is made, which happens only when `NSM_URL` is set.
public final class NSMClient: @unchecked Sendable {
    public let url: String
    private let fd: Int32
    private let server: sockaddr_in
    private let stopping = Atomic<Bool>(false)
    private let served = DispatchSemaphore(value: 0)
    private var serving = false

    /// Parses `url` (`osc.udp://host:port/`), resolves the host to an IPv4 address and connects a socket.
    public init(url: String) throws(NSMError) {
        self.url = url
        server = try Self.resolve(url)
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket(url: url, problem: Errno(rawValue: errno).description) }
        var address = server
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let problem = Errno(rawValue: errno).description
            close(fd)
            throw .socket(url: url, problem: problem)
        }
        self.fd = fd
    }

    deinit { stop() }

    /// The local address and port the socket is bound to, "127.0.0.1:40123".
    public var localAddress: String {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Self.text(address)
    }

    static func resolve(_ url: String) throws(NSMError) -> sockaddr_in {
        let prefix = "osc.udp://"
        guard url.hasPrefix(prefix) else { throw .badURL(url: url, problem: "it must start with \(prefix) (NSM speaks OSC over UDP)") }
        var rest = url.dropFirst(prefix.count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let digits = Optional(rest[rest.index(after: colon)...]), !digits.isEmpty,
              digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .badURL(url: url, problem: "no port after the host (expected osc.udp://host:port/)")
        }
        guard let port = UInt16(digits), port > 0 else {
            throw .badURL(url: url, problem: "port \(digits.prefix(12)) is out of range (a UDP port is 1...65535)")
        }
        let host = String(rest[..<colon])
        guard !host.isEmpty else { throw .badURL(url: url, problem: "no host") }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list, let found = first.pointee.ai_addr else {
            throw .badURL(url: url, problem: "cannot resolve the host \(String(reflecting: host)) to an IPv4 address (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(list) }
        var address = found.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
        address.sin_port = port.bigEndian
        return address
    }

    static func text(_ address: sockaddr_in) -> String {
        var copy = address.sin_addr
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        inet_ntop(AF_INET, &copy, &buffer, socklen_t(buffer.count))
        let digits = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: digits, as: UTF8.self) + ":\(UInt16(bigEndian: address.sin_port))"
    }

    // MARK: - Sending

    public func send(_ message: OSCMessage) {
        let bytes = message.encoded()
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// `/nsm/server/announce`: who Backbeat is, what it can do, which protocol version it speaks (1.2).
    public func announce(applicationName: String, capabilities: String, executable: String, pid: Int32) {
        send(OSCMessage("/nsm/server/announce", [.string(applicationName), .string(capabilities), .string(executable),
                                                 .int32(1), .int32(2), .int32(pid)]))
    }

    public func reply(to path: String, _ message: String) { send(OSCMessage("/reply", [.string(path), .string(message)])) }

    public func error(to path: String, code: Int32, _ message: String) {
        send(OSCMessage("/error", [.string(path), .int32(code), .string(message)]))
    }

    // MARK: - Receiving

    /// The next message from the server, or nil after `timeout` milliseconds. Datagrams from anyone else or
    /// that are not OSC are dropped.
    func receive(timeoutMilliseconds: Int32) -> OSCMessage? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var sender = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &sender) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &length) }
            }
        }
        guard count > 0, sender.sin_addr.s_addr == server.sin_addr.s_addr, sender.sin_port == server.sin_port else { return nil }
        return OSCMessage.decode(Array(buffer.prefix(count)))
    }

    /// Waits for the server's answer to the announce and then for `/nsm/client/open` (both bounded by
    /// `seconds` in all). An `/error` to the announce is a refusal. `log` gets the server's greeting. Nil
    /// when `cancelled` says so first (checked every 100 ms: a quit signal during the wait).
    public func waitForOpen(seconds: Int, cancelled: () -> Bool = { false }, log: (String) -> Void) throws(NSMError) -> NSMOpen? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var announced = false
        while ContinuousClock.now < deadline {
            if cancelled() { return nil }
            guard let message = receive(timeoutMilliseconds: 100) else { continue }
            let strings = message.strings
            switch message.path {
            case "/reply" where strings.first == "/nsm/server/announce":
                announced = true
                log("NSM server \(strings.count > 2 ? strings[2] : "?") at \(url): \(strings.count > 1 ? strings[1] : "")")
            case "/error" where strings.first == "/nsm/server/announce":
                var code: Int32 = 0
                if message.arguments.count > 1, case .int32(let c) = message.arguments[1] { code = c }
                throw .refused(url: url, code: code, message: strings.last ?? "")
            case "/nsm/client/open" where strings.count >= 3:
                return NSMOpen(path: strings[0], displayName: strings[1], clientID: strings[2])
            default:
                continue
            }
        }
        throw .timeout(url: url, waitingFor: announced ? "/nsm/client/open" : "answer to /nsm/server/announce", seconds: seconds)
    }

    /// Answers `/nsm/client/save` on a thread of its own until `stop()`: `save` returns nil when the state
    /// was written, else the reason, which goes back to the server as an `/error`.
    public func serve(save: @escaping @Sendable () -> String?) {
        serving = true
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                guard let message = receive(timeoutMilliseconds: 100) else { continue }
                switch message.path {
                case "/nsm/client/save":
                    if let problem = save() { error(to: message.path, code: -1, problem) } else { reply(to: message.path, "OK") }
                default:
                    continue  // /nsm/client/open while running (switch) is a capability Backbeat does not announce
                }
            }
            served.signal()
        }
        thread.name = "backbeat-nsm"
        thread.start()
    }

    /// Stops serving and closes the socket. Idempotent.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if serving { served.wait() }
        close(fd)
    }
}
