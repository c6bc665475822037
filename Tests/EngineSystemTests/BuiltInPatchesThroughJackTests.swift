import Bench
import Engine
import Foundation
import Testing

/// Issue 20: the built-in synth plays each channel's own patch live too (the offline side:
/// BuiltInPerChannelPatchTests), heard through the whole JACK path with SynthThroughJackTests' rig.
extension JACK {
@Suite struct BuiltInPatchesThroughJackTests {
    /// Organ (GM program 16) on channel 1 panned hard left, piano (program 0) on channel 2 hard right, held
    /// together: after 3 s the organ still sounds at its level, the piano has died away.
    @Test func organAndPianoOnTwoChannelsKeepTheirOwnPatches() throws {
        let rig = try SynthThroughJackTests.Rig(seconds: 3.5)
        let take = try rig.play([
            ProbeEvent(frame: 0, bytes: [0xC0, 16]), .cc(0, 10, 0),
            ProbeEvent(frame: 0, bytes: [0xC1, 0]), .cc(0, 10, 127, channel: 1),
            .noteOn(512, 60), .noteOn(512, 67, channel: 1),
            .noteOff(160_000, 60), .noteOff(160_000, 67, channel: 1),
        ])
        // The median level of 50 ms blocks around `seconds`: a cycle the dummy driver skipped under load
        // leaves zeros in one block, which the median does not see.
        func level(_ x: [Float], at seconds: Double) -> Double {
            let start = take.zero + Int(seconds * 48_000)
            let blocks = stride(from: start, to: start + 5 * 2400, by: 2400).map {
                AudioAnalysis.rmsDecibels(x[$0..<($0 + 2400)])
            }.sorted()
            return blocks[blocks.count / 2]
        }
        let organ = (early: level(take.left, at: 0.4), late: level(take.left, at: 2.9))
        let piano = (early: level(take.right, at: 0.1), late: level(take.right, at: 2.9))
        print(String(format: "through JACK: organ %.1f -> %.1f dB, piano %.1f -> %.1f dB", organ.early, organ.late, piano.early, piano.late))
        #expect(organ.early > -30 && piano.early > -30)
        #expect(abs(organ.late - organ.early) < 3, "the organ sustains: \(organ)")
        #expect(piano.late < piano.early - 30, "the piano has decayed 30 dB: \(piano)")
    }
}
}
