// `ampeg_attack_onccN`, `_decay_`, `_sustain_` and `_release_onccN` against `sfizz_render`, in the pattern of
// SFZAgainstSfizzTests.swift: taken at the note-on (a CC moved during the note changes nothing in either). The
// figures are printed for docs/sfz.md.
import Foundation
import MIDI
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// The four stages moved by CC20 at 0, 64 and 127 (sent before the note; CC20 goes to 0 at 0.6 s, during
    /// the note): the loudness envelopes correlate at r >= 0.95 with sfizz's, and the sustain level (against
    /// each render's own peak) is within 1.5 dB.
    @Test func envelopeControllersMatchSfizz() throws {
        let sfz = "<region> sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous loop_start=0 loop_end=95999 amp_veltrack=0 "
            + "ampeg_attack=0.05 ampeg_attack_oncc20=0.3 ampeg_decay=0.2 ampeg_decay_oncc20=0.4 ampeg_sustain=20 ampeg_sustain_oncc20=50 "
            + "ampeg_release=0.1 ampeg_release_oncc20=0.6"
        for value: UInt8 in [0, 64, 127] {
            let note = S.Note(key: 66, velocity: 127, start: 0.2, end: 1.6)
            let extra: [(seconds: Double, message: MIDIMessage)] = [
                (0.05, .controlChange(.init(channel: 0, controller: 20, value: value))),
                (0.6, .controlChange(.init(channel: 0, controller: 20, value: 0))),
            ]
            let (a, b, r, sustainOurs, sustainTheirs) = try Self.heldEnvelopes("egcc-\(value)", sfz: sfz, note: note, extra: extra)
            let held = Int(1.45 / 0.01)
            // The release: the level 0.1 s after the note-off, against the sustain.
            let released = Int(1.7 / 0.01)
            let fallOurs = a[released] - a[held], fallTheirs = b[released] - b[held]
            print(String(format: "sfz ampeg_*_oncc20 CC20 %d: r = %.4f; sustain backbeat %.2f dB, sfizz %.2f dB below the peak; 0.1 s after the note-off %.1f/%.1f dB",
                         Int(value), r, sustainOurs, sustainTheirs, fallOurs, fallTheirs))
            #expect(r >= 0.95, "CC20 \(value): r = \(r)")
            #expect(abs(sustainOurs - sustainTheirs) < 1.5, "CC20 \(value): sustain \(sustainOurs) dB, sfizz \(sustainTheirs) dB")
        }
    }
}
