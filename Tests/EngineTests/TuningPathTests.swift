// Tuning messages through the live paths (JACK's buffer at its frame, the ALSA sequencer's rings) and the
// offline renderer: sample-identical, and heard (pitch measured from the audio).
@testable import Engine
import DSP
import Foundation
import MIDI
import Testing
import TestSupport

@Suite struct TuningPathTests {
    static let rate = 48_000.0

    /// The pitch of `x` in Hz between `low` and `high` (the built-in patch 0's fundamental).
    static func pitch(_ x: ArraySlice<Float>, near hz: Double) -> Double {
        AudioAnalysis.dominantFrequency(x, sampleRate: Int(rate), low: hz * 0.9, high: hz * 1.1)
    }

    /// A bulk tuning dump of program 1: every key a quarter tone above the one below, key 60 at middle C.
    static var quarterToneDump: [UInt8] {
        var bytes: [UInt8] = [0xF0, 0x7E, 0x7F, 0x08, 0x01, 0x01] + Array("quarter tones   ".utf8)
        for k in 0..<128 {
            let cents = 6000 + Double(k - 60) * 50
            let semitone = Int(cents / 100), fraction = Int((cents - Double(semitone) * 100) / 100 * 16384)
            bytes += [UInt8(semitone), UInt8(fraction >> 7), UInt8(fraction & 0x7F)]
        }
        return bytes + [0x00, 0xF7]
    }

    @Test func tuningMessagesLiveAndOfflineAreSampleIdenticalAndHeard() {
        // Master fine tuning +50 cents at 6000 on a sounding A; a quarter-tone dump selected by RPN 3 for the
        // note at 20000 (key 64: two semitones above middle C); a real-time single note change at 30001.
        let events: [(frame: Int, bytes: [UInt8])] = [
            (1_000, [0x90, 69, 100]),
            (6_000, [0xF0, 0x7F, 0x7F, 0x04, 0x03, 0x00, 0x60, 0xF7]),
            (12_000, [0x80, 69, 0]),
            (13_333, Self.quarterToneDump),
            (14_000, [0xB0, 101, 0]), (14_000, [0xB0, 100, 3]), (14_000, [0xB0, 6, 1]),
            (20_000, [0x90, 64, 100]),
            (30_001, [0xF0, 0x7F, 0x7F, 0x08, 0x02, 0x01, 0x01, 64, 64, 0, 0, 0xF7]),  // key 64 to 64 exactly
            (40_000, [0x80, 64, 0]),
        ]
        let frames = 48_000
        let (live, _) = SysexPathTests.expectLiveEqualsOffline(events, frames: frames)

        let a = 440.0, quarter = pow(2, 1.0 / 24)
        let before = Self.pitch(live[2_000..<6_000], near: a)
        let after = Self.pitch(live[7_000..<12_000], near: a * quarter)
        #expect(abs(1200 * log2(after / before) - 50) < 5, "master fine tuning: \(before) -> \(after) Hz")
        // Key 64 with the quarter-tone program: middle C plus 4 quarter tones (= D), not E.
        let d = 440 * pow(2, -7.0 / 12), e = 440 * pow(2, -5.0 / 12)
        let quartered = Self.pitch(live[22_000..<30_000], near: d * quarter)  // master tuning still +50 cents
        #expect(abs(1200 * log2(quartered / d) - 50) < 5, "key 64 at \(quartered) Hz (D + 50 cents: \(d * quarter))")
        let changed = Self.pitch(live[31_000..<40_000], near: e * quarter)
        #expect(abs(1200 * log2(changed / e) - 50) < 5, "key 64 retuned to E at \(changed) Hz")
    }

    /// A bulk dump (408 bytes) through the ALSA sequencer's rings reaches the synth whole.
    @Test func aBulkDumpThroughALSAReachesTheSynth() {
        let alsa = ALSASysexPath(sysexCapacity: 1_024)
        let synth = alsa.synth
        let bytes = Self.quarterToneDump
        #expect(bytes.count == 408)
        alsa.send(bytes)
        alsa.period(0)
        #expect(synth.ignoredSysexCount == 0, "the dump was answered")
        // Key 62 of program 1 is two quarter tones above middle C: it sounds at C# (key 61).
        for m in [ShortMessage(status: 0xB0, data1: 101, data2: 0), ShortMessage(status: 0xB0, data1: 100, data2: 3),
                  ShortMessage(status: 0xB0, data1: 6, data2: 1), ShortMessage(status: 0x90, data1: 62, data2: 100)] {
            synth.handle(m)
        }
        var out = [Float](repeating: 0, count: 9_600), outRight = out
        out.withUnsafeMutableBufferPointer { l in
            outRight.withUnsafeMutableBufferPointer { r in synth.render(left: l.baseAddress!, right: r.baseAddress!, frames: 9_600) }
        }
        let expected = 440 * pow(2, (61.0 - 69) / 12)
        let heard = Self.pitch(out[2_400...], near: expected)
        #expect(abs(1200 * log2(heard / expected)) < 5, "key 62 at \(heard) Hz, expected \(expected)")
    }
}
