// The level opcodes that follow a controller (issue 38's `amplitude_onccN` with `amplitude_curveccN`, and the
// crossfades over a CC, `xfin_loccN`...`xfout_hiccN` with `xf_cccurve`) against `sfizz_render`, in the pattern
// of SFZAgainstSfizzTests+Opcodes.swift; and `sw_previous`. The figures are printed for docs/sfz.md.
import Foundation
import MIDI
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// Each opcode with CC20 at 0, 32, 64 and 127 (sent before the note): each channel's level within
    /// 1.5 dB of sfizz's, or below -60 dBFS where sfizz's is silent.
    @Test func controllerLevelsMatchSfizz() throws {
        let opcodes = ["amplitude_oncc20=100", "amplitude_oncc20=-50", "amplitude=50 amplitude_oncc20=50",
                       "amplitude_oncc20=100 amplitude_curvecc20=4", "xfin_locc20=0 xfin_hicc20=127",
                       "xfin_locc20=0 xfin_hicc20=127 xf_cccurve=gain", "xfin_locc20=32 xfin_hicc20=96",
                       "xfout_locc20=32 xfout_hicc20=96 xf_cccurve=gain"]
        try Self.compareLevelsOverCC20("cc-level", opcodes, values: [0, 32, 64, 127])
    }

    /// The controllers' curves (`volume_curveccN`, `pan_curveccN`: sfizz's predefined x squared and bipolar, and
    /// an instrument's `<curve>`) and `amplitude_onccN` on two CCs (multiplied, as sfizz multiplies them), with CC20 at 0,
    /// 32, 64 and 127: each channel's level within 1.5 dB of sfizz's, or below -60 dBFS where sfizz's is silent.
    @Test func controllerCurvesMatchSfizz() throws {
        let opcodes = ["volume_oncc20=-24 volume_curvecc20=4",
                       "volume_oncc20=-24 volume_curvecc20=7 <curve> curve_index=7 v000=1 v064=0.25 v127=0",
                       "pan_oncc20=80 pan_curvecc20=1", "amplitude_oncc20=60 amplitude_oncc21=40 amplitude=50",
                       "amplitude_oncc20=60 amplitude_oncc7=100 amplitude=50"]
        try Self.compareLevelsOverCC20("cc-curve", opcodes, values: [0, 32, 64, 127])
    }

    /// Crossfades over two controllers (`xfin` over CC20, `xfout` over CC21, power and gain curves) while one
    /// note holds and the controllers move: the level in each stretch between moves within 1.5 dB of sfizz's
    /// (which multiplies the two fades' gains, as Backbeat does).
    @Test func controllerCrossfadesFollowTheControllers() throws {
        let note = S.Note(key: 66, velocity: 100, start: 0.1, end: 3.0)
        func cc(_ seconds: Double, _ controller: UInt8, _ value: UInt8) -> (seconds: Double, message: MIDIMessage) {
            (seconds, .controlChange(.init(channel: 0, controller: controller, value: value)))
        }
        let moves = [cc(0.05, 20, 127), cc(0.05, 21, 0), cc(0.8, 20, 64), cc(1.4, 20, 32), cc(2.0, 21, 64), cc(2.5, 20, 127)]
        let stretches = [(0.3, 0.75), (0.95, 1.35), (1.55, 1.95), (2.15, 2.45), (2.65, 2.95)]
        for curve in ["power", "gain"] {
            let sfz = "\(Self.loopedTone) xfin_locc20=0 xfin_hicc20=127 xfout_locc21=0 xfout_hicc21=127 xf_cccurve=\(curve)"
            let (ours, theirs) = try S.render("xfcc-moves-\(curve)", sfz: sfz, notes: [note], extra: moves)
            let levels = stretches.map { from, to in
                (AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(ours, from: from, to: to, rate: S.rate))),
                 AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(theirs, from: from, to: to, rate: S.rate))))
            }
            print("sfz CC crossfades moving (\(curve)), backbeat/sfizz dB: " + levels.map { String(format: "%.1f/%.1f", $0.0, $0.1) }.joined(separator: ", "))
            for (i, level) in levels.enumerated() {
                #expect(abs(level.0 - level.1) <= 1.5, "\(curve): stretch \(i): \(level.0) against \(level.1) dB")
            }
            // The controllers moved the level: the second stretch (CC20 64) is below the first (127).
            #expect(levels[0].1 - levels[1].1 > 1, "sfizz's level did not follow CC20: \(levels)")
        }
    }

    /// `sw_previous=60`: of eight notes on keys 60 to 62, those whose note-on before was on key 60 sound (at
    /// their key's pitch) in both, and the others are silent in both.
    @Test func previousNoteMatchesSfizz() throws {
        let keys: [UInt8] = [60, 62, 61, 62, 62, 60, 60, 62]
        let notes = keys.enumerated().map { S.Note(key: $1, velocity: 100, start: 0.2 + 0.5 * Double($0), end: 0.5 + 0.5 * Double($0)) }
        let (ours, theirs) = try S.render("previous", sfz: "<region> sw_previous=60 lokey=60 hikey=62 sample=*sine ampeg_release=0.01", notes: notes)
        func heard(_ samples: [Float]) -> [Double] {
            notes.map { note in
                let part = AudioComparison.slice(samples, from: note.start + 0.05, to: note.end, rate: S.rate)
                if AudioComparison.rms(part) < 1e-4 { return 0 }
                return AudioComparison.strongestFrequency(part, rate: S.rate, low: 200, high: 800, resolution: 0.5).frequency
            }
        }
        let a = heard(ours), b = heard(theirs)
        print("sfz sw_previous: backbeat \(a.map { Int($0.rounded()) }) Hz, sfizz \(b.map { Int($0.rounded()) }) Hz")
        #expect(b.filter { $0 > 0 }.count == 3, "sfizz: \(b)")
        #expect(zip(a, b).allSatisfy { $1 == 0 ? $0 == 0 : $0 > 0 && abs(S.cents($0, $1)) < 5 }, "\(a) against \(b)")
    }
}
