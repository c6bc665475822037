import Bench
import Engine
import Foundation
import Testing

/// End to end with real JACK: a private `jackd -d dummy`, the built `backbeat`, `jack_midiseq` playing
/// notes, `jack_rec` recording what Backbeat plays, and the recording analysed. Serialized: each test runs
/// a real-time server and the machine has two cores.
extension JACK {
@Suite struct JackIntegrationTests {
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-tests-\(getpid())")

    init() throws {
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    /// Starts backbeat headless on `server` and waits for its "ready" line.
    func startBackbeat(server: String, _ extra: [String] = []) throws -> RunningProgram {
        let program = try RunningProgram(backbeatExecutable(), ["--headless", "--server", server] + extra, server: server)
        try program.waitForLine(containing: "ready:")
        return program
    }

    /// Starts `jack_midiseq NAME LOOP [start note length]...` and waits until its port exists.
    func startSequencer(server: JackTestServer, name: String = "seq", loop: Int, notes: [(start: Int, note: Int, length: Int)]) throws -> RunningProgram {
        let arguments = [name, String(loop)] + notes.flatMap { [String($0.start), String($0.note), String($0.length)] }
        let sequencer = try RunningProgram("/usr/bin/jack_midiseq", arguments, server: server.name)
        try server.waitForPort("\(name):out")
        return sequencer
    }

    /// Records Backbeat's two outputs for `seconds` with jack_rec and reads the file back.
    func record(server: JackTestServer, seconds: Int, file: String) throws -> WAVRecording {
        let path = temporary.appendingPathComponent(file).path
        let result = try run("/usr/bin/jack_rec", ["-f", path, "-d", String(seconds), "-b", "32", "-B", "262144", "backbeat:out_L", "backbeat:out_R"], server: server.name)
        // A recorder whose disk thread fell behind drops frames, and says so: that is not Backbeat's doing.
        #expect(result.status == 0 && !result.output.contains("overrun"), "jack_rec: \(result.output)")
        let recording = try WAVRecording(path: path)
        #expect(recording.sampleRate == server.rate)
        return recording
    }

    @Test func a4SoundsAt440Hz() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        // Retriggered every second, so notes arrive after Backbeat has connected.
        let sequencer = try startSequencer(server: server, loop: 48_000, notes: [(0, 69, 44_000)])
        defer { sequencer.signal(SIGTERM) }
        let backbeat = try startBackbeat(server: server.name, ["--no-autoconnect", "--connect-midi", "seq:out"])
        defer { backbeat.signal(SIGTERM) }
        let recording = try record(server: server, seconds: 3, file: "a4.wav")
        let left = recording.channels[0]
        let onsets = AudioAnalysis.onsets(left, threshold: 1e-4, quietFrames: 1000)
        let onset = try #require(onsets.first { $0 + 30_000 < left.count }, "no note start recorded: \(onsets)")
        let segment = left[(onset + 2400)..<(onset + 26_400)]
        let frequency = AudioAnalysis.dominantFrequency(segment, sampleRate: recording.sampleRate, low: 300, high: 600)
        #expect(abs(frequency - 440) / 440 < 0.005, "A4 measured at \(frequency) Hz")
        #expect(AudioAnalysis.rmsDecibels(segment) > -40)
        #expect(try run("/usr/bin/jack_lsp", ["-c"], server: server.name).output.contains("seq:out\n   backbeat:midi_in"))
    }

    @Test func notesStartExactlyTheirFrameDistanceApart() throws {
        // 0 and 24011 frames into a 48000-frame loop: not multiples of the 256-frame period.
        let server = try JackTestServer()
        defer { server.stop() }
        let sequencer = try startSequencer(server: server, loop: 48_000, notes: [(0, 69, 2400), (24_011, 69, 2400)])
        defer { sequencer.signal(SIGTERM) }
        let backbeat = try startBackbeat(server: server.name, ["--no-autoconnect", "--connect-midi", "seq:out"])
        defer { backbeat.signal(SIGTERM) }
        let xrunsBefore = try xrunCount(backbeat)
        let recording = try record(server: server, seconds: 3, file: "onsets.wav")
        let xruns = try xrunCount(backbeat) - xrunsBefore
        // An onset needs 4000 silent frames before it: one in the recording's first 4000 frames may be a
        // release tail crossing the threshold, not a note's start (seen: an "onset" at frame 18).
        let onsets = AudioAnalysis.onsets(recording.channels[0], threshold: 1e-6, quietFrames: 4000).filter { $0 >= 4000 }
        let distances = zip(onsets.dropFirst(), onsets).map { $0 - $1 }
        #expect(distances.count >= 3, "onsets found: \(onsets)")
        let exact = expectDistances(between: onsets, eachOf: [24_011, 23_989], period: server.period, xruns: xruns)
        #expect(exact >= 2, "onset distances \(distances), \(xruns) xruns while recording")
        #expect(distances.contains { abs($0 - 24_011) <= 1 })
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func privateServerIsStartedAndStopped(signal: Int32) throws {
        let name = "bbprivate-\(checkoutTag)-\(signal)"
        #expect(!(try jackdRunning(name)))
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", name], server: name)
        let started = try backbeat.waitForLine(containing: "started a private JACK server")
        #expect(started.contains("'\(name)'") && started.contains("dummy"))
        try backbeat.waitForLine(containing: "ready:")
        #expect(try run("/usr/bin/jack_lsp", [], server: name).output.contains("backbeat:out_L"))
        try backbeat.waitForLine(containing: "| voices ")
        backbeat.signal(signal)
        #expect(try backbeat.waitForExit() == 0)
        #expect(try waitUntil { try !jackdRunning(name) }, "jackd '\(name)' outlived Backbeat")
    }

    /// Issue 36: `backbeat --headless & backbeat --headless --name second &` failed 2 times in 3 ("jackd exited
    /// (65280): default server already active"). Three started at once, ten times: one starts the private
    /// server, the others join it under the start lock; each quits with 0 in any order (the one that
    /// started it first: it hands the server to its watchdog while the others play), and then no jackd of
    /// that name runs and nothing of it is left in /dev/shm.
    @Test func threeBackbeatsStartedAtOnceShareOnePrivateServer() throws {
        let name = "bbprivate-three-\(checkoutTag)"
        for round in 0..<10 {
            #expect(!(try jackdRunning(name)))
            let programs = try (0..<3).map { _ in
                try RunningProgram(backbeatExecutable(), ["--headless", "--server", name, "--no-autoconnect"], server: name)
            }
            for program in programs { try program.waitForLine(containing: "ready:", timeout: 30) }
            let outputs = programs.map { $0.output.joined(separator: "\n") }
            #expect(outputs.count { $0.contains("started a private JACK server '\(name)'") } == 1, "round \(round): \(outputs)")
            #expect(outputs.count { $0.contains("using the running JACK server '\(name)'") } == 2, "round \(round): \(outputs)")
            #expect(!outputs.contains { $0.contains("already active") || $0.contains("/dev/shm") }, "round \(round): \(outputs)")
            // The owner first in even rounds, last in odd ones.
            let owner = programs.firstIndex { $0.output.contains { $0.contains("started a private JACK server") } } ?? 0
            let order = round % 2 == 0 ? [owner] + (0..<3).filter { $0 != owner } : (0..<3).filter { $0 != owner } + [owner]
            for index in order {
                programs[index].signal(SIGTERM)
                let status = try? programs[index].waitForExit(timeout: 15)
                #expect(status == 0, "round \(round), \(index == owner ? "the owner" : "a joiner"): \(programs[index].output)")
            }
            #expect(try waitUntil(timeout: 15) { try !jackdRunning(name) }, "round \(round): jackd '\(name)' outlived the three")
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []).filter { $0.contains("_\(name)_") }
            #expect(left.isEmpty, "round \(round): left in /dev/shm: \(left)")
        }
    }

    /// Issue 36: `--headless` checked that the config file existed and never read it. Its engine keys act
    /// now as in the workstation (one function reads them for both, `UIArguments.loadConfig` and
    /// `EngineArguments.options(with:)`), the command line over them; a broken value or font in it ends
    /// Backbeat before anything starts (HardeningIIITests.headlessReadsAndChecksTheConfig).
    @Test func headlessPlaysWhatTheConfigSays() throws {
        let folder = try makeTemporaryDirectory("backbeat-config-headless")
        let name = "bbprivate-config-\(checkoutTag)"
        let config = folder.appendingPathComponent("config.toml").path
        try """
            [engine]
            server = "\(name)"
            name = "from-config"
            rate = 44100
            period = 128
            voices = 200
            autoconnect = false
            """.write(toFile: config, atomically: true, encoding: .utf8)
        for (extra, voices) in [([String](), 200), (["--voices", "300"], 300)] {
            let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--config", config] + extra, server: nil)
            let started = try backbeat.waitForLine(containing: "started a private JACK server")
            #expect(started.contains("'\(name)'") && started.contains("44100 Hz, 128 frames"), "\(started)")
            let ready = try backbeat.waitForLine(containing: "ready:")
            #expect(ready.contains("client 'from-config'") && ready.contains("44100 Hz, 128 frames"), "\(ready)")
            let status = try backbeat.waitForLine(containing: "| voices ")
            #expect(status.contains("voices 0/\(voices)"), "\(extra): \(status)")
            let ports = try run("/usr/bin/jack_lsp", ["-c"], server: name).output
            #expect(ports.contains("from-config:out_L") && !ports.contains("from-config:out_L\n   system:playback_1"), "autoconnect = false: \(ports)")
            backbeat.signal(SIGTERM)
            #expect(try backbeat.waitForExit(timeout: 15) == 0)
            #expect(try waitUntil { try !jackdRunning(name) })
        }
    }

    @Test func privateServerDiesWithBackbeat() throws {
        let name = "bbprivate-kill-\(checkoutTag)"
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", name], server: name)
        try backbeat.waitForLine(containing: "ready:")
        #expect(try jackdRunning(name))
        backbeat.signal(SIGKILL)
        _ = try backbeat.waitForExit()
        #expect(try waitUntil { try !jackdRunning(name) }, "jackd '\(name)' outlived a killed Backbeat")
    }

    /// Stopped (SIGINT) or killed (SIGKILL): Backbeat notices, keeps running, and reconnects to the new server.
    @Test(arguments: [SIGINT, SIGKILL])
    func reconnectsWhenTheServerComesBack(stoppedWith signal: Int32) throws {
        let server = try JackTestServer()
        let backbeat = try startBackbeat(server: server.name)
        defer { backbeat.signal(SIGTERM) }
        #expect(try server.connections().contains("backbeat:out_L\n   system:playback_1"))
        kill(server.process.processIdentifier, signal)
        server.process.waitUntilExit()
        try backbeat.waitForLine(containing: "went away")
        let lines = backbeat.output.count
        let again = try JackTestServer.startJackd(name: server.name, rate: 48_000, period: 256)
        defer { again.terminate(); again.waitUntilExit() }
        try backbeat.waitForLine(containing: "reconnected", after: lines, timeout: 30)
        let restored = try waitUntil { try server.connections().contains("backbeat:out_L\n   system:playback_1") }
        let connections = try server.connections()
        #expect(restored, "connections not restored: \(connections)")
        try backbeat.waitForLine(containing: "| voices ", after: backbeat.output.count)
    }

    @Test func namedPortThatDoesNotExistIsAClearError() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", server.name, "--connect-midi", "nosuch:port"], server: server.name)
        #expect(try backbeat.waitForExit() == 2)
        #expect(backbeat.output.contains { $0.contains("no JACK port named 'nosuch:port'") }, "\(backbeat.output)")
    }

    @Test func monitorPrintsWhatArrivesAsJSON() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        let sender = try ProbeMIDISender(server: server.name)
        defer { sender.close() }
        let monitor = try RunningProgram(backbeatExecutable(), ["monitor", "--json", "--server", server.name, "--no-autoconnect", "--connect-midi", "\(sender.name):out"], server: server.name)
        defer { monitor.signal(SIGTERM) }
        try monitor.waitForLine(containing: "ready:")
        sender.play([.noteOn(100, 60, 100), .cc(200, 64, 127), .init(frame: 300, bytes: [0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7]), .bend(48_000, -8192)])
        let note = try monitor.waitForLine(containing: "note-on")
        #expect(note.hasPrefix("{\"type\":\"note-on\",\"channel\":1,\"note\":60,\"velocity\":100,\"frame\":"), "\(note)")
        #expect(note.contains("\"time\":") && note.contains("\"source\":\"jack\""))
        let sysex = try monitor.waitForLine(containing: "sysex")
        #expect(sysex.contains("\"data\":\"7e7f0601\"") || sysex.contains("\"data\":\"7E7F0601\""), "\(sysex)")
        let bend = try monitor.waitForLine(containing: "pitch-bend")
        #expect(bend.contains("\"bend\":-8192"))
        // One second apart on JACK's clock: frame and time agree.
        func field(_ line: String, _ key: String) -> Double? {
            guard let range = line.range(of: "\"\(key)\":") else { return nil }
            return Double(line[range.upperBound...].prefix { "0123456789.-".contains($0) })
        }
        let frames = try #require(field(bend, "frame")) - (try #require(field(note, "frame")))
        #expect(frames == 48_000 - 100)
        let seconds = try #require(field(bend, "time")) - (try #require(field(note, "time")))
        #expect(abs(seconds - 47_900.0 / 48_000) < 1e-6)
    }

    /// The xrun count of Backbeat's next one-second status line (`| xruns N |`).
    /// Expects every distance between consecutive `onsets` to be one of `expected` (within a frame) and
    /// returns how many are. Only an xrun during the recording may spoil a distance, and only in the ways it
    /// can: it skips whole periods of the server's timeline that the recorder never sees (a distance short of
    /// an expected one by whole periods); the sequencer (`jack_midiseq`) misses a cycle, so its loop falls a
    /// period behind and every later note comes a period late (a distance longer by whole periods; seen in a
    /// CI dry run, with FluidSynth's onset late by the same period); or the period in which a note started
    /// never reached the recorder, so that note is first heard at the start of the next period (jack_rec's
    /// file starts at a period boundary, so that onset falls on a multiple of the period). A synth that
    /// started notes at period boundaries instead of their frames would be off by other amounts (the
    /// events' offsets into their periods), which none of these allow.
    func expectDistances(between onsets: [Int], eachOf expected: [Int], period: Int, xruns: Int) -> Int {
        let distances = zip(onsets.dropFirst(), onsets).map { $0 - $1 }
        var exact = 0
        for (index, distance) in distances.enumerated() {
            if expected.contains(where: { abs(distance - $0) <= 1 }) { exact += 1; continue }
            let wholePeriods = expected.contains { expected in
                let off = abs(expected - distance)
                return off > 1 && min(off % period, period - off % period) <= 1
            }
            let lostFirstPeriod = [onsets[index], onsets[index + 1]].contains { $0 % period <= 1 }
            #expect(xruns > 0 && (wholePeriods || lostFirstPeriod),
                    "onset distances \(distances) (onsets \(onsets)), \(xruns) xruns while recording")
        }
        return exact
    }

    func xrunCount(_ backbeat: RunningProgram) throws -> Int {
        let line = try backbeat.waitForLine(containing: "| voices ", after: backbeat.output.count)
        let field = try #require(line.components(separatedBy: "| xruns ").dropFirst().first, "no xruns in '\(line)'")
        return try #require(Int(field.prefix { $0.isNumber }), "no xrun count in '\(line)'")
    }
}
}
