// The LFOs against `sfizz_render`, in the pattern of SFZAgainstSfizzTests.swift: v1 `amplfo_`/`pitchlfo_` and v2
// `lfoN_volume`/`lfoN_pitch` (triangle and sine, with a CC moving the depth): the loudness and pitch each LFO
// draws, sampled every 10 ms, correlate with sfizz's (r >= 0.95) and swing as far (within 1.5 dB, 10 cents).
// The figures are printed for docs/sfz.md.
import Foundation
import MIDI
import Testing
import TestSupport

extension SFZAgainstSfizzTests {
    /// A 1.9 s note on the looped tone, and CC1 at 127 before it.
    static let lfoNote = S.Note(key: 66, velocity: 100, start: 0.1, end: 2.0)
    static let modWheelUp: [(seconds: Double, message: MIDIMessage)] = [(0.05, .controlChange(.init(channel: 0, controller: 1, value: 127)))]
    static let loopedTone = "<region> sample=tone.wav pitch_keycenter=66 loop_mode=loop_continuous loop_start=0 loop_end=95999"

    /// The pitch every 10 ms (cents from 375 Hz) over `from..<to` seconds: each cycle's length between upward
    /// zero crossings (placed between samples by interpolation), averaged over the cycles ending in the window.
    static func pitchTrack(_ s: [Float], from: Double, to: Double) -> [Double] {
        var crossings: [Double] = []
        let first = Int(from * Double(S.rate)), last = min(Int(to * Double(S.rate)), s.count - 1)
        for i in first..<last where s[i] <= 0 && s[i + 1] > 0 {
            crossings.append(Double(i) + Double(-s[i] / (s[i + 1] - s[i])))
        }
        let window = Double(S.rate) / 100
        var sums = [Double](repeating: 0, count: Int((to - from) * 100)), counts = [Int](repeating: 0, count: sums.count)
        for (a, b) in zip(crossings, crossings.dropFirst()) {
            let bin = Int((b - Double(first)) / window)
            guard bin >= 0 && bin < sums.count else { continue }
            sums[bin] += 1200 * log2(Double(S.rate) / (b - a) / 375)
            counts[bin] += 1
        }
        return zip(sums, counts).compactMap { $1 > 0 ? $0 / Double($1) : nil }
    }

    typealias LFOCase = (name: String, opcodes: String, extra: [(seconds: Double, message: MIDIMessage)])

    /// Each case rendered by both on the held note, `track` drawing what its LFO moves: the two tracks
    /// correlate (r >= 0.95), swing as far (within `tolerance`), and sfizz's swings more than `least`; `also`
    /// checks more of the two renders.
    static func compareLFOs(_ kind: String, _ cases: [LFOCase], unit: String, tolerance: Double, least: Double,
                            track: ([Float]) -> [Double], also: ([Float], [Float], String) -> Void = { _, _, _ in }) throws {
        for (name, opcodes, extra) in cases {
            let (ours, theirs) = try S.render("lfo-\(kind)-\(name)", sfz: "\(Self.loopedTone) \(opcodes)", notes: [Self.lfoNote], extra: extra)
            let a = track(ours), b = track(theirs)
            let r = AudioComparison.pearson(a, b)
            let swing = (a.max()! - a.min()!, b.max()! - b.min()!)
            print(String(format: "sfz %@: %@ r = %.4f, swing %.2f %@ (sfizz %.2f)", opcodes, kind, r, swing.0, unit, swing.1))
            #expect(r >= 0.95, "\(opcodes): r = \(r)")
            #expect(abs(swing.0 - swing.1) <= tolerance, "\(opcodes): swings \(swing.0) and \(swing.1) \(unit)")
            #expect(swing.1 > least, "\(opcodes): sfizz's \(kind) did not swing (\(swing.1) \(unit))")
            also(ours, theirs, opcodes)
        }
    }

    /// Four cases: a v1 LFO, a v2 triangle, a v2 sine, and a depth the mod wheel gives (CC1 127 before the note).
    static func lfoCases(_ opcodes: [String]) -> [LFOCase] {
        zip(["v1", "triangle", "sine", "cc"], opcodes).map { name, opcodes in (name, opcodes, name == "cc" ? Self.modWheelUp : []) }
    }

    /// The held note's part the LFOs are measured over.
    static func heldPart(_ s: [Float]) -> ArraySlice<Float> {
        AudioComparison.slice(s, from: lfoNote.start + 0.2, to: lfoNote.end - 0.05, rate: S.rate)
    }

    @Test func volumeLFOsMatchSfizz() throws {
        let cases = Self.lfoCases(["amplfo_freq=4 amplfo_depth=6", "lfo1_freq=3 lfo1_volume=6", "lfo1_freq=5 lfo1_wave=1 lfo1_volume=-4",
                                   "lfo1_freq=4 lfo1_volume_oncc1=6"])
        try Self.compareLFOs("loudness", cases, unit: "dB", tolerance: 1.5, least: 6,
                             track: { AudioComparison.loudnessEnvelope(Array(Self.heldPart($0)), rate: S.rate) }) { ours, theirs, opcodes in
            // The level around which it swings: the note's RMS.
            let level = AudioComparison.decibels(AudioComparison.rms(Self.heldPart(ours))) - AudioComparison.decibels(AudioComparison.rms(Self.heldPart(theirs)))
            print(String(format: "sfz %@: level %+.2f dB from sfizz's", opcodes, level))
            #expect(abs(level) <= 1.5, "\(opcodes): level \(level) dB from sfizz's")
        }
    }

    @Test func pitchLFOsMatchSfizz() throws {
        let cases = Self.lfoCases(["pitchlfo_freq=5 pitchlfo_depth=50", "lfo1_freq=4 lfo1_pitch=80", "lfo2_freq=6 lfo2_wave=1 lfo2_pitch=-60",
                                   "lfo1_freq=5 lfo1_wave=1 lfo1_pitch_oncc1=70"])
        try Self.compareLFOs("pitch", cases, unit: "cents", tolerance: 10, least: 60,
                             track: { Self.pitchTrack($0, from: Self.lfoNote.start + 0.2, to: Self.lfoNote.end - 0.05) })
    }
}
