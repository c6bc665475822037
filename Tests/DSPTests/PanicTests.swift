import MIDI
import Testing
@testable import DSP

/// Panic and the lifecycle's resume: every voice on every channel, the pedal's included.
@Test func silenceAllVoicesCutsSustainedNotesOnEveryChannelAtOnce() {
    let synth = steadySynth()
    for channel: UInt8 in [0, 5, 15] {
        synth.handle(cc(64, 127, channel: channel))
        synth.handle(noteOn(60 + channel, channel: channel))
    }
    _ = render(synth, frames: 2_400)
    for channel: UInt8 in [0, 5, 15] { synth.handle(noteOff(60 + channel, channel: channel)) }  // held by the pedal
    let held = render(synth, frames: 4_800)
    #expect(decibels(rms(held.left[2_400...])) > -40)
    #expect(synth.activeVoiceCount == 3)
    synth.silenceAllVoices()
    #expect(synth.activeVoiceCount == 0, "no voice counts as sounding once panic is applied")
    let cut = render(synth, frames: 480)
    #expect(peak(cut.left[240...]) == 0 && peak(cut.right[240...]) == 0, "silent within 5 ms")
    // The pedals are up: a new note ends at its note-off.
    synth.handle(noteOn(69, channel: 5))
    _ = render(synth, frames: 2_400)
    synth.handle(noteOff(69, channel: 5))
    let after = render(synth, frames: 9_600)
    #expect(decibels(Double(peak(after.left[4_800...]))) < -90)
}

@Test func releaseAllVoicesEndsNotesWhoseNoteOffsWereLostEvenUnderThePedal() {
    let synth = steadySynth()
    synth.handle(cc(64, 127, channel: 3))
    synth.handle(noteOn(64, channel: 3))
    synth.handle(noteOn(67, channel: 8))
    _ = render(synth, frames: 4_800)
    synth.releaseAllVoices()
    let tail = render(synth, frames: 9_600)  // release 0.05 s
    #expect(decibels(rms(tail.left[0..<240])) > -40, "released, not cut")
    #expect(decibels(Double(peak(tail.left[4_800...]))) < -90)
    #expect(synth.activeVoiceCount == 0)
}
