import MIDI
import Testing
@testable import DSP

// The synth's sysex entry point, heard: Master Volume scales the output, GM System On puts every channel back
// to its power-on state, anything else changes nothing.

@discardableResult
private func send(_ synth: Synth, _ message: UniversalSystemExclusive) -> Bool {
    message.bytes().withUnsafeBufferPointer { synth.handle(sysex: $0) }
}

/// Level of a steady stretch of `x` (past the 5 ms glide of a gain change).
private func steadyLevel(_ x: [Float]) -> Double { rms(x[2_400...]) }

@Test func masterVolumeSysexHalvesTheLevel() {
    let synth = steadySynth()
    synth.handle(noteOn(69, velocity: 100))
    let before = render(synth, frames: 9_600)
    #expect(send(synth, .masterVolume(8192)))
    #expect(synth.masterVolume == Float(8192) / 16383)
    let half = render(synth, frames: 9_600)
    let ratio = steadyLevel(half.left) / steadyLevel(before.left)
    #expect(abs(ratio - 0.5) < 0.001, "RMS ratio \(ratio) (\(decibels(ratio)) dB)")
    #expect(abs(steadyLevel(half.right) / steadyLevel(before.right) - 0.5) < 0.001)
    // It glides there: no step at the message.
    #expect(abs(half.left[0] - before.left[9_599]) < 0.02)
    #expect(send(synth, .masterVolume(16383)))
    let full = render(synth, frames: 9_600)
    #expect(abs(steadyLevel(full.left) / steadyLevel(before.left) - 1) < 0.001)
}

@Test func masterVolumeSysexScalesSampleVoicesToo() {
    let synth = cosineFontSynth([makeZone([SoundFontGenerator.sampleModes: 1])])  // looped: a steady tone
    synth.handle(noteOn(69, velocity: 127))
    let before = render(synth, frames: 9_600)
    send(synth, .masterVolume(8192))
    let half = render(synth, frames: 9_600)
    let ratio = steadyLevel(half.left) / steadyLevel(before.left)
    #expect(abs(ratio - 0.5) < 0.01, "RMS ratio \(ratio)")
}

@Test func generalMIDIOnPutsEveryChannelBackToPowerOn() {
    let fresh = steadySynth()
    fresh.handle(noteOn(69, channel: 4))
    let reference = render(fresh, frames: 9_600)

    let synth = steadySynth()
    // Dry: the held note keeps its patch (program 40's strings, which send 30 % to the reverb) through its 2 ms
    // fade, whose reverb tail is not what this test is about.
    synth.setEffects(reverb: false, chorus: false)
    // Everything a song may leave behind on channel 5: quiet, hard left, bent, a wider bend range, the pedal
    // down, an RPN still selected, another patch.
    for message in [cc(7, 20, channel: 4), cc(10, 0, channel: 4), cc(11, 60, channel: 4), cc(1, 127, channel: 4),
                    cc(101, 0, channel: 4), cc(100, 0, channel: 4), cc(6, 12, channel: 4), bend(4_000, channel: 4),
                    cc(64, 127, channel: 4), ShortMessage.programChange(40, channel: 4), noteOn(60, channel: 4)] {
        synth.handle(message)
    }
    #expect(synth.currentPatch == SynthPatch.generalMIDI(program: 40))
    synth.setParameter(.attack, 0.001)  // program 40's values replaced the steady ones; GM On brings program 0's
    _ = render(synth, frames: 2_400)
    #expect(send(synth, .generalMIDIOn))
    #expect(synth.activeVoiceCount == 0, "all sound off: the held note is cut")
    #expect(synth.currentPatch == SynthPatch.generalMIDI(program: 0))
    #expect(SynthPatch.generalMIDI(program: 0) != SynthPatch.generalMIDI(program: 40))
    let cut = render(synth, frames: 480)
    #expect(peak(cut.left[240...]) == 0, "silent within 5 ms")
    for (parameter, value) in [(SynthParameter.waveform, Float(Waveform.sine.rawValue)), (.attack, 0.001), (.decay, 0.001),
                               (.sustain, 1), (.release, 0.05), (.cutoff, 20_000), (.resonance, 0),
                               (.filterEnvelopeAmount, 0)] {
        synth.setParameter(parameter, value)  // the steady sound again, as `reference` has it
    }
    synth.handle(noteOn(69, channel: 4))
    let after = render(synth, frames: 9_600)
    for (a, r) in [(after.left, reference.left), (after.right, reference.right)] {
        let ratio = steadyLevel(a) / steadyLevel(r)
        #expect(abs(ratio - 1) < 0.001, "level against a fresh synth: \(ratio)")
    }
    let pitch = zeroCrossingFrequency(after.left[2_400...], sampleRate: 48_000)
    #expect(abs(pitch / 440 - 1) < 0.001, "bend centred, no vibrato: \(pitch) Hz")
    // The pedal is up (note-off ends the note) and the bend range is 2 semitones again, RPN 0 deselected.
    synth.handle(cc(6, 24, channel: 4))
    synth.handle(bend(8_191, channel: 4))
    let bent = render(synth, frames: 9_600)
    let up = zeroCrossingFrequency(bent.left[2_400...], sampleRate: 48_000)
    #expect(abs(up / noteFrequency(69 + 2 * 8191 / 8192) - 1) < 0.002, "\(up) Hz")
    synth.handle(noteOff(69, channel: 4))
    let tail = render(synth, frames: 9_600)
    #expect(decibels(Double(peak(tail.left[7_200...]))) < -90, "the pedal is up: the note ended")
}

@Test func generalMIDIOnChoosesProgramZeroOfTheFont() {
    var data: [Int16] = []
    let sample = appendCosine(to: &data)
    let font = memoryFont(presets: [(0, 0, [makeZone()]), (0, 5, [makeZone()]), (128, 0, [makeZone()])],
                          samples: [sample], data: data)
    let synth = Synth(voices: 8, soundFont: font)
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    synth.handle(ShortMessage.programChange(5))
    synth.handle(ShortMessage.programChange(5, channel: 3))
    #expect(synth.preset(onChannel: 0) == 1 && synth.preset(onChannel: 3) == 1)
    #expect(send(synth, .generalMIDI2On))
    #expect(synth.preset(onChannel: 0) == 0 && synth.preset(onChannel: 3) == 0)
    #expect(synth.preset(onChannel: 9) == 2, "channel 10 still plays the drum bank")
}

@Test func aSysexTheSynthDoesNotAnswerChangesNothing() {
    let a = steadySynth(), b = steadySynth()
    for synth in [a, b] { synth.handle(noteOn(64)) }
    // A Korg sysex (Backbeat answers none) is ignored; GM System Off is obeyed and changes nothing (one mode only).
    let unanswered: [UInt8] = [0xF0, 0x42, 0x30, 0x00, 0x01, 0x2F, 0x12, 0xF7]
    #expect(!unanswered.withUnsafeBufferPointer { b.handle(sysex: $0) })
    #expect(send(b, .generalMIDIOff))
    let cutShort: [UInt8] = [0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x40]  // master volume without its F7
    #expect(!cutShort.withUnsafeBufferPointer { b.handle(sysex: $0) })
    let outA = render(a, frames: 4_800), outB = render(b, frames: 4_800)
    #expect(outA.left == outB.left && outA.right == outB.right)
}

/// Built under the checker (release): the sysex entry point is free of locks, allocation and reference counting.
@_noLocks
func handleSysexUnderTheChecker(_ synth: Synth, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    synth.handle(sysex: bytes)
}
