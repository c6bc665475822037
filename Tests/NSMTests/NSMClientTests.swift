import TestSupport
import Foundation
import Glibc
@testable import NSM
import Testing

@Suite struct NSMClientTests {
    @Test func oscMessagesRoundTripThroughLiblo() {
        let message = OSCMessage("/nsm/server/announce", [.string("Backbeat"), .string(":"), .string("backbeat"), .int32(1), .int32(2), .int32(4242)])
        let bytes = message.encoded()
        #expect(bytes.count % 4 == 0 && bytes.starts(with: Array("/nsm/server/announce".utf8)))
        #expect(OSCMessage.decode(bytes) == message)
        #expect(OSCMessage.decode([1, 2, 3]) == nil)
        #expect(OSCMessage.decode([]) == nil)
    }

    // Issue 36: the address's text was read with the deprecated String(cString:) of an array (a compiler
    // warning in every build); it reads the digits up to the NUL.
    @Test func anAddressIsWrittenAsDottedQuadAndPort() {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(7_770).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        #expect(NSMClient.text(address) == "127.0.0.1:7770")
        address.sin_addr.s_addr = UInt32(0xC0A8_01FE).bigEndian
        address.sin_port = UInt16(65_535).bigEndian
        #expect(NSMClient.text(address) == "192.168.1.254:65535")
    }

    @Test func badURLsAreNamed() {
        #expect(throws: NSMError.badURL(url: "http://localhost:1/", problem: "it must start with osc.udp:// (NSM speaks OSC over UDP)")) {
            try NSMClient(url: "http://localhost:1/")
        }
        #expect(throws: NSMError.badURL(url: "osc.udp://localhost/", problem: "no port after the host (expected osc.udp://host:port/)")) {
            try NSMClient(url: "osc.udp://localhost/")
        }
        #expect(throws: (any Error).self) { try NSMClient(url: "osc.udp://no-such-host.invalid:1234/") }
        // Issue 27: a port past 65535 said "no port after the host".
        for port in ["99999", "0", "123456789012345678901234567890"] {
            let url = "osc.udp://127.0.0.1:\(port)/"
            #expect(throws: NSMError.badURL(url: url, problem: "port \(port.prefix(12)) is out of range (a UDP port is 1...65535)")) {
                try NSMClient(url: url)
            }
        }
    }

    /// A server on loopback: the client's socket is bound to 127.0.0.1, and a silent server is a timeout
    /// naming what was awaited.
    @Test func bindsToLoopbackAndTimesOut() throws {
        let server = LoopbackUDPSocket()
        defer { close(server.fd) }
        let url = server.url(host: "localhost")
        let client = try NSMClient(url: url)
        defer { client.stop() }
        #expect(client.localAddress.hasPrefix("127.0.0.1:"))
        #expect(throws: NSMError.timeout(url: url, waitingFor: "answer to /nsm/server/announce", seconds: 1)) {
            try client.waitForOpen(seconds: 1) { _ in }
        }
    }

    /// A datagram from another address than the server's is not read as a command.
    @Test func ignoresOtherSenders() throws {
        let listening = LoopbackUDPSocket(), server = listening.fd, stranger = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(server); close(stranger) }
        let client = try NSMClient(url: listening.url())
        defer { client.stop() }
        let parts = client.localAddress.split(separator: ":")
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_addr.s_addr = inet_addr("127.0.0.1")
        target.sin_port = UInt16(parts[1])!.bigEndian
        let open = OSCMessage("/nsm/client/open", [.string("/tmp/x"), .string("B"), .string("B.nX")]).encoded()
        _ = open.withUnsafeBytes { raw in withUnsafePointer(to: &target) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(stranger, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } }
        #expect(throws: NSMError.self) { try client.waitForOpen(seconds: 1) { _ in } }
    }
}

/// A server that answers the announce with `/error` refuses the client: the error says so with its code.
@Suite struct NSMRefusalTests {
    @Test func errorToAnnounceIsARefusal() throws {
        let listening = LoopbackUDPSocket(), server = listening.fd
        defer { close(server) }
        let url = listening.url()
        let client = try NSMClient(url: url)
        defer { client.stop() }
        client.announce(applicationName: "Backbeat", capabilities: ":", executable: "backbeat", pid: 1)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var sender = sockaddr_in()
        var senderLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &sender) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(server, bytes.baseAddress, bytes.count, 0, $0, &senderLength) } }
        }
        #expect(OSCMessage.decode(Array(buffer.prefix(max(count, 0))))?.path == "/nsm/server/announce")
        let refusal = OSCMessage("/error", [.string("/nsm/server/announce"), .int32(-4), .string("incompatible API")]).encoded()
        _ = refusal.withUnsafeBytes { raw in withUnsafePointer(to: &sender) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(server, raw.baseAddress, raw.count, 0, $0, senderLength) } } }
        #expect(throws: NSMError.refused(url: url, code: -4, message: "incompatible API")) {
            try client.waitForOpen(seconds: 5) { _ in }
        }
    }
}
