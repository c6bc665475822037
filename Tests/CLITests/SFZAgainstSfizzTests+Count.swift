// `count` against `sfizz_render`, in the pattern of SFZAgainstSfizzTests.swift: a rising 0.25 s sample played
// several times by a note let go early (a count makes the region a one-shot in both). The figures are printed
// for docs/sfz.md.
import Foundation
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// `count=3`, `count=2 offset=6000` and `count=3 loop_mode=no_loop` (a later loop_mode wins: the note-off
    /// releases it) on `ramp.wav`, the note let go after 0.15 s: the loudness envelopes (10 ms windows) correlate
    /// at r >= 0.95 with sfizz's, and the last window above -40 dB (against the peak) is within 20 ms of sfizz's.
    @Test func countMatchesSfizz() throws {
        let note = S.Note(key: 60, velocity: 127, start: 0.2, end: 0.35)
        for (name, opcodes, ends) in [("3", "count=3", 0.2 + 0.75), ("2-offset", "count=2 offset=6000", 0.2 + 0.25),
                                      ("no-loop", "count=3 loop_mode=no_loop ampeg_release=0.01", 0.35)] {
            let sfz = "<region> sample=ramp.wav pitch_keycenter=60 amp_veltrack=0 \(opcodes)"
            let (ours, theirs) = try S.render("count-\(name)", sfz: sfz, notes: [note, S.Note(key: 1, velocity: 1, start: 1.4, end: 1.45)])
            let length = min(ours.count, theirs.count, Int(1.3 * Double(S.rate)))
            let a = AudioComparison.loudnessEnvelope(Array(ours.prefix(length)), rate: S.rate)
            let b = AudioComparison.loudnessEnvelope(Array(theirs.prefix(length)), rate: S.rate)
            let r = AudioComparison.pearson(a, b)
            func lastSounding(_ e: [Double]) -> Double { Double((e.lastIndex { $0 > -40 } ?? 0) + 1) * 0.01 }
            let (endOurs, endTheirs) = (lastSounding(a), lastSounding(b))
            print(String(format: "sfz %@: r = %.4f; sounds until %.2f s (backbeat), %.2f s (sfizz), expected about %.2f s",
                         opcodes, r, endOurs, endTheirs, ends))
            #expect(r >= 0.95, "\(opcodes): r = \(r)")
            #expect(abs(endOurs - endTheirs) <= 0.02 + 1e-9, "\(opcodes): ends at \(endOurs) s, sfizz at \(endTheirs) s")
        }
    }
}
