import Foundation
import MIDI
import Testing
@testable import Engine

/// What a SIGKILL of Backbeat leaves: a MIDI capture readable up to about a second before, and no private
/// jackd nor anything of its. (jackd itself is never SIGKILLed here: that would leak a slot of the registry
/// every test shares; `PrivateServerFilesTests` covers the clean-up after one.)
extension JACK {
@Suite struct CrashTests {
    /// A folder of this test's own (TestSupport).
    let temporary: URL

    init() throws { temporary = try makeTemporaryDirectory("backbeat-crash") }

    @Test func midiCaptureSurvivesSIGKILL() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        // A note every half second (24000 frames), 50 ms long.
        let sequencer = try RunningProgram("/usr/bin/jack_midiseq", ["seq", "24000", "0", "60", "2400"], server: server.name)
        defer { sequencer.signal(SIGTERM) }
        let path = temporary.appendingPathComponent("killed.mid").path
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", server.name, "--no-autoconnect",
                                                                 "--connect-midi", "seq:out", "--record-midi", path], server: server.name)
        try backbeat.waitForLine(containing: "recording MIDI to")
        let started = Date()
        for _ in 0..<4 { try backbeat.waitForLine(containing: "rec MIDI", after: backbeat.output.count) }
        let elapsed = Date().timeIntervalSince(started)
        backbeat.signal(SIGKILL)
        _ = try backbeat.waitForExit()

        let file = try StandardMIDIFile(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        let ons = file.timedEvents().compactMap { event -> Double? in
            if case .message(.noteOn(let on)) = event.event, on.note == 60 { event.seconds } else { nil }
        }
        // Everything sent more than 1.5 s before the kill is in the file: notes every 0.5 s up to then.
        let last = try #require(ons.last, "no notes in the file")
        #expect(last >= elapsed - 1.5 - 0.5, "last note at \(last) s of \(elapsed) s recorded")
        #expect(ons.count >= Int((elapsed - 1.5) / 0.5), "\(ons.count) notes in \(elapsed) s")
        let gaps = zip(ons.dropFirst(), ons).map { $0 - $1 }
        // The capture keeps JACK frame times, so notes are 0.5 s (24000 frames) apart, except that a loaded
        // machine's xruns make jack_midiseq's own loop slip: each cycle it misses delays its later notes by
        // exactly one period (256 frames; seen up to 4 in one gap in a CI dry run). So each gap is 24000
        // frames plus whole periods, to the file's resolution (1920 ticks a second: 25 frames a tick, and a
        // gap of two rounded times may be off by one tick): not arrival times, which would wander.
        #expect(gaps.allSatisfy { gap in
            let late = gap * 48_000 - 24_000
            let periods = (late / 256).rounded()
            return periods >= 0 && periods <= 16 && abs(late - periods * 256) <= 26
        }, "note spacing \(gaps)")
    }

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
