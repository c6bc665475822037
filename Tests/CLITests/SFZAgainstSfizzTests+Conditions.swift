// The note-on conditions on the wheel and on several CCs, and `pitch_veltrack`, against `sfizz_render`, in the
// pattern of SFZAgainstSfizzTests.swift. The figures are printed for docs/sfz.md.
import Foundation
import MIDI
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// `lobend`/`hibend` and `loccN`/`hiccN` on two CCs: which of two regions (*sine at A4, and an octave up)
    /// each note plays as the wheel and the CCs move between the notes, the same as sfizz's choices.
    @Test func wheelAndControllerConditionsMatchSfizz() throws {
        let a4 = 440.0, a5 = 880.0
        let notes = (0..<4).map { S.Note(key: 69, velocity: 100, start: 0.1 + Double($0) * 0.5, end: 0.4 + Double($0) * 0.5) }
        let windows = notes.map { ($0.start + 0.05, $0.end) }
        func cc(_ at: Double, _ controller: UInt8, _ value: UInt8) -> (seconds: Double, message: MIDIMessage) {
            (at, .controlChange(.init(channel: 0, controller: controller, value: value)))
        }
        func wheel(_ at: Double, _ bend: Int) -> (seconds: Double, message: MIDIMessage) { (at, .pitchBend(.init(channel: 0, bend: bend))) }
        // The wheel: up at rest (0), then -4096, 8191, then back to 0. The second region plays from lobend=-100.
        let bends = "<global> ampeg_release=0.01 bend_up=0 bend_down=0\n<region> hibend=-101 sample=*sine pitch_keytrack=0 pitch_keycenter=69\n"
            + "<region> lobend=-100 hibend=8191 sample=*sine pitch_keytrack=0 pitch_keycenter=69 transpose=12"
        let (ours, theirs) = try S.render("cond-bend", sfz: bends, notes: notes, extra: [wheel(0.05, 0), wheel(0.5, -4096), wheel(1.0, 8191), wheel(1.5, -8192)])
        Self.expectSameRegions("lobend/hibend", ours, theirs, windows: windows, [a4, a5])
        // Two CCs: the octave plays only while CC20 >= 64 and CC21 <= 31.
        let controllers = "<global> ampeg_release=0.01\n<region> locc20=64 hicc21=31 sample=*sine pitch_keycenter=69 transpose=12\n"
            + "<region> sample=*sine pitch_keycenter=69"
        let moves = [cc(0.05, 20, 100), cc(0.05, 21, 10), cc(0.5, 21, 90), cc(1.0, 20, 10), cc(1.0, 21, 0), cc(1.5, 20, 64)]
        let (a, b) = try S.render("cond-cc", sfz: controllers, notes: notes, extra: moves)
        Self.expectSameRegions("loccN/hiccN on two CCs", a, b, windows: windows, [a5])
    }

    /// `pitch_veltrack=1200`: a note an octave up at velocity 127, half an octave at 64, as sfizz plays them.
    @Test func pitchVelocityTrackingMatchesSfizz() throws {
        let notes = [S.Note(key: 69, velocity: 127, start: 0.1, end: 0.5), S.Note(key: 69, velocity: 64, start: 0.7, end: 1.1),
                     S.Note(key: 69, velocity: 1, start: 1.3, end: 1.7)]
        let sfz = "<region> sample=*sine pitch_keycenter=69 pitch_veltrack=1200 amp_veltrack=0 ampeg_release=0.01"
        let (ours, theirs) = try S.render("pitch-veltrack", sfz: sfz, notes: notes)
        for note in notes {
            func pitch(_ s: [Float]) -> Double {
                AudioComparison.strongestFrequency(AudioComparison.slice(s, from: note.start + 0.05, to: note.end, rate: S.rate),
                                                   rate: S.rate, low: 300, high: 1000, resolution: 0.1).frequency
            }
            let (p, q) = (pitch(ours), pitch(theirs))
            let cents = 1200 * log2(p / q)
            print(String(format: "sfz pitch_veltrack=1200 velocity %d: backbeat %.2f Hz, sfizz %.2f Hz (%.2f cents)", Int(note.velocity), p, q, cents))
            #expect(abs(cents) < 5, "velocity \(note.velocity): \(p) Hz against sfizz's \(q) Hz")
        }
    }

    /// `on_loccN`/`on_hiccN`: a region no key plays (`key=-1`, a 375 Hz one-shot) starts when CC20 is set to a
    /// new value in 64...127, not when it is sent the same value again nor set below the range, nor by a note;
    /// a note plays the other region (*sine, 440 Hz). The same as sfizz, window by window.
    @Test func controllerTriggersMatchSfizz() throws {
        let sfz = "<region> key=-1 on_locc20=64 on_hicc20=127 sample=ramp.wav pitch_keycenter=60 loop_mode=one_shot\n"
            + "<region> key=69 sample=*sine pitch_keycenter=69 ampeg_release=0.01"
        func cc(_ at: Double, _ value: UInt8) -> (seconds: Double, message: MIDIMessage) {
            (at, .controlChange(.init(channel: 0, controller: 20, value: value)))
        }
        let moves = [cc(0.2, 127), cc(0.6, 127), cc(1.0, 0), cc(1.4, 100)]
        let (ours, theirs) = try S.render("cc-trigger", sfz: sfz, notes: [S.Note(key: 69, velocity: 100, start: 2.0, end: 2.4)], extra: moves)
        Self.expectSameRegions("on_locc20", ours, theirs, windows: [(0.3, 0.44), (0.7, 0.84), (1.1, 1.24), (1.5, 1.64), (2.05, 2.4)], [375, 440])
    }
}
