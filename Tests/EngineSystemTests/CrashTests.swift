import Foundation
import Testing
@testable import Engine

/// What a SIGKILL of Backbeat leaves of its private server: no jackd nor anything of its (what it leaves of a
/// MIDI capture is in `CaptureIntegrationTests`). jackd itself is never SIGKILLed here: that would leak a slot
/// of the registry every test shares; `PrivateServerFilesTests` covers the clean-up after one.
extension JACK {
@Suite struct CrashTests {
    /// A folder of this test's own (TestSupport).
    let temporary: URL

    init() throws { temporary = try makeTemporaryDirectory("backbeat-crash") }

    @Test func privateServerStopsCleanlyWhenBackbeatIsKilled() throws {
        let name = "bbcrash-\(checkoutTag)"
        let runtime = temporary.appendingPathComponent("run").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", name], server: name,
                                          environment: ["XDG_RUNTIME_DIR": runtime])
        let started = try backbeat.waitForLine(containing: "started a private JACK server")
        try backbeat.waitForLine(containing: "ready:")
        // The log is where the message says: in $XDG_RUNTIME_DIR/backbeat (0700), mode 0600.
        let log = try #require(started.components(separatedBy: ", log ").dropFirst().first?.components(separatedBy: "):").first, "\(started)")
        let pid = try #require(started.components(separatedBy: "pid ").dropFirst().first.flatMap { Int32($0.prefix { $0.isNumber }) }, "\(started)")
        #expect(log.hasPrefix(runtime + "/backbeat/jackd-\(name)-"), "\(log)")
        var info = stat()
        #expect(lstat(log, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(lstat(runtime + "/backbeat", &info) == 0 && info.st_mode & 0o777 == 0o700)
        let record = String(log.dropLast(".log".count)) + ".pid"
        #expect(FileManager.default.fileExists(atPath: record))
        let registry = try #require(try JackRegistry.read())
        #expect(registry.servers.contains { $0.pid == pid && $0.name == name })
        let segments = registry.segments.filter { $0.allocator == pid }.map(\.id)
        #expect(!segments.isEmpty)
        #expect(!PrivateServerFiles.leftoverFiles(name: name).isEmpty)

        backbeat.signal(SIGKILL)
        _ = try backbeat.waitForExit()
        // jackd has no signal for "stopped" that reaches us: its process vanishing is the signal, polled.
        #expect(try waitUntil(timeout: 15) { !JackRegistry.isAlive(pid) }, "jackd \(pid) outlived a killed Backbeat")
        // The registry is released as jackd exits; give it a bounded moment after the pid vanishes. (A jackd
        // stopped before it removed the killed client dies of SIGPIPE during its shutdown and keeps its slot:
        // seen in CI when the server was stopped by a parent-death signal; the watchdog now waits for that.)
        _ = try waitUntil(timeout: 5) { (try? JackRegistry.read())?.servers.contains { $0.pid == pid } == false }
        let after = try #require(try JackRegistry.read())
        #expect(!after.servers.contains { $0.pid == pid }, "its registry slot is still taken")
        #expect(!after.segments.contains { $0.allocator == pid })
        for id in segments { #expect(!FileManager.default.fileExists(atPath: "/dev/shm" + id), "\(id) left") }
        // jackd removes its socket and semaphores; the watchdog, once jackd has exited, the log, the record and
        // Backbeat's client semaphore (jackd may stop before it notices the client gone).
        #expect(try waitUntil(timeout: 5) {
            !FileManager.default.fileExists(atPath: log) && !FileManager.default.fileExists(atPath: record)
                && PrivateServerFiles.leftoverFiles(name: name).isEmpty
        }, "left: \(log)?, its record?, \(PrivateServerFiles.leftoverFiles(name: name))")
    }
}
}
