// The opcodes on the note-on and control path (issue 38's second part) against `sfizz_render`, in the
// pattern of SFZAgainstSfizzTests.swift: levels above 0 dB, crossfades over key and velocity, `amp_keytrack`,
// held key switches (`sw_down`/`sw_up`), `trigger=first`/`legato`, `set_ccN` and a stereo sample's `width` and
// `position`. The figures are printed for docs/sfz.md.
import Foundation
import MIDI
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// The level of note `note`'s steady part in dB (the mono mix), in both renders.
    static func levels(_ ours: [Float], _ theirs: [Float], _ note: S.Note) -> (ours: Double, theirs: Double) {
        func level(_ s: [Float]) -> Double {
            AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(s, from: note.start + 0.1, to: note.end - 0.02, rate: S.rate)))
        }
        return (level(ours), level(theirs))
    }

    /// Each output channel's figure (`measure` of its samples, at each of `points`) in both recordings: within
    /// 1.5 dB of sfizz's, or where sfizz has nothing (below -60 dB), below -60 dB too (a hard pan leaves a side
    /// 40 dB down or more). The figures as "L 375 Hz ours/theirs" for the test's line.
    static func compareChannels(_ ours: WAVRecording, _ theirs: WAVRecording, _ what: String, at points: [Double] = [0],
                                measure: ([Float], Double) -> Double) -> [String] {
        var report: [String] = []
        for channel in 0..<2 {
            for point in points {
                let a = measure(ours.channels[channel], point), b = measure(theirs.channels[channel], point)
                let name = (channel == 0 ? "L" : "R") + (points.count > 1 ? String(format: " %.0f Hz", point) : "")
                report.append(String(format: "%@ %.2f/%.2f", name, a, b))
                if b > -60 {
                    #expect(abs(a - b) < 1.5, "\(what): \(name): backbeat \(a) dB, sfizz \(b) dB")
                } else {
                    #expect(a < -60, "\(what): \(name): backbeat \(a) dB, sfizz \(b) dB")
                }
            }
        }
        return report
    }

    /// Each of `opcodes` on a sine region with CC20 at each of `values` (sent before the note, the files named
    /// `name`-i-value): each channel's level within 1.5 dB of sfizz's, or below -60 dBFS where sfizz's is silent.
    static func compareLevelsOverCC20(_ name: String, _ opcodes: [String], values: [UInt8]) throws {
        let note = S.Note(key: 69, velocity: 127, start: 0.1, end: 0.9)
        for (i, opcode) in opcodes.enumerated() {
            for value in values {
                let cc = MIDIMessage.controlChange(.init(channel: 0, controller: 20, value: value))
                let (ours, theirs) = try S.renderRecordings("\(name)-\(i)-\(value)", sfz: "<region> sample=*sine \(opcode)",
                                                            notes: [note], extra: [(0.05, cc)])
                let report = Self.compareChannels(ours, theirs, "\(opcode) CC20 \(value)") { samples, _ in
                    AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(samples, from: 0.2, to: 0.85, rate: S.rate)))
                }
                print("sfz \(opcode) CC20 \(value): " + report.joined(separator: ", ") + " dBFS (backbeat/sfizz)")
            }
        }
    }

    /// `volume` above 0 dB, up to +18 (once capped at +14.4 dB by the gain generator's range), and
    /// `amplitude` above 100 %: within 1.5 dB of sfizz's levels.
    @Test func levelAboveZeroMatchesSfizz() throws {
        for (i, opcode) in ["volume=6", "volume=18", "amplitude=400"].enumerated() {
            let note = S.Note(key: 66, velocity: 127, start: 0.1, end: 0.9)
            let (ours, theirs) = try S.render("loud-\(i)", sfz: "<region> sample=quiet.wav pitch_keycenter=66 \(opcode)", notes: [note])
            let (a, b) = Self.levels(ours, theirs, note)
            print(String(format: "sfz level %@: backbeat %.2f dBFS, sfizz %.2f dBFS, apart %.2f dB", opcode, a, b, a - b))
            #expect(abs(a - b) < 1.5, "\(opcode): backbeat \(a) dB, sfizz \(b) dB")
        }
    }

    /// Crossfades in and out over keys (power curve) and velocities (gain curve), and `amp_keytrack`: each
    /// note's level within 1.5 dB of sfizz's, and silent where sfizz's is.
    @Test func crossfadesMatchSfizz() throws {
        let loop = "sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous loop_start=0 loop_end=95999 ampeg_release=0.01"
        let keys: [UInt8] = [58, 60, 63, 66, 69, 72, 75, 78, 80]
        let velocities: [UInt8] = [10, 20, 40, 60, 80, 100, 120]
        func spaced(_ keys: [UInt8], velocity: (Int) -> UInt8) -> [S.Note] {
            keys.enumerated().map { S.Note(key: $1, velocity: velocity($0), start: 0.1 + 0.4 * Double($0), end: 0.4 + 0.4 * Double($0)) }
        }
        for (name, sfz, notes) in [
            ("key", "<region> \(loop) xfin_lokey=60 xfin_hikey=72 xfout_lokey=72 xfout_hikey=78", spaced(keys) { _ in 100 }),
            ("velocity", "<region> \(loop) xf_velcurve=gain xfin_lovel=20 xfin_hivel=100", spaced(Array(repeating: 66, count: velocities.count)) { velocities[$0] }),
            ("keytrack", "<region> \(loop) amp_keytrack=-1.5 amp_keycenter=66", spaced(keys) { _ in 100 }),
        ] {
            let (ours, theirs) = try S.render("xfade-\(name)", sfz: sfz, notes: notes)
            for note in notes {
                let (a, b) = Self.levels(ours, theirs, note)
                print(String(format: "sfz %@ key %d velocity %d: backbeat %.2f dBFS, sfizz %.2f dBFS", name, Int(note.key), Int(note.velocity), a, b))
                if b < -80 {
                    #expect(a < -80, "\(name) key \(note.key) velocity \(note.velocity): backbeat \(a) dB where sfizz is silent")
                } else {
                    #expect(abs(a - b) < 1.5, "\(name) key \(note.key) velocity \(note.velocity): backbeat \(a) dB, sfizz \(b) dB")
                }
            }
        }
    }

    /// Which region a note plays, by its pitch: `sw_down`/`sw_up` (a switch key held or not), `trigger=first`
    /// and `legato` (another key held or not), and `set_ccN` (a CC range the initial value satisfies). Each
    /// region is `*sine` at its own transposition; the notes checked and the regions sfizz chose must agree.
    @Test func heldKeysAndInitialControllersMatchSfizz() throws {
        // Each case: the instrument, the notes, and windows (from, to) with the frequencies to measure there.
        let a4 = 440.0, a5 = 880.0, e5 = 659.26
        let cases: [(String, String, [S.Note], [(Double, Double)])] = [
            ("sw_down", "<global> sw_lokey=24 sw_hikey=25 ampeg_release=0.01\n<region> sw_down=24 lokey=60 hikey=80 sample=*sine\n"
                + "<region> sw_up=24 lokey=60 hikey=80 sample=*sine transpose=12",
             [S.Note(key: 69, velocity: 100, start: 0.1, end: 0.5), S.Note(key: 24, velocity: 100, start: 0.6, end: 1.4),
              S.Note(key: 69, velocity: 100, start: 0.8, end: 1.2), S.Note(key: 69, velocity: 100, start: 1.6, end: 2.0)],
             [(0.15, 0.5), (0.85, 1.2), (1.65, 2.0)]),
            ("first-legato", "<global> ampeg_release=0.01\n<region> trigger=first lokey=60 hikey=80 sample=*sine\n"
                + "<region> trigger=legato lokey=60 hikey=80 sample=*sine transpose=7",
             [S.Note(key: 69, velocity: 100, start: 0.1, end: 0.5), S.Note(key: 62, velocity: 100, start: 0.6, end: 1.6),
              S.Note(key: 69, velocity: 100, start: 1.0, end: 1.4), S.Note(key: 69, velocity: 100, start: 1.8, end: 2.2)],
             [(0.15, 0.5), (1.05, 1.4), (1.85, 2.2)]),
            ("set_cc", "<control> set_cc20=100\n<global> ampeg_release=0.01\n<region> locc20=64 hicc20=127 sample=*sine\n"
                + "<region> locc20=0 hicc20=63 sample=*sine transpose=12",
             [S.Note(key: 69, velocity: 100, start: 0.1, end: 0.5)], [(0.15, 0.5)]),
        ]
        for (name, sfz, notes, windows) in cases {
            let (ours, theirs) = try S.render("held-\(name)", sfz: sfz, notes: notes)
            Self.expectSameRegions(name, ours, theirs, windows: windows, [a4, e5, a5])
        }
    }

    /// In each window (from, to seconds) the same of `frequencies` sound (above -40 dB) in both renders, within
    /// 1.5 dB: the same regions chose to play. The levels are printed (backbeat/sfizz).
    static func expectSameRegions(_ name: String, _ ours: [Float], _ theirs: [Float], windows: [(Double, Double)], _ frequencies: [Double],
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        for (from, to) in windows {
            let levels = frequencies.map { f in
                func m(_ s: [Float]) -> Double {
                    AudioComparison.decibels(AudioComparison.magnitude(AudioComparison.slice(s, from: from, to: to, rate: S.rate), at: f, rate: S.rate))
                }
                return (ours: m(ours), theirs: m(theirs))
            }
            print("sfz \(name) " + String(format: "%.2f-%.2f", from, to) + " s: " + zip(frequencies, levels).map { String(format: "%.0f Hz %.1f/%.1f", $0, $1.ours, $1.theirs) }.joined(separator: ", ") + " dB (backbeat/sfizz)")
            for (i, level) in levels.enumerated() {
                #expect((level.ours > -40) == (level.theirs > -40), "\(name) at \(from) s, component \(i): backbeat \(level.ours) dB, sfizz \(level.theirs) dB",
                        sourceLocation: sourceLocation)
                if level.theirs > -40 { #expect(abs(level.ours - level.theirs) < 1.5, "\(name) at \(from) s, component \(i)", sourceLocation: sourceLocation) }
            }
        }
    }

    /// A stereo sample (375 Hz left, 750 Hz right) at `width` 100, 50, 0 and -100, `position` -60, and both:
    /// how much of each side reaches each output channel, within 1.5 dB of sfizz's.
    @Test func widthAndPositionMatchSfizz() throws {
        let note = S.Note(key: 66, velocity: 127, start: 0.1, end: 0.9)
        for opcodes in ["width=100", "width=50", "width=0", "width=-100", "position=-60", "width=40 position=50"] {
            let (ours, theirs) = try S.renderRecordings("stereo-\(opcodes.replacingOccurrences(of: " ", with: "_"))",
                                                        sfz: "<region> sample=stereo.wav pitch_keycenter=66 \(opcodes)", notes: [note])
            let report = Self.compareChannels(ours, theirs, opcodes, at: [375, 750]) { samples, frequency in
                AudioComparison.decibels(AudioComparison.magnitude(AudioComparison.slice(samples, from: 0.2, to: 0.85, rate: S.rate),
                                                                   at: frequency, rate: S.rate))
            }
            print("sfz stereo \(opcodes): " + report.joined(separator: ", ") + " dB (backbeat/sfizz)")
        }
    }

    /// `pan_onccN` and `volume_onccN` with the CC at 0, 64 and 127 (sent before the note): each channel's level
    /// within 1.5 dB of sfizz's.
    @Test func controllerModulationsMatchSfizz() throws {
        try Self.compareLevelsOverCC20("cc", ["pan_oncc20=100", "pan_oncc20=-60", "volume_oncc20=-20"], values: [0, 64, 127])
    }

    /// `trigger=release` under the sustain pedal starts when the pedal comes up, in both (the note-off at
    /// 0.7 s, the pedal up at 1.0 s); `release_key` at the note-off.
    @Test func releaseUnderThePedalMatchesSfizz() throws {
        let pedal = { (value: UInt8) in MIDIMessage.controlChange(.init(channel: 0, controller: 64, value: value)) }
        for trigger in ["release", "release_key"] {
            let (ours, theirs) = try S.render("pedal-\(trigger)", sfz: "<region> key=66 sample=*silence\n<region> key=66 trigger=\(trigger) sample=tone.wav pitch_keycenter=66",
                                              notes: [S.Note(key: 66, velocity: 100, start: 0.2, end: 0.7), S.Note(key: 1, velocity: 1, start: 1.5, end: 1.6)],
                                              extra: [(0.05, pedal(127)), (1.0, pedal(0))])
            let onsetOurs = AudioAnalysis.onsets(ours).first ?? -1, onsetTheirs = AudioAnalysis.onsets(theirs).first ?? -1
            print("sfz \(trigger) under the pedal: onset backbeat frame \(onsetOurs), sfizz frame \(onsetTheirs)")
            #expect(onsetOurs >= 0 && abs(onsetOurs - onsetTheirs) <= S.rate / 500, "\(trigger): onsets \(onsetOurs) and \(onsetTheirs)")
        }
    }

    /// `rt_decay=6`: a release region of a note held 0.3 s starts 1.8 dB down, one held 1.3 s 7.8 dB down
    /// (the notes on keys 66 and 78, measured at 375 and 750 Hz): within 1.5 dB of sfizz's levels.
    @Test func releaseDecayMatchesSfizz() throws {
        let sfz = "<region> lokey=66 hikey=78 sample=*silence\n"
            + "<region> lokey=66 hikey=78 trigger=release rt_decay=6 sample=tone.wav pitch_keycenter=66"
        let notes = [S.Note(key: 66, velocity: 100, start: 0.2, end: 0.5), S.Note(key: 78, velocity: 100, start: 0.6, end: 1.9),
                     S.Note(key: 1, velocity: 1, start: 2.5, end: 2.6)]
        let (ours, theirs) = try S.render("rt-decay", sfz: sfz, notes: notes)
        for (from, frequency) in [(0.55, 375.0), (1.95, 750.0)] {
            func m(_ s: [Float]) -> Double {
                AudioComparison.decibels(AudioComparison.magnitude(AudioComparison.slice(s, from: from, to: from + 0.2, rate: S.rate), at: frequency, rate: S.rate))
            }
            let a = m(ours), b = m(theirs)
            print(String(format: "sfz rt_decay %.0f Hz: backbeat %.2f dB, sfizz %.2f dB", frequency, a, b))
            #expect(abs(a - b) < 1.5, "\(frequency) Hz: backbeat \(a) dB, sfizz \(b) dB")
        }
    }
}
