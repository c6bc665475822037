// Which channels are drum parts with a SoundFont: channel 10 by default, GM2/XG bank MSB 120 and 127 on any
// channel, MSB 121 melodic on channel 10, GS Use For Rhythm Part on any channel. Heard by pitch: the test
// font's drum kit (bank 128) sounds an octave above its melodic preset (bank 0).
import Foundation
import MIDI
import Testing
@testable import DSP

private func drumAndMelodicSynth() -> Synth {
    var data: [Int16] = []
    let sample = appendCosine(to: &data)
    let melodic = makeZone([SoundFontGenerator.sampleModes: 1])
    let drums = makeZone([SoundFontGenerator.sampleModes: 1, SoundFontGenerator.coarseTune: 12])
    let font = memoryFont(presets: [(0, 0, [melodic]), (128, 0, [drums])], samples: [sample], data: data)
    let synth = Synth(voices: 16, soundFont: font)
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    return synth
}

private func programChange(_ program: UInt8, channel: UInt8) -> ShortMessage {
    ShortMessage(status: 0xC0 | channel, data1: program, data2: 0)
}

/// Whether key 69 on `channel` plays the drum kit (an octave up) after `messages`; nil if neither pitch.
private func playsDrums(_ synth: Synth, channel: UInt8, after messages: [ShortMessage] = [], sysex: [UInt8]? = nil) -> Bool? {
    for m in messages { synth.handle(m) }
    if let sysex { _ = sysex.withUnsafeBufferPointer { synth.handle(sysex: $0) } }
    synth.handle(noteOn(69, channel: channel))
    let out = render(synth, frames: 9_600)
    synth.handle(noteOff(69, channel: channel))
    _ = render(synth, frames: 9_600)
    let f = zeroCrossingFrequency(out.left[960...], sampleRate: 48_000)
    let octaves = log2(f / TunedSynth.soundFont.frequency(69))
    if abs(octaves) < 0.01 { return false }
    if abs(octaves - 1) < 0.01 { return true }
    return nil
}

private func rhythmPart(channel: UInt8, map: UInt8) -> [UInt8] {
    UniversalSystemExclusive.gsRhythmPart(channel: channel, map: map).bytes()
}

@Suite struct DrumPartTests {
    @Test func channelTenIsTheDrumPartAndBankMSB121MakesItMelodic() {
        let synth = drumAndMelodicSynth()
        #expect(playsDrums(synth, channel: 0) == false)
        #expect(playsDrums(synth, channel: 9) == true)
        #expect(playsDrums(synth, channel: 9, after: [cc(0, 121, channel: 9), programChange(0, channel: 9)]) == false)
        #expect(playsDrums(synth, channel: 9, after: [cc(0, 0, channel: 9), programChange(0, channel: 9)]) == true)
    }

    @Test(arguments: [UInt8(120), 127])
    func bankMSB120Or127MakesAnyChannelADrumPart(_ msb: UInt8) {
        let synth = drumAndMelodicSynth()
        #expect(playsDrums(synth, channel: 3, after: [cc(0, msb, channel: 3), programChange(0, channel: 3)]) == true)
        #expect(playsDrums(synth, channel: 3, after: [cc(0, 0, channel: 3), programChange(0, channel: 3)]) == false)
    }

    @Test func gsUseForRhythmPartMakesAnyChannelADrumPartAndBack() {
        let synth = drumAndMelodicSynth()
        let bytes = rhythmPart(channel: 1, map: 1)
        #expect(bytes == [0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x12, 0x15, 0x01, 0x18, 0xF7])
        #expect(playsDrums(synth, channel: 1, sysex: bytes) == true)
        #expect(playsDrums(synth, channel: 1, sysex: rhythmPart(channel: 1, map: 0)) == false)
        // Block 0 is channel 10: map 0 makes it melodic; GS Reset makes it the drum part again.
        #expect(playsDrums(synth, channel: 9, sysex: rhythmPart(channel: 9, map: 0)) == false)
        #expect(playsDrums(synth, channel: 9, sysex: UniversalSystemExclusive.gsReset.bytes()) == true)
        #expect(synth.ignoredSysexCount == 0)
    }
}
