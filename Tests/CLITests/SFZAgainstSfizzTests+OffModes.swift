// `off_mode` (fast, normal, time with `off_time`) against `sfizz_render`, in the pattern of
// SFZAgainstSfizzTests.swift: a note of a self-cutting group (`group=1 off_by=1`) cut by a silent region's
// note of the group, the cut note followed after the cut. The figures are printed for docs/sfz.md.
import Foundation
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// A4 held from 0.1 s, cut at 0.6 s by a `*silence` region of the same group: A4's level (against its own before the cut)
    /// in windows after the cut, in both renders.
    static func offModeLevels(_ name: String, _ opcodes: String, windows: [(Double, Double)]) throws -> [(ours: Double, theirs: Double)] {
        let notes = [S.Note(key: 69, velocity: 127, start: 0.1, end: 1.4), S.Note(key: 80, velocity: 127, start: 0.6, end: 1.4)]
        let sfz = "<group> group=1 off_by=1 ampeg_release=0.4 \(opcodes)\n<region> key=69 sample=*sine\n<region> key=80 sample=*silence"
        let (ours, theirs) = try S.render("off-\(name)", sfz: sfz, notes: notes)
        func level(_ s: [Float], _ from: Double, _ to: Double) -> Double {
            AudioComparison.decibels(AudioComparison.magnitude(AudioComparison.slice(s, from: from, to: to, rate: S.rate), at: 440, rate: S.rate))
        }
        let before = (level(ours, 0.3, 0.55), level(theirs, 0.3, 0.55))
        return windows.map { (level(ours, $0.0, $0.1) - before.0, level(theirs, $0.0, $0.1) - before.1) }
    }

    /// `off_mode=fast` cuts A4 to silence within 30 ms in both; `normal` (a 0.4 s release) and `time` with
    /// `off_time=0.15` release it over that time: A4's level in 10 ms windows from the cut to 0.4 s after
    /// (floored at -80 dB) correlates at r >= 0.95 with sfizz's, is above -20 dB 20 ms after the cut and gone
    /// 0.4 s after, in both. (The release falls 96 dB over its time, sfizz's 78: levels part as it goes.)
    @Test func offModesMatchSfizz() throws {
        let windows: [(Double, Double)] = (0..<40).map { (i: Int) -> (Double, Double) in
            let from = 0.6 + 0.01 * Double(i)
            return (from, from + 0.01)
        }
        for (name, opcodes) in [("fast", "off_mode=fast"), ("normal", "off_mode=normal"), ("time", "off_mode=time off_time=0.15")] {
            let measured = try Self.offModeLevels(name, opcodes, windows: windows)
            let levels: [(ours: Double, theirs: Double)] = measured.map { (ours: max($0.ours, -80.0), theirs: max($0.theirs, -80.0)) }
            let r = AudioComparison.pearson(levels.map { $0.ours }, levels.map { $0.theirs })
            let shown: [String] = [1, 2, 5, 10, 20, 39].map { (i: Int) -> String in
                String(format: "%.0f ms %.1f/%.1f", 10 * Double(i), levels[i].ours, levels[i].theirs)
            }
            print(String(format: "sfz %@: r = %.4f; A4 after the cut ", opcodes, r) + shown.joined(separator: ", ") + " dB (backbeat/sfizz)")
            if name == "fast" {
                #expect(levels[3...].allSatisfy { $0.ours < -40 && $0.theirs < -40 }, "\(opcodes): \(levels)")
            } else {
                #expect(r >= 0.95, "\(opcodes): r = \(r)")
                #expect(levels[2].ours > -20 && levels[2].theirs > -20, "\(opcodes): still sounding 20 ms after the cut: \(levels[2])")
                #expect(levels[39].ours < -60 && levels[39].theirs < -60, "\(opcodes): \(levels[39])")
            }
        }
    }
}
