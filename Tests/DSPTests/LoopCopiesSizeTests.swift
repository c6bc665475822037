// The sample voices' loop copies (LoopCopies.swift) are made for a font with a loop short enough to be played
// from one, and not for a font whose loops are all longer (an SFZ instrument of long samples: 4 MB less for
// 256 voices); either way the font plays the same.
import Testing
@testable import DSP
import MIDI

/// A synth of `voices` voices playing one cosine of period 100 frames on every key, looping over `loop`.
private func loopSynth(loop: Range<Int>, voices: Int = 256, liveChanges: Bool = false) -> Synth {
    var data: [Int16] = []
    let sample = appendCosine(to: &data, frames: 8_000, loop: loop, rate: 48_000)
    let font = memoryFont(presets: [(0, 0, [makeZone([SoundFontGenerator.sampleModes: 1])])], samples: [sample], data: data)
    let synth = Synth(voices: voices, soundFont: font, liveChanges: liveChanges)
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    return synth
}

@Test func aFontWhoseLoopsAreLongGetsNoLoopCopies() {
    // 3000 frames: more than a copy's (4096 - 3) / 2.
    let synth = loopSynth(loop: 1_000..<4_000)
    #expect(synth.samples.slots.loops.copyCount == 0)
    for key: UInt8 in 40...80 { synth.handle(noteOn(key)) }
    let out = render(synth, frames: 48_000).left
    #expect(synth.activeVoiceCount == 41)
    // Past the loop's end (frame 4000 at key 69's pitch and above) every voice wraps in the font's data.
    #expect(peak(out[40_000...]) > 0.1, "the chord sounds on through its loops")
}

@Test func aSynthThatChangesInstrumentLiveKeepsItsCopiesWhateverItsFirstFont() {
    // Its slots stay through a change (Synth+FontChange.swift), and the next instrument may have short loops.
    let synth = loopSynth(loop: 1_000..<4_000, voices: 16, liveChanges: true)
    #expect(synth.samples.slots.loops.copyCount == min(synth.allocator.slotCount, unrolledLoopCopies))
}

@Test func aFontWithAShortLoopGetsACopyPerSlot() {
    let synth = loopSynth(loop: 1_000..<1_900, voices: 16)
    #expect(synth.samples.slots.loops.copyCount == min(synth.allocator.slotCount, unrolledLoopCopies))
    synth.handle(noteOn(69))
    _ = render(synth, frames: 4_800)
    #expect(synth.samples.slots.loops.copyKeys[0][2] == 900, "the note's loop is played from a copy")
}

@Test func theLoopLengthThatDecidesIsTheOneAVoicePlays() {
    // A long loop made short by the zone's loop-end offset (-2100 frames) is a short loop.
    var data: [Int16] = []
    let sample = appendCosine(to: &data, frames: 8_000, loop: 1_000..<4_000, rate: 48_000)
    let zone = makeZone([SoundFontGenerator.sampleModes: 1, SoundFontGenerator.endLoopAddressOffset: -2_100])
    // The tables are a view of the font's arrays: the font is kept while they are read.
    let font = memoryFont(presets: [(0, 0, [zone])], samples: [sample], data: data)
    let needed = withExtendedLifetime(font) { LoopCopies.needed(by: SoundFontTables(font)) }
    #expect(needed)
    let unlooped = memoryFont(presets: [(0, 0, [makeZone([SoundFontGenerator.endLoopAddressOffset: -2_100])])], samples: [sample], data: data)
    let neededUnlooped = withExtendedLifetime(unlooped) { LoopCopies.needed(by: SoundFontTables(unlooped)) }
    #expect(!neededUnlooped, "a zone that does not loop needs no copy")
}
