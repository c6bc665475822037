// `off_by` naming another group, `polyphony` (region, group, `<group>` header) and `note_polyphony` against
// `sfizz_render`, in the pattern of SFZAgainstSfizzTests.swift: `*sine` regions whose pitches name them, the
// level of each pitch in windows between the notes, in both renders. The figures are printed for docs/sfz.md.
import Foundation
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// The level (dB, against the strongest window of that pitch in the same render) of each of `pitches` in
    /// each of `windows`, in both renders.
    static func pitchLevels(_ ours: [Float], _ theirs: [Float], windows: [Double], pitches: [Double]) -> (ours: [[Double]], theirs: [[Double]]) {
        func levels(_ s: [Float]) -> [[Double]] {
            let raw = windows.map { start in
                pitches.map { AudioComparison.magnitude(AudioComparison.slice(s, from: start, to: start + 0.1, rate: S.rate), at: $0, rate: S.rate) }
            }
            let peaks = pitches.indices.map { p in raw.map { $0[p] }.max() ?? 0 }
            return raw.map { row in row.indices.map { AudioComparison.decibels(row[$0] / max(peaks[$0], 1e-12)) } }
        }
        return (levels(ours), levels(theirs))
    }

    /// Renders `sfz` playing `notes` and checks, in each window, which of `pitches` sound (within 20 dB of
    /// their strongest) in both renders: the same ones, and those `expected` says. A sounding pitch held at
    /// full level in sfizz's (within 1 dB of its peak) is within 1.5 dB of it in Backbeat's.
    static func compareSounding(_ name: String, _ sfz: String, _ notes: [S.Note], windows: [Double], pitches: [Double],
                                expected: [[Bool]]) throws {
        let (ours, theirs) = try S.render(name, sfz: sfz, notes: notes)
        let (a, b) = pitchLevels(ours, theirs, windows: windows, pitches: pitches)
        for (w, start) in windows.enumerated() {
            let heardOurs = a[w].map { $0 > -20 }, heardTheirs = b[w].map { $0 > -20 }
            let shown = pitches.indices.map { String(format: "%.0f Hz %.1f/%.1f", pitches[$0], a[w][$0], b[w][$0]) }
            print(String(format: "sfz %@ at %.2f s: ", name, start) + shown.joined(separator: ", ") + " dB (backbeat/sfizz)")
            #expect(heardOurs == heardTheirs, "\(name) at \(start) s: backbeat \(a[w]), sfizz \(b[w])")
            #expect(heardTheirs == expected[w], "\(name) at \(start) s: sfizz \(b[w]), expected \(expected[w])")
            for p in pitches.indices where b[w][p] > -1 {
                #expect(abs(a[w][p] - b[w][p]) < 1.5, "\(name) at \(start) s, \(pitches[p]) Hz: backbeat \(a[w][p]), sfizz \(b[w][p])")
            }
        }
    }

    static let a4 = 440.0, c5 = 523.25, e5 = 659.26, c4 = 261.63, e4 = 329.63, g4 = 392.0

    /// A chain of groups, each turned off by the next (`group=1 off_by=2`, `group=2 off_by=3`, group 3 with no
    /// `off_by`): each note ends the one before, and a note of group 1 after group 3's ends nothing.
    @Test func offByAnotherGroupMatchesSfizz() throws {
        let sfz = """
            <group> group=1 off_by=2 ampeg_release=0.5
            <region> key=69 sample=*sine
            <group> group=2 off_by=3 ampeg_release=0.5
            <region> key=72 sample=*sine
            <group> group=3 ampeg_release=0.5
            <region> key=76 sample=*sine
            """
        let notes = [S.Note(key: 69, velocity: 127, start: 0.1, end: 1.9), S.Note(key: 72, velocity: 127, start: 0.5, end: 1.9),
                     S.Note(key: 76, velocity: 127, start: 0.9, end: 1.9), S.Note(key: 69, velocity: 127, start: 1.3, end: 1.9)]
        try Self.compareSounding("offby-chain", sfz, notes, windows: [0.3, 0.65, 1.05, 1.5], pitches: [Self.a4, Self.c5, Self.e5],
                                 expected: [[true, false, false], [false, true, false], [false, false, true], [true, false, true]])
    }

    /// A4 of group 1 (`off_by=2`, a 0.4 s release) ended at 0.6 s by a `*silence` note of group 2 with each
    /// `off_mode`: `fast` silent within 30 ms, `normal` and `time` (`off_time=0.15`) its level in 10 ms windows
    /// over 0.4 s r >= 0.95 against sfizz's (an `off_time` alone is the `time` mode, as in sfizz); a note of
    /// group 3 at 0.4 s ends nothing.
    @Test func offByAnotherGroupOffModesMatchSfizz() throws {
        let notes = [S.Note(key: 69, velocity: 127, start: 0.1, end: 1.4), S.Note(key: 75, velocity: 127, start: 0.4, end: 1.4),
                     S.Note(key: 80, velocity: 127, start: 0.6, end: 1.4)]
        for (name, opcodes) in [("fast", "off_mode=fast"), ("normal", "off_mode=normal"), ("time", "off_mode=time off_time=0.15"),
                                ("time-alone", "off_time=0.15")] {
            let sfz = "<group> group=1 off_by=2 ampeg_release=0.4 \(opcodes)\n<region> key=69 sample=*sine\n"
                + "<group> group=3\n<region> key=75 sample=*silence\n<group> group=2\n<region> key=80 sample=*silence"
            let (ours, theirs) = try S.render("offby-\(name)", sfz: sfz, notes: notes)
            func level(_ s: [Float], _ from: Double) -> Double {
                AudioComparison.decibels(AudioComparison.magnitude(AudioComparison.slice(s, from: from, to: from + 0.01, rate: S.rate), at: 440, rate: S.rate))
            }
            let before = (level(ours, 0.3), level(theirs, 0.3))
            let uncut = (level(ours, 0.55) - before.0, level(theirs, 0.55) - before.1)
            let levels = (0..<40).map { i -> (Double, Double) in
                let from = 0.6 + 0.01 * Double(i)
                return (max(level(ours, from) - before.0, -80), max(level(theirs, from) - before.1, -80))
            }
            let r = AudioComparison.pearson(levels.map { $0.0 }, levels.map { $0.1 })
            let shown = [1, 2, 5, 10, 20, 39].map { String(format: "%.0f ms %.1f/%.1f", 10 * Double($0), levels[$0].0, levels[$0].1) }
            print(String(format: "sfz off_by=2 %@: group 3's note leaves A4 at %.2f/%.2f dB; r = %.4f; A4 after the cut ", opcodes, uncut.0, uncut.1, r)
                  + shown.joined(separator: ", ") + " dB (backbeat/sfizz)")
            #expect(abs(uncut.0) < 1.5 && abs(uncut.1) < 1.5, "\(opcodes): a group 3 note ended A4: \(uncut)")
            if name == "fast" {
                #expect(levels[3...].allSatisfy { $0.0 < -40 && $0.1 < -40 }, "\(opcodes): \(levels)")
            } else {
                #expect(r >= 0.95, "\(opcodes): r = \(r)")
                #expect(levels[2].0 > -20 && levels[2].1 > -20, "\(opcodes): still sounding 20 ms after the cut: \(levels[2])")
                #expect(levels[39].0 < -60 && levels[39].1 < -60, "\(opcodes): \(levels[39])")
            }
        }
    }

    /// `polyphony=2` on a region, on a numbered group's two regions (a note of another group not counted), on
    /// a `<group>` header without `group=`, and `polyphony=1` with a released note still ringing (sfizz counts
    /// released voices): the third note ends the oldest, the rest sound on, as in sfizz.
    @Test func polyphonyMatchesSfizz() throws {
        let three = [S.Note(key: 60, velocity: 127, start: 0.1, end: 1.8), S.Note(key: 64, velocity: 127, start: 0.5, end: 1.8),
                     S.Note(key: 67, velocity: 127, start: 0.9, end: 1.8)]
        let pitches = [Self.c4, Self.e4, Self.g4]
        let windows = [0.3, 0.7, 1.1, 1.5]
        let expected = [[true, false, false], [true, true, false], [false, true, true], [false, true, true]]
        try Self.compareSounding("poly-region", "<region> lokey=60 hikey=80 sample=*sine polyphony=2 ampeg_release=0.5",
                                 three, windows: windows, pitches: pitches, expected: expected)
        let twoRegions = "<region> lokey=60 hikey=63 sample=*sine\n<region> lokey=64 hikey=70 sample=*sine"
        try Self.compareSounding("poly-group", "<group> group=1 polyphony=2 ampeg_release=0.5\n\(twoRegions)\n"
                                 + "<group> group=2 ampeg_release=0.5\n<region> key=72 sample=*sine",
                                 three + [S.Note(key: 72, velocity: 127, start: 0.6, end: 1.8)], windows: windows,
                                 pitches: pitches + [Self.c5],
                                 expected: [[true, false, false, false], [true, true, false, true], [false, true, true, true],
                                            [false, true, true, true]])
        try Self.compareSounding("poly-set", "<group> polyphony=2 ampeg_release=0.5\n\(twoRegions)",
                                 three, windows: windows, pitches: pitches, expected: expected)
        let released = [S.Note(key: 60, velocity: 127, start: 0.1, end: 0.4), S.Note(key: 64, velocity: 127, start: 0.5, end: 1.2)]
        try Self.compareSounding("poly-released", "<region> lokey=60 hikey=80 sample=*sine polyphony=1 ampeg_release=1",
                                 released, windows: [0.25, 0.6, 0.9], pitches: [Self.c4, Self.e4],
                                 expected: [[true, false], [false, true], [false, true]])
    }

    /// `note_polyphony=1` on a group of two velocity layers of key 69 (A4 below velocity 81, E5 above), each
    /// ringing 3 s after its note-off: a louder note ends the softer one's release; a softer note leaves the
    /// louder one's (sfizz's `note_selfmask`).
    @Test func notePolyphonyMatchesSfizz() throws {
        let sfz = "<group> group=1 note_polyphony=1 ampeg_release=3\n<region> key=69 hivel=80 sample=*sine\n"
            + "<region> key=69 lovel=81 sample=*sine transpose=7"
        let notes = [S.Note(key: 69, velocity: 60, start: 0.1, end: 0.5), S.Note(key: 69, velocity: 100, start: 0.6, end: 1.0),
                     S.Note(key: 69, velocity: 60, start: 1.1, end: 1.6)]
        try Self.compareSounding("note-poly", sfz, notes, windows: [0.3, 0.75, 1.2], pitches: [Self.a4, Self.e5],
                                 expected: [[true, false], [false, true], [true, true]])
    }
}
