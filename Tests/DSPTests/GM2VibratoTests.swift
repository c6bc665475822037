// After RPN 5, a SoundFont channel's wheel vibrato is GM2's as the built-in synth plays it (a 5.5 Hz sine to
// the depth asked), so that a pitch tracker with a window of tens of milliseconds reads the same depth with a
// font as without; a channel that never received RPN 5 keeps SoundFont 2.04's triangle LFO.
import Foundation
import MIDI
import Testing
@testable import DSP

@Suite struct GM2VibratoTests {
    /// The pitch of key 69 at full wheel under `messages`, in cents from its own, one value per period over 2 s,
    /// each at its period's time in seconds.
    func pitchTrack(_ kind: TunedSynth, _ messages: [ShortMessage], before: ((Synth) -> Void)? = nil) -> [(t: Double, cents: Double)] {
        let synth = kind.make()
        for m in messages { synth.handle(m) }
        before?(synth)
        synth.handle(cc(1, 127))
        synth.handle(noteOn(69))
        let out = render(synth, frames: 2 * 48_000)
        let reference = kind.frequency(69)
        var t = 0.0
        return periodFrequencies(out.left[9_600...], sampleRate: 48_000).map { f in
            t += 1 / f
            return (t, 1200 * log2(f / reference))
        }
    }

    /// What a windowed pitch tracker reads: the track averaged over 43 ms windows, then half its span between
    /// the 2nd and 98th percentiles.
    func windowedSwing(_ track: [(t: Double, cents: Double)], window: Double = 0.043) -> Double {
        var averaged: [Double] = [], first = 0, sum = 0.0
        for (i, p) in track.enumerated() {
            sum += p.cents
            while track[first].t <= p.t - window { sum -= track[first].cents; first += 1 }
            if p.t >= window { averaged.append(sum / Double(i - first + 1)) }
        }
        averaged.sort()
        let at = { (q: Double) in averaged[Int(q * Double(averaged.count - 1))] }
        return (at(0.98) - at(0.02)) / 2
    }

    /// The vibrato's rate: upward crossings of the track's mean, per second.
    func rate(_ track: [(t: Double, cents: Double)]) -> Double {
        let mean = track.map(\.cents).reduce(0, +) / Double(track.count)
        var crossings: [Double] = []
        for i in 1..<track.count where track[i - 1].cents < mean && track[i].cents >= mean {
            if crossings.last.map({ track[i].t - $0 > 0.05 }) ?? true { crossings.append(track[i].t) }
        }
        guard crossings.count > 2 else { return 0 }
        return Double(crossings.count - 1) / (crossings.last! - crossings.first!)
    }

    @Test(arguments: [(UInt8(0), UInt8(64)), (2, 0), (12, 0), (24, 0)])
    func afterRPN5AFontsWheelVibratoReadsAsTheBuiltInSynths(_ semitones: UInt8, _ fraction: UInt8) {
        let asked = (Double(semitones) + Double(fraction) / 128) * 100
        let rpn5 = [cc(101, 0), cc(100, 5), cc(6, semitones), cc(38, fraction)]
        let font = pitchTrack(.soundFont, rpn5), builtIn = pitchTrack(.builtIn, rpn5)
        let fontPeak = font.map(\.cents).max()!, builtInPeak = builtIn.map(\.cents).max()!
        #expect(abs(fontPeak / asked - 1) < 0.08, "the font's peak: \(fontPeak) cents, \(asked) asked")
        #expect(abs(rate(font) - 5.5) < 0.3, "the font's vibrato rate: \(rate(font)) Hz")
        let fontRead = windowedSwing(font), builtInRead = windowedSwing(builtIn)
        #expect(abs(fontRead / builtInRead - 1) < 0.05,
                "a 43 ms window reads \(fontRead) cents with the font, \(builtInRead) with the built-in synth (peak \(builtInPeak))")
        #expect(fontRead / asked > 0.85, "a 43 ms window reads \(fontRead) of \(asked) cents")
    }

    @Test func withoutRPN5TheFontKeepsItsTriangleLFO() {
        let font = pitchTrack(.soundFont, [])
        let peak = font.map(\.cents).max()!
        #expect(abs(peak - 50) < 8, "peak \(peak) cents")
        #expect(abs(rate(font) - 8.18) < 0.4, "the font's vibrato rate: \(rate(font)) Hz")
        // A reset forgets RPN 5: GM System On, then the wheel rides the triangle again.
        let gmOn: [UInt8] = [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
        let reset = pitchTrack(.soundFont, [cc(101, 0), cc(100, 5), cc(6, 0), cc(38, 64)]) { synth in
            _ = gmOn.withUnsafeBufferPointer { synth.handle(sysex: $0) }
        }
        #expect(abs(rate(reset) - 8.18) < 0.4, "after GM System On: \(rate(reset)) Hz")
    }
}
