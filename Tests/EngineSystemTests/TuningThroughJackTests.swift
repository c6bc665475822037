import Bench
import Engine
import Foundation
import MIDI
import Testing
import TestSupport

/// Tuning heard through the whole JACK path (the rig of `SynthThroughJackTests`, a take without a lost
/// cycle in the measured windows): Master Fine Tuning as a sysex and RPN 2 coarse tuning as control changes
/// move a held note at their frames.
extension JACK {
@Suite struct TuningThroughJackTests {
    @Test func masterFineTuningAndRPNCoarseTuningMoveAHeldNote() throws {
        // Hollow organ (GM program 16, drawbar organ): full sustain. +50 cents at 0.5 s, then 2 semitones down at 1 s.
        let take = try SynthThroughJackTests.takeWithoutGaps(seconds: 1.5, [
            ProbeEvent(frame: 0, bytes: [0xC0, 16]), .noteOn(0, 69, 100),
            .sysex(24_011, .masterFineTuning(12_288)),
            .cc(48_000, 101, 0), .cc(48_000, 100, 2), .cc(48_000, 6, 62),
            .noteOff(70_000, 69),
        ], windows: [4_800..<24_000, 26_400..<48_000, 50_400..<69_600], what: "tuning")
        func pitch(_ start: Int, _ end: Int, near hz: Double) -> Double {
            let stretch = SynthThroughJackTests.longestGapFree(take.left[(take.zero + start)..<(take.zero + end)])
            // 0.1 s of a steady tone gives its pitch to a small fraction of the 3 cents asked.
            #expect(stretch.count >= 4_800, "gaps in every take: \(stretch.count) frames without one")
            return AudioAnalysis.dominantFrequency(stretch, sampleRate: 48_000, low: hz * 0.95, high: hz * 1.05)
        }
        let a = 440.0
        let before = pitch(4_800, 24_000, near: a)
        let fine = pitch(26_400, 48_000, near: a * pow(2, 50.0 / 1200))
        let coarse = pitch(50_400, 69_600, near: a * pow(2, -150.0 / 1200))
        #expect(abs(1200 * log2(before / a)) < 3, "before: \(before) Hz")
        #expect(abs(1200 * log2(fine / a) - 50) < 3, "master fine tuning +50 cents through JACK: \(fine) Hz")
        #expect(abs(1200 * log2(coarse / a) + 150) < 3, "then RPN 2 -2 semitones: \(coarse) Hz")
    }
}
}
