// What the velocity and controllers add to the envelopes at the note-on against `sfizz_render`, in the pattern of
// SFZAgainstSfizzTests.swift: `pitcheg_vel2*` and `pitcheg_*_onccN` (the modulation envelope, heard as pitch on
// `*sine`), `pitcheg_depth_onccN`, and `ampeg_*_onccN` over several CCs with `ampeg_start_onccN`. The figures are
// printed for docs/sfz.md.
import Foundation
import MIDI
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// `pitcheg_vel2attack` and `pitcheg_vel2sustain` at velocities 127, 64 and 20: the pitch held at the sustain
    /// within 5 cents of sfizz's and of depth x (sustain + vel2sustain x velocity / 127); the pitch over the first
    /// 0.5 s (every 10 ms, `pitchTrack`) correlates with sfizz's at r >= 0.95.
    @Test func modulationEnvelopeVelocityMatchesSfizz() throws {
        let notes = Self.spacedNotes([69, 69, 69], [127, 64, 20])
        let sfz = "<region> sample=*sine amp_veltrack=0 pitcheg_depth=1200 pitcheg_attack=0.05 pitcheg_vel2attack=0.4 "
            + "pitcheg_sustain=20 pitcheg_vel2sustain=60"
        let (ours, theirs) = try S.render("pitcheg-vel2", sfz: sfz, notes: notes)
        for note in notes {
            let sustain = 20 + 60 * Double(note.velocity) / 127
            let expected = 440 * pow(2, 1200 * sustain / 100 / 1200)
            let (a, b) = S.strongestPitches(ours, theirs, over: note, after: 0.6, near: expected)
            let trackOurs = Self.pitchTrack(ours, from: note.start, to: note.start + 0.5)
            let trackTheirs = Self.pitchTrack(theirs, from: note.start, to: note.start + 0.5)
            let r = AudioComparison.pearson(trackOurs, trackTheirs)
            let gap = zip(trackOurs, trackTheirs).map { abs($0 - $1) }.max() ?? 0
            print(String(format: "sfz pitcheg_vel2attack=0.4 vel2sustain=60 velocity %d: sustain expected %.2f Hz, backbeat %.2f, sfizz %.2f, apart %.2f cents; attack r = %.4f, largest gap %.1f cents",
                         Int(note.velocity), expected, a, b, S.cents(a, b), r, gap))
            #expect(abs(S.cents(a, b)) < 5, "velocity \(note.velocity): backbeat \(a) Hz, sfizz \(b) Hz")
            #expect(abs(S.cents(a, expected)) < 5, "velocity \(note.velocity): backbeat \(a) Hz, expected \(expected) Hz")
            #expect(r >= 0.95, "velocity \(note.velocity): attack r = \(r)")
        }
    }

    /// `pitcheg_sustain_onccN` on two CCs (summed) and `pitcheg_depth_onccN`, set before each note: the pitch held
    /// at the sustain within 5 cents of sfizz's and of (depth + CC22's share) x the sustain the CCs give.
    @Test func modulationEnvelopeControllersMatchSfizz() throws {
        let notes = Self.spacedNotes([69, 69, 69, 69], [100, 100, 100, 100])
        let values: [(cc20: UInt8, cc22: UInt8)] = [(0, 0), (64, 0), (127, 0), (127, 127)]
        var extra: [(seconds: Double, message: MIDIMessage)] = [(0.02, .controlChange(.init(channel: 0, controller: 21, value: 127)))]
        for (note, value) in zip(notes, values) {
            extra.append((note.start - 0.05, .controlChange(.init(channel: 0, controller: 20, value: value.cc20))))
            extra.append((note.start - 0.05, .controlChange(.init(channel: 0, controller: 22, value: value.cc22))))
        }
        let sfz = "<region> sample=*sine pitcheg_depth=1200 pitcheg_attack=0.02 pitcheg_decay=0.1 pitcheg_sustain=10 "
            + "pitcheg_sustain_oncc20=70 pitcheg_sustain_oncc21=20 pitcheg_depth_oncc22=-600"
        let (ours, theirs) = try S.render("pitcheg-cc", sfz: sfz, notes: notes, extra: extra)
        for (note, value) in zip(notes, values) {
            let sustain = 10 + 70 * Double(value.cc20) / 127 + 20
            let depth = 1200 - 600 * Double(value.cc22) / 127
            let expected = 440 * pow(2, depth * sustain / 100 / 1200)
            let (a, b) = S.strongestPitches(ours, theirs, over: note, after: 0.4, near: expected)
            print(String(format: "sfz pitcheg_sustain_oncc20/21, depth_oncc22 CC20 %d CC22 %d: expected %.2f Hz, backbeat %.2f, sfizz %.2f, apart %.2f cents",
                         Int(value.cc20), Int(value.cc22), expected, a, b, S.cents(a, b)))
            #expect(abs(S.cents(a, b)) < 5, "CC20 \(value.cc20) CC22 \(value.cc22): backbeat \(a) Hz, sfizz \(b) Hz")
            #expect(abs(S.cents(a, expected)) < 5, "CC20 \(value.cc20) CC22 \(value.cc22): backbeat \(a) Hz, expected \(expected) Hz")
        }
    }

    /// `ampeg_attack_onccN` and `ampeg_sustain_onccN` on CC20 and CC21 (summed, as sfizz sums them) with
    /// `ampeg_start_oncc22=50`, the CCs set before the note: the loudness envelopes correlate at r >= 0.95, the
    /// sustain (against the peak) and the first 10 ms are within 1.5 dB of sfizz's.
    @Test func envelopeControllersSumAsSfizz() throws {
        let sfz = "<region> sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous loop_start=0 loop_end=95999 amp_veltrack=0 "
            + "ampeg_attack=0.05 ampeg_attack_oncc20=0.2 ampeg_attack_oncc21=0.2 ampeg_decay=0.3 ampeg_sustain=20 "
            + "ampeg_sustain_oncc20=30 ampeg_sustain_oncc21=30 ampeg_start_oncc22=50 ampeg_release=0.1"
        for (cc20, cc21, cc22) in [(UInt8(0), UInt8(0), UInt8(0)), (127, 0, 127), (127, 127, 64)] {
            let note = S.Note(key: 66, velocity: 127, start: 0.2, end: 1.6)
            let extra: [(seconds: Double, message: MIDIMessage)] = [(20, cc20), (21, cc21), (22, cc22)].map {
                (0.05, .controlChange(.init(channel: 0, controller: $0.0, value: $0.1)))
            }
            let (a, b, r, sustainOurs, sustainTheirs) = try Self.heldEnvelopes("egsum-\(cc20)-\(cc21)-\(cc22)", sfz: sfz, note: note, extra: extra)
            let first = Int(0.2 / 0.01) + 1
            print(String(format: "sfz ampeg_*_oncc20/21, start_oncc22 CC %d/%d/%d: r = %.4f; sustain backbeat %.2f dB, sfizz %.2f dB below the peak; first 10 ms %.2f/%.2f dB",
                         Int(cc20), Int(cc21), Int(cc22), r, sustainOurs, sustainTheirs, a[first], b[first]))
            #expect(r >= 0.95, "CC \(cc20)/\(cc21)/\(cc22): r = \(r)")
            #expect(abs(sustainOurs - sustainTheirs) < 1.5, "CC \(cc20)/\(cc21)/\(cc22): sustain \(sustainOurs) dB, sfizz \(sustainTheirs) dB")
            #expect(abs(a[first] - b[first]) < 1.5, "CC \(cc20)/\(cc21)/\(cc22): first 10 ms \(a[first]) dB, sfizz \(b[first]) dB")
        }
    }
}
