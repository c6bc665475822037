import Engine
import Foundation
import Testing

/// Backbeat on a headless PipeWire (`pw-jack backbeat`), the refusal to start a private jackd nobody hears
/// while PipeWire runs, and Backbeat on a netJACK2 slave whose master is on the same machine (loopback).
/// Each graph is measured from outside Backbeat: `jack_midiseq` plays an A4 every half second, `jack_rec`
/// records what comes back, and the recording's onsets, pitch and level are checked.
extension JACK {
@Suite struct PipeWireAndNetJackTests {
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-pw-tests-\(getpid())")

    init() throws {
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    /// Onsets `loop` frames apart (the sequencer's loop) in the left channel, an A4 at 440 Hz, audible.
    func expectRepeatedA4(_ recording: WAVRecording, loop: Int, exactly: Bool, period: Int = 256, _ context: String) {
        let left = recording.channels[0]
        let onsets = AudioAnalysis.onsets(left, threshold: 1e-4, quietFrames: 1000)
        #expect(onsets.count >= 3, "\(context): onsets \(onsets)")
        guard let onset = onsets.first(where: { $0 + 12_000 < left.count }) else {
            Issue.record("\(context): no note start recorded: \(onsets)")
            return
        }
        let distances = zip(onsets.dropFirst(), onsets).map { $0 - $1 }.sorted()
        if !distances.isEmpty {
            let median = distances[distances.count / 2]
            if exactly {
                // The median: one late period (an xrun) moves one distance, not the most.
                #expect(abs(median - loop) <= 1, "\(context): onset distances \(distances), expected \(loop)")
            } else {
                // Over the network, a late packet makes the slave skip or repeat whole periods of the master's
                // clock, and a loaded machine does that to several loops: each distance is the loop give or take
                // whole periods (`period` frames; at most two), never a fraction of one, so Backbeat still
                // starts each note at its frame.
                let offsets = distances.map { d -> Int in
                    let r = ((d - loop) % period + period) % period
                    return min(r, period - r)
                }
                #expect(offsets.allSatisfy { $0 <= 2 }, "\(context): onset distances \(distances), expected \(loop) +- whole periods of \(period)")
                #expect(abs(median - loop) <= 2 * period + 2, "\(context): onset distances \(distances), expected \(loop)")
            }
        }
        let segment = left[(onset + 1_200)..<(onset + 10_800)]
        let frequency = AudioAnalysis.dominantFrequency(segment, sampleRate: recording.sampleRate, low: 300, high: 600)
        // The figures, for the log (README cites them).
        print("\(context): onsets \(onsets), \(String(format: "%.2f", frequency)) Hz, \(String(format: "%.1f", AudioAnalysis.rmsDecibels(segment))) dBFS")
        #expect(abs(frequency - 440) / 440 < 0.005, "\(context): A4 measured at \(frequency) Hz")
        #expect(AudioAnalysis.rmsDecibels(segment) > -40, "\(context): level \(AudioAnalysis.rmsDecibels(segment)) dBFS")
    }

    // MARK: PipeWire

    /// A headless PipeWire daemon of its own (its default configuration's dummy driver runs the graph), in a
    /// private runtime folder: its socket there is what Backbeat and `pw-jack` find.
    final class HeadlessPipeWire {
        let runtime: String
        let process = Process()

        init(runtime: String) throws {
            self.runtime = runtime
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--pdeathsig", "KILL", "--", "/usr/bin/pipewire"]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            FileManager.default.createFile(atPath: runtime + "/pipewire.log", contents: nil)
            let log = FileHandle(forWritingAtPath: runtime + "/pipewire.log") ?? FileHandle.nullDevice
            process.standardOutput = log
            process.standardError = log
            try process.run()
            // The socket has no signal: a JACK client through pw-jack that connects is the signal.
            guard waitUntil(timeout: 15, { (try? pwJack(["/usr/bin/jack_lsp"]).status) == 0 }) else {
                let log = (try? String(contentsOfFile: runtime + "/pipewire.log", encoding: .utf8)) ?? ""
                throw HarnessError("pipewire did not accept a JACK client within 15 s:\n\(log.suffix(2000))")
            }
        }

        /// What the test's environment changes for its children (the test harness merges it over its own):
        /// PipeWire's runtime folder and socket, the default JACK server (PipeWire's, under pw-jack), and no
        /// override of Backbeat's PipeWire check.
        var environment: [String: String] {
            ["XDG_RUNTIME_DIR": runtime, "PIPEWIRE_RUNTIME_DIR": runtime, "PIPEWIRE_REMOTE": "pipewire-0",
             "JACK_DEFAULT_SERVER": "default", PipeWireDesktop.overrideVariable: "0"]
        }

        /// Runs `arguments` under `pw-jack` (PipeWire's libjack) to the end.
        func pwJack(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let output = try runToEnd("/usr/bin/pw-jack", arguments, environment: environment)
            return (output.status, output.stdout + output.stderr)
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }

        deinit { stop() }
    }

    @Test(.needs(executable: "/usr/bin/pipewire", package: "pipewire"), .needs(executable: "/usr/bin/pw-jack", package: "pipewire-jack"))
    func pwJackBackbeatPlaysThroughAHeadlessPipeWire() throws {
        let pipeWire = try HeadlessPipeWire(runtime: temporary.path + "/runtime")
        defer { pipeWire.stop() }
        let environment = pipeWire.environment

        // jack2's libjack, no JACK server, PipeWire running: no private jackd, a message saying how to join.
        let unheard = "bbpw-\(checkoutTag)"
        let refused = try RunningProgram(backbeatExecutable(), ["--headless", "--server", unheard], server: nil, environment: environment)
        #expect(try refused.waitForExit(timeout: 20) == 2)
        let said = refused.output.joined(separator: "\n")
        #expect(said.contains("PipeWire is running (\(pipeWire.runtime)/pipewire-0)") && said.contains("pw-jack backbeat"), "\(said)")
        #expect(said.contains(PipeWireDesktop.overrideVariable + "=1"), "\(said)")
        #expect(!said.contains("started a private JACK server"), "\(said)")
        #expect(try !jackdRunning(unheard))

        // Under pw-jack, Backbeat joins PipeWire's graph; a sequencer and a recorder, also under pw-jack, play
        // it and record it.
        let sequencer = try RunningProgram("/usr/bin/pw-jack", ["/usr/bin/jack_midiseq", "seq", "24000", "0", "69", "12000"], server: nil, environment: environment)
        defer { sequencer.signal(SIGTERM) }
        let backbeat = try RunningProgram("/usr/bin/pw-jack", [backbeatExecutable(), "--headless", "--no-autoconnect", "--connect-midi", "seq:out"],
                                          server: nil, environment: environment)
        defer { backbeat.signal(SIGTERM) }
        let ready = try backbeat.waitForLine(containing: "ready:", timeout: 20)
        #expect(backbeat.output.contains { $0.contains("using the running JACK server") }, "\(backbeat.output)")
        #expect(!backbeat.output.contains { $0.contains("PipeWire is running") }, "\(backbeat.output)")
        let path = temporary.appendingPathComponent("pipewire.wav").path
        let recorded = try pipeWire.pwJack(["/usr/bin/jack_rec", "-f", path, "-d", "3", "-b", "32", "-B", "262144", "backbeat:out_L", "backbeat:out_R"])
        #expect(recorded.status == 0, "jack_rec: \(recorded.output)")
        let recording = try WAVRecording(path: path)
        #expect(recording.sampleRate == 48_000, "\(ready)")
        expectRepeatedA4(recording, loop: 24_000, exactly: true, "through PipeWire (\(ready))")
        let connections = try pipeWire.pwJack(["/usr/bin/jack_lsp", "-c"]).output
        #expect(connections.contains("seq:out\n   backbeat:midi_in"), "\(connections)")
    }

    @Test(.needs(executable: "/usr/bin/pipewire", package: "pipewire"))
    func theOverrideStartsAPrivateServerWhilePipeWireRuns() throws {
        let pipeWire = try HeadlessPipeWire(runtime: temporary.path + "/runtime-override")
        defer { pipeWire.stop() }
        var environment = pipeWire.environment
        environment[PipeWireDesktop.overrideVariable] = "1"
        let server = "bbprivate-pw-\(checkoutTag)"
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", server], server: nil, environment: environment)
        defer { _ = try? backbeat.waitForExit(timeout: 20) }
        defer { backbeat.signal(SIGTERM) }
        let started = try backbeat.waitForLine(containing: "started a private JACK server '\(server)'", timeout: 20)
        try backbeat.waitForLine(containing: "ready:", timeout: 20)
        #expect(try jackdRunning(server), "\(started)")
    }

    /// Only a socket that accepts a connection is a running PipeWire: a socket file whose daemon died (bound,
    /// nobody listening) is not, and `PIPEWIRE_REMOTE` may name the socket by path.
    @Test func onlyAListeningSocketIsARunningPipeWire() throws {
        let runtime = temporary.path + "/sockets"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let path = runtime + "/pipewire-0"
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd); unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, byte) in path.utf8.enumerated() { raw[i] = byte } }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        try #require(bound == 0)
        let environment = ["XDG_RUNTIME_DIR": runtime]
        #expect(PipeWireDesktop.runningSocket(environment: environment) == nil)
        #expect(PipeWireDesktop.refusal(environment: environment) == nil)
        try #require(listen(fd, 4) == 0)
        #expect(PipeWireDesktop.runningSocket(environment: environment) == path)
        #expect(PipeWireDesktop.runningSocket(environment: ["PIPEWIRE_REMOTE": path]) == path)
        // This test process runs on jack2's libjack: the refusal stands unless overridden.
        #expect(PipeWireDesktop.refusal(environment: environment)?.socket == path)
        #expect(PipeWireDesktop.refusal(environment: environment.merging([PipeWireDesktop.overrideVariable: "1"]) { $1 }) == nil)
        #expect(PipeWireDesktop.libjackPath().map(PipeWireDesktop.isPipeWireLibjack) == false)
    }

    // MARK: netJACK2

    /// A jackd whose driver is netJACK2's `net`: it runs as a slave of the master at 127.0.0.1:`port`.
    func startSlave(name: String, client: String, port: UInt16) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        // One MIDI port from the master, two audio ports back to it, none the other ways.
        process.arguments = ["--pdeathsig", "KILL", "--", "/usr/bin/jackd", "-n", name, "-d", "net", "-a", "127.0.0.1", "-p", String(port),
                             "-n", client, "-i", "1", "-o", "0", "-C", "0", "-P", "2"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func backbeatOnANetJackSlavePlaysWhatTheMasterSendsAndItsAudioComesBack() throws {
        let master = try JackTestServer()
        defer { master.stop() }
        // A port nobody uses now: the kernel picks it for a socket that is then closed.
        let probe = LoopbackUDPSocket()
        let port = probe.port
        close(probe.fd)
        let loaded = try run("/usr/bin/jack_load", ["netmanager", "-i", "-a 127.0.0.1 -p \(port)"], server: master.name)
        #expect(loaded.status == 0, "jack_load netmanager: \(loaded.output)")

        let slaveName = "bbnetslave-\(checkoutTag)"
        let client = "bbslave"
        let slave = try startSlave(name: slaveName, client: client, port: port)
        defer { slave.terminate(); slave.waitUntilExit() }
        // The master lists the slave's ports once the two have met.
        guard waitUntil(timeout: 20, { ((try? master.connections(listing: false)) ?? "").contains("\(client):from_slave_1") }) else {
            Issue.record("the netJACK2 slave did not join the master: \(try master.connections(listing: false))")
            return
        }

        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", slaveName], server: slaveName)
        defer { backbeat.signal(SIGTERM) }
        let ready = try backbeat.waitForLine(containing: "ready:", timeout: 20)
        #expect(backbeat.output.contains { $0.contains("using the running JACK server '\(slaveName)'") }, "\(backbeat.output)")
        // On the slave, the master's MIDI and audio are the "system" (physical) ports Backbeat connects to.
        let onSlave = try run("/usr/bin/jack_lsp", ["-c"], server: slaveName).output
        #expect(onSlave.contains("system:midi_capture_1\n   backbeat:midi_in") && onSlave.contains("system:playback_1\n   backbeat:out_L"), "\(onSlave)")

        let sequencer = try RunningProgram("/usr/bin/jack_midiseq", ["seq", "24000", "0", "69", "12000"], server: master.name)
        defer { sequencer.signal(SIGTERM) }
        try master.waitForPort("seq:out")
        let connected = try run("/usr/bin/jack_connect", ["seq:out", "\(client):midi_to_slave_1"], server: master.name)
        #expect(connected.status == 0, "\(connected.output)")
        let path = temporary.appendingPathComponent("netjack.wav").path
        let recorded = try run("/usr/bin/jack_rec", ["-f", path, "-d", "3", "-b", "32", "-B", "262144", "\(client):from_slave_1", "\(client):from_slave_2"], server: master.name)
        #expect(recorded.status == 0, "jack_rec: \(recorded.output)")
        let recording = try WAVRecording(path: path)
        expectRepeatedA4(recording, loop: 24_000, exactly: false, "over netJACK2 (\(ready))")
        // The note came over the network to Backbeat: it counted what it received.
        let status = try backbeat.waitForLine(containing: "| voices ", after: backbeat.output.count, timeout: 10)
        #expect(!status.contains("MIDI 0 received"), "\(status)")
    }
}
}
