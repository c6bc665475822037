import Foundation
import Testing
@testable import DSP
import MIDI

let rate = 48_000.0

@Test func a4PlaysAt440Hz() {
    let synth = steadySynth()
    synth.handle(noteOn(69))
    let out = render(synth, frames: 48_000)
    let f = zeroCrossingFrequency(out.left[4_800...], sampleRate: rate)
    #expect(abs(f / 440 - 1) < 0.005, "measured \(f) Hz")
}

@Test(arguments: [Waveform.triangle, .saw, .square])
func everyWaveformHasTheRightPitch(_ waveform: Waveform) {
    let synth = steadySynth(waveform)
    synth.handle(noteOn(57))
    let out = render(synth, frames: 16_384 + 4_800)
    let magnitude = spectrum(out.left[4_800...], n: 16_384)
    let fundamental = spectralPeaks(magnitude, sampleRate: rate, n: 16_384, count: 1)[0]
    #expect(abs(fundamental / 220 - 1) < 0.005, "measured \(fundamental) Hz")
}

@Test func aFourNoteChordGivesFourPeaks() {
    let synth = steadySynth()
    let notes: [UInt8] = [60, 64, 67, 72]
    for note in notes { synth.handle(noteOn(note, velocity: 80)) }
    let out = render(synth, frames: 16_384 + 4_800)
    let magnitude = spectrum(out.left[4_800...], n: 16_384)
    let peaks = spectralPeaks(magnitude, sampleRate: rate, n: 16_384, count: 4).sorted()
    #expect(peaks.count == 4)
    for (peak, note) in zip(peaks, notes) {
        let expected = noteFrequency(Double(note))
        #expect(abs(peak / expected - 1) < 0.005, "peak \(peak) Hz, expected \(expected) Hz")
    }
}
