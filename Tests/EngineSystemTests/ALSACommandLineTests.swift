@testable import Engine
import Foundation
import MIDI
import Testing
import TestSupport

/// The same through the `backbeat` binary: driver, errors and exit codes as a user meets them.
@Suite struct ALSACommandLineTests {
    static let noSequencer = !FileManager.default.fileExists(atPath: "/dev/snd/seq")

    /// An ALSA configuration made by the test: the system's, plus a float file device and an S16-only one.
    static func configuration(float: String, s16: String) throws -> String {
        let path = temporaryPath("asound.conf")
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
        let float = temporaryPath("float.raw"), s16 = temporaryPath("s16.raw")
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
        // Issue 36: the reason once, in the first status line; the lines after say it short.
        let statusLines = lines.filter { $0.contains(" | 48000 Hz") }
        #expect(statusLines.count >= 2, "\(lines)")
        #expect(statusLines.first?.contains("| ALSA MIDI unavailable: cannot open the ALSA sequencer /dev/snd/seq: No such file or directory") == true, "\(statusLines)")
        for line in statusLines.dropFirst() {
            #expect(line.hasSuffix(" | ALSA MIDI unavailable") && !line.contains("/dev/snd/seq"), "\(line)")
        }
    }

    @Test func inconsistentOptionsAreUsageErrors() throws {
        #expect(try run(backbeatExecutable(), ["--headless", "--driver", "alsa", "--midi", "jack"]).status == 64)
        #expect(try run(backbeatExecutable(), ["--headless", "--driver", "alsa", "--periods", "1"]).status == 64)
        #expect(try run(backbeatExecutable(), ["--headless", "--driver", "pulse"]).status == 64)
    }
}
