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

    /// Interleaved stereo float32 little-endian, left channel.
    static func leftChannel(float32 path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count / 8 * 8, by: 8).map { Float(bitPattern: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self)) }
        }
    }

    @Test func fileDeviceCarriesTheSynthsPitchAndLevel() throws {
        let path = temporaryPath("a440.raw")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let engine = Engine(options: Self.options(device: "file:'\(path)',raw"), log: { _ in })
        try engine.start()
        let started = Date()
        #expect(engine.keyboardRing.push(.midi(ShortMessage(status: 0x90, data1: 69, data2: 100), .keyboard)))
        Thread.sleep(forTimeInterval: 1.2)  // time passing is what is measured: the file holds about real time
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
        Thread.sleep(forTimeInterval: 0.5)  // past the start; then half a second of wall time is what is measured
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
            Thread.sleep(forTimeInterval: 0.02)  // polls the engine's event ring, which has no wake-up for readers
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
