import Glibc

/// A UDP socket bound to 127.0.0.1 on a port the kernel picks, for tests that play an OSC (NSM) server.
public struct LoopbackUDPSocket {
    public let fd: Int32
    public let port: UInt16

    public init() {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Its NSM_URL, with `host` as the server's name (`localhost` or `127.0.0.1`).
    public func url(host: String = "127.0.0.1") -> String { "osc.udp://\(host):\(port)/" }
}
