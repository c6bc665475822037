import TestSupport
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

    /// A UDP socket on 127.0.0.1 that never answers, and its NSM_URL.
    func silentServer() -> (fd: Int32, url: String) {
        let server = LoopbackUDPSocket()
        return (server.fd, server.url(host: "localhost"))
    }

    /// A server that never answers: Backbeat waits 5 s for it, then says what it waited for.
    @Test func silentServerTimesOutInFiveSeconds() throws {
        let (fd, url) = silentServer()
        defer { close(fd) }
        let start = Date()
        let result = try backbeat(["--headless"], environment: ["NSM_URL": url])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 2)
        #expect(result.stderr.contains("the NSM server at \(url) sent no answer to /nsm/server/announce within 5 s"), "\(result.stderr)")
        #expect(elapsed >= 4.9 && elapsed < 15, "\(elapsed)")
    }

    /// SIGTERM while waiting for the server's open quits at once and cleanly (exit 0), not after the 5 s.
    @Test func quitSignalDuringTheWaitQuits() throws {
        let (fd, url) = silentServer()
        defer { close(fd) }
        let program = try RunningProgram(backbeatExecutable(), ["--headless"], server: nil, environment: ["NSM_URL": url])
        try program.waitForLine(containing: "NSM: announced to \(url)")
        let start = Date()
        program.signal(SIGTERM)
        #expect(try program.waitForExit(timeout: 4) == 0)
        let exited = try #require(program.exitedAt)
        #expect(exited.timeIntervalSince(start) < 2, "the exit, not the pipes' end, which another test's child can delay")
        #expect(program.output.contains { $0.contains("before the session opened") }, "\(program.output)")
    }
}
