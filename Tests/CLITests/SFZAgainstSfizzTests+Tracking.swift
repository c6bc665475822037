// The opcodes that follow the note's key, velocity and the pitch wheel (issue 38's "not yet" row) against
// `sfizz_render`, in the pattern of SFZAgainstSfizzTests.swift: `fil_keytrack`/`fil_keycenter`/`fil_veltrack`,
// `bend_up`/`bend_down`, `amp_velcurve_N`, `ampeg_vel2*`, `ampeg_start` and `pitcheg_vel2depth`. The figures are printed for docs/sfz.md.
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
                let ours = Self.compareResponses("\(opcodes) key \(note.key) velocity \(note.velocity)", filtered: filtered, open: open,
                                                 from: note.start + 0.1, to: note.end - 0.05, centres: centres)
                spread.append(ours[3])
            }
            #expect((spread.max() ?? 0) - (spread.min() ?? 0) > 6, "\(opcodes): the 1 kHz band did not move with the note: \(spread)")
        }
    }

    /// The pitch wheel fully up, fully down and centred (sent before each note) on `*sine` at A4, with the
    /// default range and two asymmetric ones: each note's pitch within 5 cents of sfizz's and of the range's.
    @Test func bendRangesMatchSfizz() throws {
        let wheel: [UInt16] = [16383, 0, 8192]
        let notes = Self.spacedNotes([69, 69, 69], [100, 100, 100])
        let bends = zip(notes, wheel).map { (seconds: $0.start - 0.05, message: MIDIMessage.pitchBend(.init(channel: 0, value: $1))) }
        for (name, opcodes, up, down) in [("default", "", 200.0, -200.0), ("asymmetric", "bend_up=300 bend_down=-700", 300, -700),
                                          ("octave-up", "bend_up=1200 bend_down=-100", 1200, -100)] {
            let (ours, theirs) = try S.render("bend-\(name)", sfz: "<region> sample=*sine \(opcodes)", notes: notes, extra: bends)
            for (note, value) in zip(notes, wheel) {
                let cents = value > 8192 ? up * Double(value - 8192) / 8191 : value < 8192 ? down : 0
                let expected = 440 * pow(2, cents / 1200)
                let (a, b) = S.strongestPitches(ours, theirs, over: note, after: 0.1, near: expected)
                print(String(format: "sfz bend %@ wheel %d: expected %.2f Hz, backbeat %.2f, sfizz %.2f, apart %.2f cents",
                             name, Int(value), expected, a, b, S.cents(a, b)))
                #expect(abs(S.cents(a, b)) < 5, "\(name) wheel \(value): backbeat \(a) Hz, sfizz \(b) Hz")
                #expect(abs(S.cents(a, expected)) < 5, "\(name) wheel \(value): backbeat \(a) Hz, expected \(expected) Hz")
            }
        }
    }

    /// `amp_velcurve_N` curves (one point, two points, and one with `amp_veltrack=50`) at five velocities: each
    /// note's level within 1.5 dB of sfizz's.
    @Test func velocityCurvesMatchSfizz() throws {
        let velocities: [UInt8] = [20, 40, 64, 100, 127]
        let notes = Self.spacedNotes(Array(repeating: 66, count: velocities.count), velocities)
        for (i, opcodes) in ["amp_velcurve_64=1", "amp_velcurve_1=0.2 amp_velcurve_100=0.5", "amp_velcurve_64=0.3 amp_veltrack=50"].enumerated() {
            let (ours, theirs) = try S.render("velcurve-\(i)", sfz: "<region> sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous "
                                              + "loop_start=0 loop_end=95999 ampeg_release=0.01 \(opcodes)", notes: notes)
            for note in notes {
                let (a, b) = Self.levels(ours, theirs, note)
                print(String(format: "sfz %@ velocity %d: backbeat %.2f dBFS, sfizz %.2f dBFS, apart %.2f dB", opcodes, Int(note.velocity), a, b, a - b))
                #expect(abs(a - b) < 1.5, "\(opcodes) velocity \(note.velocity): backbeat \(a) dB, sfizz \(b) dB")
            }
        }
    }

    /// `note` (held 0.2 to 1.6 s) rendered by both, a second inaudible note at 2.8 s keeping the renders 2.7 s
    /// long: the loudness envelopes (10 ms windows), their correlation, and each one's level at 1.45 s (the
    /// sustain, before the note-off) below its own peak.
    static func heldEnvelopes(_ name: String, sfz: String, note: S.Note, extra: [(seconds: Double, message: MIDIMessage)] = [])
        throws -> (ours: [Double], theirs: [Double], r: Double, sustainOurs: Double, sustainTheirs: Double) {
        let (ours, theirs) = try S.render(name, sfz: sfz, notes: [note, S.Note(key: 1, velocity: 1, start: 2.8, end: 2.9)], extra: extra)
        let length = min(ours.count, theirs.count, Int(2.7 * Double(S.rate)))
        let a = AudioComparison.loudnessEnvelope(Array(ours.prefix(length)), rate: S.rate)
        let b = AudioComparison.loudnessEnvelope(Array(theirs.prefix(length)), rate: S.rate)
        let held = Int(1.45 / 0.01)
        return (a, b, AudioComparison.pearson(a, b), a[held] - (a.max() ?? 0), b[held] - (b.max() ?? 0))
    }

    /// `ampeg_vel2*` on every stage at velocities 127 and 40 (one note each): the loudness envelopes correlate
    /// at r >= 0.95 with sfizz's, and the sustain level (against each render's own peak) is within 1.5 dB.
    @Test func envelopeVelocityMatchesSfizz() throws {
        let sfz = "<region> sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous loop_start=0 loop_end=95999 amp_veltrack=0 "
            + "ampeg_delay=0.02 ampeg_vel2delay=0.1 ampeg_attack=0.05 ampeg_vel2attack=0.3 ampeg_hold=0.05 ampeg_vel2hold=0.1 "
            + "ampeg_decay=0.5 ampeg_vel2decay=-0.3 ampeg_sustain=60 ampeg_vel2sustain=-40 ampeg_release=0.2 ampeg_vel2release=0.6"
        for velocity: UInt8 in [127, 40] {
            let note = S.Note(key: 66, velocity: velocity, start: 0.2, end: 1.6)
            let (_, _, r, sustainOurs, sustainTheirs) = try Self.heldEnvelopes("vel2-\(velocity)", sfz: sfz, note: note)
            print(String(format: "sfz ampeg_vel2* velocity %d: r = %.4f; sustain backbeat %.2f dB, sfizz %.2f dB below the peak",
                         Int(velocity), r, sustainOurs, sustainTheirs))
            #expect(r >= 0.95, "velocity \(velocity): r = \(r)")
            #expect(abs(sustainOurs - sustainTheirs) < 1.5, "velocity \(velocity): sustain \(sustainOurs) dB, sfizz \(sustainTheirs) dB")
        }
    }

    /// `ampeg_start=30` and `=70` under a 0.5 s attack: the loudness envelopes correlate at r >= 0.95 with
    /// sfizz's, and the first 10 ms (against the peak) are within 1.5 dB of sfizz's.
    @Test func envelopeStartMatchesSfizz() throws {
        for start in [30, 70] {
            let note = S.Note(key: 66, velocity: 127, start: 0.2, end: 1.2)
            let sfz = "<region> sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous loop_start=0 loop_end=95999 "
                + "ampeg_start=\(start) ampeg_attack=0.5 ampeg_release=0.1"
            let (ours, theirs) = try S.render("eg-start-\(start)", sfz: sfz, notes: [note, S.Note(key: 1, velocity: 1, start: 1.6, end: 1.7)])
            let length = min(ours.count, theirs.count, Int(1.5 * Double(S.rate)))
            let a = AudioComparison.loudnessEnvelope(Array(ours.prefix(length)), rate: S.rate)
            let b = AudioComparison.loudnessEnvelope(Array(theirs.prefix(length)), rate: S.rate)
            let r = AudioComparison.pearson(a, b)
            // The window after the onset's: the note starts at 0.2 s, inside sfizz's block.
            let first = Int(0.2 / 0.01) + 1
            print(String(format: "sfz ampeg_start=%d: r = %.4f; start backbeat %.2f dB, sfizz %.2f dB below the peak", start, r, a[first], b[first]))
            #expect(r >= 0.95, "ampeg_start=\(start): r = \(r)")
            #expect(abs(a[first] - b[first]) < 1.5, "ampeg_start=\(start): backbeat \(a[first]) dB, sfizz \(b[first]) dB")
        }
    }

    /// `pitcheg_vel2depth=1200` (with `pitcheg_depth=0` and `=-300`) held at its sustain: the pitch at velocities
    /// 127, 64 and 20 within 5 cents of sfizz's and of depth + vel2depth x velocity / 127.
    @Test func envelopeDepthVelocityMatchesSfizz() throws {
        let velocities: [UInt8] = [127, 64, 20]
        let notes = Self.spacedNotes([69, 69, 69], velocities)
        for depth in [0.0, -300] {
            let sfz = "<region> sample=*sine pitcheg_sustain=100 pitcheg_depth=\(Int(depth)) pitcheg_vel2depth=1200"
            let (ours, theirs) = try S.render("vel2depth-\(Int(depth))", sfz: sfz, notes: notes)
            for note in notes {
                let expected = 440 * pow(2, (depth + 1200 * Double(note.velocity) / 127) / 1200)
                let (a, b) = S.strongestPitches(ours, theirs, over: note, near: expected)
                print(String(format: "sfz pitcheg_depth=%.0f vel2depth=1200 velocity %d: expected %.2f Hz, backbeat %.2f, sfizz %.2f, apart %.2f cents",
                             depth, Int(note.velocity), expected, a, b, S.cents(a, b)))
                #expect(abs(S.cents(a, b)) < 5, "velocity \(note.velocity): backbeat \(a) Hz, sfizz \(b) Hz")
                #expect(abs(S.cents(a, expected)) < 5, "velocity \(note.velocity): backbeat \(a) Hz, expected \(expected) Hz")
            }
        }
    }
}
