import Foundation
import Glibc
import Testing

/// NSM_URL problems stop Backbeat before the engine starts, with one line naming what was wrong (exit 2).
@Suite struct NSMCommandLineTests {
    @Test func badNSMURLExitsTwoNamingIt() throws {
        let result = try backbeat(["--headless"], environment: ["NSM_URL": "http://localhost:1234/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("NSM_URL \"http://localhost:1234/\" is not an NSM server address: it must start with osc.udp://"), "\(result.stderr)")
        #expect(!result.stderr.contains("JACK"), "stopped before the engine: \(result.stderr)")
    }

    /// A server that never answers: Backbeat waits 5 s for it, then says what it waited for.
    @Test func silentServerTimesOutInFiveSeconds() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let url = "osc.udp://localhost:\(UInt16(bigEndian: address.sin_port))/"
        let start = Date()
        let result = try backbeat(["--headless"], environment: ["NSM_URL": url])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 2)
        #expect(result.stderr.contains("the NSM server at \(url) sent no answer to /nsm/server/announce within 5 s"), "\(result.stderr)")
        #expect(elapsed >= 4.9 && elapsed < 15, "\(elapsed)")
    }
}
