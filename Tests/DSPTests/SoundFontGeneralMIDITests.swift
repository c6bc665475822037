// The sample voices with a real General MIDI font, TimGM6mb (Debian's timgm6mb-soundfont, installed by
// scripts/setup): a melodic preset plays at its note's pitch, a drum on channel 10 is noise, not a tone.
import Foundation
import Testing
@testable import DSP
import MIDI
import TestSupport

private let timGM6mb = "/usr/share/sounds/sf2/TimGM6mb.sf2"

private func generalMIDISynth() throws -> Synth {
    let synth = Synth(voices: 64, soundFont: try SoundFont.load(path: timGM6mb))
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    return synth
}

/// Spectral flatness (geometric over arithmetic mean of the power) between 200 Hz and 8 kHz: near 0 for a
/// tone, far higher for noise.
private func flatness(_ x: ArraySlice<Float>, n: Int = 4_096) -> Double {
    let magnitude = spectrum(x, n: n)
    let low = 200 * n / 48_000, high = 8_000 * n / 48_000
    let power = magnitude[low..<high].map { max($0 * $0, 1e-30) }
    let geometric = exp(power.map { log($0) }.reduce(0, +) / Double(power.count))
    return geometric / (power.reduce(0, +) / Double(power.count))
}

@Suite(.needs(file: timGM6mb, package: "timgm6mb-soundfont"))
struct SoundFontGeneralMIDITests {
    @Test func a4OnProgram0PlaysAt440Hz() throws {
        let synth = try generalMIDISynth()
        synth.handle(ShortMessage(status: 0xC0, data1: 0, data2: 0))
        synth.handle(noteOn(69, velocity: 100))
        let out = render(synth, frames: 2_400 + 16_384)
        let magnitude = spectrum(out.left[2_400...], n: 16_384)
        let fundamental = spectralPeaks(magnitude, sampleRate: rate, n: 16_384, count: 1)[0]
        #expect(abs(fundamental / 440 - 1) < 0.005, "measured \(fundamental) Hz")
    }

    @Test func aDrumOnChannel10IsNoiseNotATone() throws {
        let drums = try generalMIDISynth()
        #expect(drums.preset(onChannel: 9).map { drums.soundFont!.presets[$0].bank } == 128)
        drums.handle(noteOn(38, velocity: 110, channel: 9)) // acoustic snare
        let snare = render(drums, frames: 4_096 + 480).left
        #expect(rms(snare[480...]) > 1e-3, "the snare is heard")
        let piano = try generalMIDISynth()
        piano.handle(noteOn(69, velocity: 110))
        let tone = render(piano, frames: 4_096 + 480).left
        let (noise, pure) = (flatness(snare[480...]), flatness(tone[480...]))
        #expect(noise > 10 * pure && noise > 0.05, "snare flatness \(noise), piano \(pure)")
    }
}
