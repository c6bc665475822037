// Mono mode (CC126) and poly mode (CC127) in both synths, heard: one voice per channel, legato pitch
// changes without a new attack, the older key back when the newer is let go.
import Foundation
import MIDI
import Testing
@testable import DSP

private let sampleRate = 48_000.0

private func cents(_ f: Double, _ reference: Double) -> Double { 1200 * log2(f / reference) }

/// Handles `messages`, then renders `frames`: the left channel and the voices sounding after it.
private func play(_ synth: Synth, _ messages: [ShortMessage], frames: Int) -> (left: [Float], voices: Int) {
    for m in messages { synth.handle(m) }
    let out = render(synth, frames: frames).left
    return (out, synth.activeVoiceCount)
}

/// The peak of each period (between rising zero crossings): a sine's envelope, period by period.
private func periodPeaks(_ x: [Float]) -> [Double] {
    let crossings = risingZeroCrossings(x[...]).map { Int($0) }
    return zip(crossings, crossings.dropFirst()).map { Double(peak(x[$0..<$1])) }
}

@Suite struct MonoModeTests {
    @Test(arguments: TunedSynth.allCases)
    func monoModeIsLegatoAndReturnsToTheOlderKey(_ kind: TunedSynth) {
        let synth = kind.make()
        let (a, voicesA) = play(synth, [cc(126, 1), noteOn(69)], frames: 9_600)
        let (b, voicesB) = play(synth, [noteOn(76)], frames: 9_600) // 69 still down
        let (c, voicesC) = play(synth, [noteOff(76)], frames: 9_600) // back to 69
        let (_, voicesD) = play(synth, [noteOff(69)], frames: 24_000)
        let counts: [Int] = [voicesA, voicesB, voicesC, voicesD]
        #expect(counts == [1, 1, 1, 0], "\(kind): voices \(counts)")
        let pitches = [(a, 69.0), (b, 76.0), (c, 69.0)].map { out, note in
            cents(zeroCrossingFrequency(out[480...], sampleRate: sampleRate), kind.frequency(note))
        }
        #expect(pitches.allSatisfy { abs($0) < 3 }, "\(kind): \(pitches) cents off 69, 76, 69")
        // One onset: no new attack at the two changes, the envelope steady through them, period by period
        // (a new voice would start from silence, the old one fading).
        let levels = periodPeaks(Array(a[4_800...] + b + c))
        let steady = levels[0]
        #expect(levels.allSatisfy { abs($0 / steady - 1) < 0.02 }, "\(kind): peaks \(levels.min()!)...\(levels.max()!) of \(steady)")
    }

    @Test(arguments: TunedSynth.allCases)
    func polyModeAndNotesAfterSilenceStartNewVoices(_ kind: TunedSynth) {
        let synth = kind.make()
        // Mono: a note after every key is up starts afresh (and cuts the release tail).
        _ = play(synth, [cc(126, 1), noteOn(69)], frames: 4_800)
        let (_, afterRelease) = play(synth, [noteOff(69), noteOn(72)], frames: 480)
        #expect(afterRelease == 1)
        let (d, _) = play(synth, [], frames: 9_600)
        #expect(abs(cents(zeroCrossingFrequency(d[480...], sampleRate: sampleRate), kind.frequency(72))) < 3)
        // Poly mode (CC127, also all notes off): chords again.
        let (_, poly) = play(synth, [cc(127, 0), noteOn(60), noteOn(64), noteOn(67)], frames: 4_800)
        #expect(poly == 3, "\(kind): \(poly) voices in poly mode")
        // Mono mode again is all notes off too: the chord releases.
        let (_, released) = play(synth, [cc(126, 1)], frames: 48_000)
        #expect(released == 0)
    }

    @Test(arguments: TunedSynth.allCases)
    func monoLegatoGlidesWithPortamento(_ kind: TunedSynth) {
        // CC5 1: 128 ms from 69 to 81.
        let synth = kind.make()
        _ = play(synth, [cc(126, 1), cc(5, 1), cc(65, 127), noteOn(69)], frames: 4_800)
        let (out, voices) = play(synth, [noteOn(81)], frames: 14_400)
        #expect(voices == 1)
        let crossings = risingZeroCrossings(out[...])
        let periods = zip(crossings, crossings.dropFirst()).map { ((0.5 * ($0 + $1)) / sampleRate, cents(sampleRate / ($1 - $0), kind.frequency(81))) }
        var worst = 0.0
        for (time, c) in periods where time > 0.002 {
            worst = max(worst, abs(c + 1200 * max(1 - time / 0.128, 0)))
        }
        #expect(worst < (kind == .builtIn ? 8 : 20), "\(kind): off the legato glide by \(worst) cents")
    }
}
