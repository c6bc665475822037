// `amp_veltrack` below 0 (louder at low velocity) against `sfizz_render`, in the pattern of
// SFZAgainstSfizzTests.swift. The figures are printed for docs/sfz.md.
import Foundation
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// `amp_veltrack=-100` and `-50` without a curve at velocities 20, 64, 100 and 127: each note's level within
    /// 1.5 dB of sfizz's, and silent where sfizz's is (-100 at 127).
    @Test func negativeVelocityTrackingMatchesSfizz() throws {
        let velocities: [UInt8] = [20, 64, 100, 127]
        let notes = Self.spacedNotes(Array(repeating: 66, count: velocities.count), velocities)
        for (i, opcodes) in ["amp_veltrack=-100", "amp_veltrack=-50"].enumerated() {
            let (ours, theirs) = try S.render("veltrack-\(i)", sfz: "<region> sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous "
                                              + "loop_start=0 loop_end=95999 ampeg_release=0.01 \(opcodes)", notes: notes)
            for note in notes {
                let (a, b) = Self.levels(ours, theirs, note)
                print(String(format: "sfz %@ velocity %d: backbeat %.2f dBFS, sfizz %.2f dBFS, apart %.2f dB", opcodes, Int(note.velocity), a, b, a - b))
                if b < -90 {
                    #expect(a < -90, "\(opcodes) velocity \(note.velocity): backbeat \(a) dB, sfizz \(b) dB (silent)")
                } else {
                    #expect(abs(a - b) < 1.5, "\(opcodes) velocity \(note.velocity): backbeat \(a) dB, sfizz \(b) dB")
                }
            }
        }
    }
}
