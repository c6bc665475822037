import TestSupport
import Foundation
import Glibc
import NSM

/// A tiny NSM server for tests: a UDP socket on 127.0.0.1 (an ephemeral port) that receives what a client
/// sends and sends it the server's commands. OSC goes through the NSM module's liblo codec.
final class TestNSMServer {
    let fd: Int32
    let port: UInt16
    private(set) var client: sockaddr_in?

    init() throws {
        let socket = LoopbackUDPSocket()
        guard socket.fd >= 0, socket.port != 0 else { throw HarnessError("a UDP socket on 127.0.0.1: \(String(cString: strerror(errno)))") }
        fd = socket.fd
        port = socket.port
    }

    deinit { close(fd) }

    var url: String { "osc.udp://localhost:\(port)/" }

    /// The next message (remembering its sender as the client), or an error after `timeout` seconds.
    func receive(timeout: Double = 15) throws -> OSCMessage {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { throw HarnessError("no OSC message from the client within \(timeout) s") }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var sender = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &sender) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &length) } }
        }
        guard count > 0, let message = OSCMessage.decode(Array(buffer.prefix(count))) else { throw HarnessError("not an OSC message (\(count) bytes)") }
        client = sender
        return message
    }

    func send(_ message: OSCMessage) throws {
        guard var client else { throw HarnessError("no client has announced yet") }
        let bytes = message.encoded()
        let sent = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &client) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        guard sent == bytes.count else { throw HarnessError("sendto: \(String(cString: strerror(errno)))") }
    }
}

/// The UDP sockets a process holds, as the kernel lists them: "local address:port" in hex, e.g.
/// "0100007F:9C41" for 127.0.0.1 (matched by socket inode between /proc/PID/fd and /proc/net/udp{,6}).
func udpSockets(of pid: Int32) -> [String] {
    let fdDirectory = "/proc/\(pid)/fd"
    var inodes = Set<String>()
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: fdDirectory)) ?? [] {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fdDirectory + "/" + entry),
           target.hasPrefix("socket:[") { inodes.insert(String(target.dropFirst(8).dropLast())) }
    }
    var found: [String] = []
    for table in ["/proc/net/udp", "/proc/net/udp6"] {
        let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            if fields.count > 9, inodes.contains(String(fields[9])) { found.append(String(fields[1])) }
        }
    }
    return found
}
