// The filter's key and velocity tracking (`fil_keytrack`/`fil_keycenter`/`fil_veltrack`, issue 38's "not yet"
// row) against `sfizz_render`, in the pattern of SFZAgainstSfizzTests.swift. The figures are printed for docs/sfz.md.
import Foundation
import MIDI
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// Notes one second apart (held 0.8 s), on `keys` at `velocities` (paired).
    static func spacedNotes(_ keys: [UInt8], _ velocities: [UInt8]) -> [S.Note] {
        zip(keys, velocities).enumerated().map { S.Note(key: $1.0, velocity: $1.1, start: 0.1 + Double($0), end: 0.9 + Double($0)) }
    }

    /// Noise (not transposed: `pitch_keytrack=0`) through lpf_2p at 500 Hz with the cutoff following the key
    /// around 60 and around 72, and the velocity: each note's response (against the same note unfiltered) in
    /// octave-spaced third-octave bands within 1.5 dB of sfizz's where sfizz's is above -20 dB, and the
    /// cutoff moved (the 1 kHz band's response spread over the notes by more than 6 dB).
    @Test func filterTrackingMatchesSfizz() throws {
        let centres: [Double] = [125, 250, 500, 1000, 2000, 4000]
        let cases: [(String, String, [S.Note])] = [
            ("keytrack", "fil_keytrack=100", Self.spacedNotes([48, 60, 72], [127, 127, 127])),
            ("keycenter", "fil_keytrack=50 fil_keycenter=72", Self.spacedNotes([48, 72], [127, 127])),
            ("veltrack", "fil_veltrack=2400", Self.spacedNotes([60, 60, 60], [127, 64, 20])),
        ]
        for (name, opcodes, notes) in cases {
            let base = "<region> sample=noise.wav pitch_keytrack=0"
            let open = try S.render("filtrack-open-\(name)", sfz: base, notes: notes)
            let filtered = try S.render("filtrack-\(name)", sfz: "\(base) cutoff=500 \(opcodes)", notes: notes)
            var spread: [Double] = []
            for note in notes {
                func bands(_ s: [Float]) -> [Double] {
                    Self.thirdOctaves(AudioComparison.slice(s, from: note.start + 0.1, to: note.end - 0.05, rate: S.rate), centres: centres, rate: S.rate)
                }
                let ours = zip(bands(filtered.ours), bands(open.ours)).map { $0 - $1 }
                let theirs = zip(bands(filtered.theirs), bands(open.theirs)).map { $0 - $1 }
                let rows = centres.indices.map { String(format: "%.0f Hz %.1f/%.1f", centres[$0], ours[$0], theirs[$0]) }
                print("sfz \(opcodes) key \(note.key) velocity \(note.velocity) (backbeat/sfizz dB): " + rows.joined(separator: ", "))
                for i in centres.indices where theirs[i] > -20 {
                    #expect(abs(ours[i] - theirs[i]) < 1.5, "\(opcodes) key \(note.key) velocity \(note.velocity) at \(centres[i]) Hz: backbeat \(ours[i]) dB, sfizz \(theirs[i]) dB")
                }
                spread.append(ours[3])
            }
            #expect((spread.max() ?? 0) - (spread.min() ?? 0) > 6, "\(opcodes): the 1 kHz band did not move with the note: \(spread)")
        }
    }
}
