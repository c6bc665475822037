@testable import Engine
import Foundation
import MIDI
import Testing

/// Backbeat on ALSA PCM without a sound card: the `null` device and the `file` plugin (raw samples into a
/// file the test then analyses like the JACK recordings). No JACK server is involved.
@Suite struct ALSAPCMTests {
    static func options(device: String) -> EngineOptions {
        var options = EngineOptions()
        options.driver = .alsa
        options.alsaDevice = device
        options.midiInput = .jack  // no sequencer probe: these tests are about the PCM
        options.rate = 48_000
        options.period = 256
        return options
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    }

    /// Interleaved stereo float32 little-endian, left channel.
    static func leftChannel(float32 path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count / 8 * 8, by: 8).map { Float(bitPattern: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self)) }
        }
    }

    @Test func fileDeviceCarriesTheSynthsPitchAndLevel() throws {
        let path = Self.temporaryPath("a440.raw")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let engine = Engine(options: Self.options(device: "file:'\(path)',raw"), log: { _ in })
        try engine.start()
        let started = Date()
        #expect(engine.keyboardRing.push(.midi(ShortMessage(status: 0x90, data1: 69, data2: 100), .keyboard)))
        Thread.sleep(forTimeInterval: 1.2)
        let status = engine.status()
        engine.stop()
        let elapsed = Date().timeIntervalSince(started)

        #expect(status.driver == "alsa")
        #expect(status.connected)
        #expect(status.sampleRate == 48_000 && status.periodFrames == 256)
        #expect(status.alsaPCM?.contains("float32") == true, "\(status.alsaPCM ?? "nil")")
        // The file plugin on null has no clock: Backbeat paces itself, so the file holds about real time.
        #expect(status.alsaPCM?.contains("paced by the system clock") == true, "\(status.alsaPCM ?? "nil")")
        #expect(status.xruns == 0)

        let left = try Self.leftChannel(float32: path)
        let frames = Double(left.count)
        #expect(frames > 0.7 * elapsed * 48_000 && frames < 1.3 * elapsed * 48_000 + 2048, "\(left.count) frames in \(elapsed) s")
        let onset = try #require(left.firstIndex { abs($0) > 1e-4 })
        #expect(onset < 4096, "the note starts within the first periods (frame \(onset))")
        let segment = left[(onset + 9_600)..<min(onset + 38_400, left.count)]
        let frequency = AudioAnalysis.dominantFrequency(segment, sampleRate: 48_000, low: 400, high: 480)
        #expect(abs(frequency - 440) < 1, "A4 measured at \(frequency) Hz")
        let level = AudioAnalysis.rmsDecibels(segment)
        #expect(level > -40 && level < 0, "A4 at \(level) dBFS")
    }

    @Test func nullDeviceRunsAndReportsTheDriver() throws {
        let engine = Engine(options: Self.options(device: "null"), log: { _ in })
        try engine.start()
        Thread.sleep(forTimeInterval: 0.5)
        let first = engine.frameTime() ?? 0
        Thread.sleep(forTimeInterval: 0.5)
        let second = engine.frameTime() ?? 0
        let status = engine.status()
        engine.stop()
        engine.stop()  // idempotent
        #expect(status.driver == "alsa")
        #expect(status.alsaPCM?.hasPrefix("ALSA PCM 'null'") == true)
        #expect(status.alsaMIDI == nil)  // --midi jack: no sequencer asked for
        let advanced = Int(second &- first)
        #expect(advanced > 16_000 && advanced < 40_000, "frames in 0.5 s: \(advanced)")
    }

    /// The RT half of the sequencer path: the test plays the ALSA reader thread (the rings' producer).
    @Test func alsaMessagesAndSysexReachTheMonitorWithTheirSource() throws {
        let engine = Engine(options: Self.options(device: "null"), log: { _ in })
        try engine.start()
        defer { engine.stop() }
        let sysex: [UInt8] = [0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7]
        _ = sysex.withUnsafeBufferPointer { engine.context.alsaSysexRing.push(contentsOf: $0) }
        #expect(engine.alsaRing.push(.sysex(length: UInt32(sysex.count), .alsa)))
        #expect(engine.alsaRing.push(.midi(ShortMessage(status: 0x91, data1: 64, data2: 90), .alsa)))
        var seen: [MonitorEvent] = []
        var payload: [UInt8] = []
        let deadline = Date().addingTimeInterval(3)
        while seen.count < 2 && Date() < deadline {
            engine.drainEvents { event in
                guard case .midi(let midi) = event else { return }
                seen.append(midi)
                if midi.message.isSystemExclusive { payload = engine.takeSysex(count: Int(midi.sysexBytesQueued)) }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(seen.map(\.source) == [.alsa, .alsa])
        #expect(seen.first?.sysexLength == UInt32(sysex.count))
        #expect(payload == sysex)
        #expect(seen.last?.message == ShortMessage(status: 0x91, data1: 64, data2: 90))
    }

    @Test func unknownDeviceFailsWithItsNameAndNothingRuns() {
        let engine = Engine(options: Self.options(device: "backbeat-no-such-device"), log: { _ in })
        #expect {
            try engine.start()
        } throws: { error in
            "\(error)".contains("'backbeat-no-such-device'") && "\(error)".contains("No such file or directory")
        }
        #expect(!engine.status().connected)
        #expect(engine.alsa.pcm == nil)
        engine.stop()
    }
}

/// The same through the `backbeat` binary: driver, errors and exit codes as a user meets them.
@Suite struct ALSACommandLineTests {
    static let noSequencer = !FileManager.default.fileExists(atPath: "/dev/snd/seq")

    /// An ALSA configuration made by the test: the system's, plus a float file device and an S16-only one.
    static func configuration(float: String, s16: String) throws -> String {
        let path = ALSAPCMTests.temporaryPath("asound.conf")
        let text = """
        </usr/share/alsa/alsa.conf>
        pcm.bbfile { type file; slave.pcm "null"; file "\(float)"; format "raw" }
        pcm.bbs16 { type file; file "\(s16)"; format "raw"; slave.pcm { type linear; slave { pcm "null"; format S16_LE } } }
        """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static var hasDemo: Bool { ((try? run(backbeatExecutable(), ["run", "--help"]).output) ?? "").contains("--demo") }

    /// Runs `backbeat --headless` with `arguments` until its second status line, then SIGTERM.
    static func runHeadless(_ arguments: [String], environment: [String: String] = [:]) throws -> (lines: [String], status: Int32) {
        let program = try RunningProgram(backbeatExecutable(), ["--headless"] + arguments, server: nil, environment: environment)
        let first = try program.waitForLine(containing: " | 48000 Hz")
        let index = program.output.firstIndex(of: first) ?? 0
        try program.waitForLine(containing: " | 48000 Hz", after: index + 1)
        program.signal(SIGTERM)
        let status = try program.waitForExit()
        return (program.output, status)
    }

    @Test func nullDeviceHeadless() throws {
        let (lines, status) = try Self.runHeadless(["--driver", "alsa", "--device", "null", "--midi", "auto"])
        #expect(status == 0, "\(lines)")
        #expect(lines.contains { $0.contains("ready: ALSA PCM 'null', 48000 Hz") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ALSA PCM 'null': float32") && $0.contains("xruns 0") }, "\(lines)")
        #expect(lines.contains { $0.contains("SCHED_FIFO") }, "the status says which scheduling the PCM thread got: \(lines)")
    }

    @Test func fileDevicesFromATestConfiguration() throws {
        let float = ALSAPCMTests.temporaryPath("float.raw"), s16 = ALSAPCMTests.temporaryPath("s16.raw")
        let config = try Self.configuration(float: float, s16: s16)
        defer { for path in [float, s16, config] { try? FileManager.default.removeItem(atPath: path) } }
        let demo = Self.hasDemo ? ["--demo"] : []
        for (device, path, bytesPerFrame) in [("bbfile", float, 8), ("bbs16", s16, 4)] {
            let (lines, status) = try Self.runHeadless(["--driver", "alsa", "--device", device] + demo,
                                                       environment: ["ALSA_CONFIG_PATH": config])
            #expect(status == 0, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("ALSA PCM '\(device)': \(bytesPerFrame == 8 ? "float32" : "S16")") }, "\(lines)")
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            // Two status lines: at least a second of audio, in whole frames of the device's format.
            #expect(size >= 48_000 * bytesPerFrame && size % bytesPerFrame == 0, "\(device): \(size) bytes")
            guard Self.hasDemo else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let left: [Float] = data.withUnsafeBytes { raw in
                stride(from: 0, to: raw.count / bytesPerFrame * bytesPerFrame, by: bytesPerFrame).map {
                    bytesPerFrame == 8 ? Float(bitPattern: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self))
                                       : Float(Int16(bitPattern: raw.loadUnaligned(fromByteOffset: $0, as: UInt16.self))) / 32768
                }
            }
            // As the JACK capture test checks the demo: sound from its first notes on, a plausible first chord.
            let onset = try #require(left.firstIndex { abs($0) > 1e-3 }, "\(device): no sound")
            let heard = left[onset...]
            let level = AudioAnalysis.rmsDecibels(heard)
            #expect(level > -40 && heard.map(abs).max()! < 1, "\(device): demo at \(level) dBFS")
            let firstChord = left[onset..<min(onset + 19_200, left.count)]
            let dominant = AudioAnalysis.dominantFrequency(firstChord, sampleRate: 48_000, low: 90, high: 1000)
            // A2 bass, the A minor chord A3 C4 E4, melody E5.
            let candidates = [110.0, 220, 261.63, 329.63, 659.26]
            #expect(candidates.contains { abs(dominant - $0) / $0 < 0.01 }, "\(device): dominant \(dominant) Hz in the first 400 ms")
        }
    }

    @Test func unknownDeviceExitsTwoNamingIt() throws {
        let result = try run(backbeatExecutable(), ["--headless", "--driver", "alsa", "--device", "backbeat-no-such-device", "--midi", "auto"])
        #expect(result.status == 2)
        #expect(result.output.contains("cannot open ALSA PCM device 'backbeat-no-such-device' for playback: No such file or directory"), "\(result.output)")
    }

    @Test(.enabled(if: noSequencer, "this machine has /dev/snd/seq"))
    func requiredSequencerMissingExitsTwo() throws {
        let result = try run(backbeatExecutable(), ["--headless", "--driver", "alsa", "--device", "null", "--midi", "alsa"])
        #expect(result.status == 2)
        #expect(result.output.contains("cannot open the ALSA sequencer /dev/snd/seq: No such file or directory"), "\(result.output)")
        let both = try run(backbeatExecutable(), ["monitor", "--driver", "alsa", "--device", "null", "--midi", "both"])
        #expect(both.status == 2, "\(both.output)")
    }

    @Test(.enabled(if: noSequencer, "this machine has /dev/snd/seq"))
    func autoWithoutSequencerSaysSoAndGoesOn() throws {
        let (lines, status) = try Self.runHeadless(["--driver", "alsa", "--device", "null"])
        #expect(status == 0)
        #expect(lines.contains { $0.contains("| ALSA MIDI unavailable: cannot open the ALSA sequencer /dev/snd/seq: No such file or directory") }, "\(lines)")
    }

    @Test func inconsistentOptionsAreUsageErrors() throws {
        #expect(try run(backbeatExecutable(), ["--headless", "--driver", "alsa", "--midi", "jack"]).status == 64)
        #expect(try run(backbeatExecutable(), ["--headless", "--driver", "alsa", "--periods", "1"]).status == 64)
        #expect(try run(backbeatExecutable(), ["--headless", "--driver", "pulse"]).status == 64)
    }
}
