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

    @Test func volumeLFOsMatchSfizz() throws {
        let cases: [(String, String, [(seconds: Double, message: MIDIMessage)])] = [
            ("v1", "amplfo_freq=4 amplfo_depth=6", []),
            ("triangle", "lfo1_freq=3 lfo1_volume=6", []),
            ("sine", "lfo1_freq=5 lfo1_wave=1 lfo1_volume=-4", []),
            ("cc", "lfo1_freq=4 lfo1_volume_oncc1=6", Self.modWheelUp),
        ]
        let note = Self.lfoNote
        for (name, opcodes, extra) in cases {
            let (ours, theirs) = try S.render("lfo-volume-\(name)", sfz: "\(Self.loopedTone) \(opcodes)", notes: [note], extra: extra)
            func envelope(_ s: [Float]) -> [Double] {
                AudioComparison.loudnessEnvelope(Array(AudioComparison.slice(s, from: note.start + 0.2, to: note.end - 0.05, rate: S.rate)), rate: S.rate)
            }
            let a = envelope(ours), b = envelope(theirs)
            let r = AudioComparison.pearson(a, b)
            let swing = (a.max()! - a.min()!, b.max()! - b.min()!)
            // The level around which it swings: the note's RMS.
            let level = AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(ours, from: note.start + 0.2, to: note.end - 0.05, rate: S.rate)))
                - AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(theirs, from: note.start + 0.2, to: note.end - 0.05, rate: S.rate)))
            print(String(format: "sfz %@: loudness r = %.4f, swing %.2f dB (sfizz %.2f), level %+.2f dB", opcodes, r, swing.0, swing.1, level))
            #expect(abs(level) <= 1.5, "\(opcodes): level \(level) dB from sfizz's")
            #expect(r >= 0.95, "\(opcodes): r = \(r)")
            #expect(abs(swing.0 - swing.1) <= 1.5, "\(opcodes): swings \(swing.0) and \(swing.1) dB")
            #expect(swing.1 > 6, "\(opcodes): sfizz's level did not swing (\(swing.1) dB)")
        }
    }

    @Test func pitchLFOsMatchSfizz() throws {
        let cases: [(String, String, [(seconds: Double, message: MIDIMessage)])] = [
            ("v1", "pitchlfo_freq=5 pitchlfo_depth=50", []),
            ("triangle", "lfo1_freq=4 lfo1_pitch=80", []),
            ("sine", "lfo2_freq=6 lfo2_wave=1 lfo2_pitch=-60", []),
            ("cc", "lfo1_freq=5 lfo1_wave=1 lfo1_pitch_oncc1=70", Self.modWheelUp),
        ]
        let note = Self.lfoNote
        for (name, opcodes, extra) in cases {
            let (ours, theirs) = try S.render("lfo-pitch-\(name)", sfz: "\(Self.loopedTone) \(opcodes)", notes: [note], extra: extra)
            let a = Self.pitchTrack(ours, from: note.start + 0.2, to: note.end - 0.05)
            let b = Self.pitchTrack(theirs, from: note.start + 0.2, to: note.end - 0.05)
            let r = AudioComparison.pearson(a, b)
            let swing = (a.max()! - a.min()!, b.max()! - b.min()!)
            print(String(format: "sfz %@: pitch r = %.4f, swing %.1f cents (sfizz %.1f)", opcodes, r, swing.0, swing.1))
            #expect(r >= 0.95, "\(opcodes): r = \(r)")
            #expect(abs(swing.0 - swing.1) <= 10, "\(opcodes): swings \(swing.0) and \(swing.1) cents")
            #expect(swing.1 > 60, "\(opcodes): sfizz's pitch did not swing (\(swing.1) cents)")
        }
    }
}
