// The one voice allocator on its own: slots, stealing, the voices it never steals, exclusive classes.
import Testing
@testable import DSP
import MIDI

/// An allocator and the slots it allocates.
private struct Pool: ~Copyable {
    var allocator: VoiceAllocator
    let voices: VoiceSlots
}

/// An allocator of `capacity` voices over its slots, with `notes` started (channel 0) and heard by a render.
private func makePool(capacity: Int, notes: [UInt8], heard: Bool = true) -> Pool {
    var allocator = VoiceAllocator(capacity: capacity)
    let voices = VoiceSlots(count: allocator.slotCount)
    allocator.stealFadeStep = 0.01
    for note in notes {
        let v = allocator.take(voices, channel: 0, note: note, sameKey: .fade)
        allocator.start(voices, v, kind: VoiceKind.wavetable, channel: 0, note: note)
        voices.envelope[v] = 1
    }
    if heard { allocator.rendered(voices) }
    return Pool(allocator: allocator, voices: voices)
}

private func fading(_ voices: borrowing VoiceSlots, _ count: Int) -> [Int] {
    (0..<count).filter { voices.fadeStep[$0] > 0 }
}

@Test func aNoteTakesTheLowestFreeSlot() {
    var pool = makePool(capacity: 4, notes: [60, 62, 64])
    pool.allocator.free(pool.voices, 1)
    #expect(pool.allocator.take(pool.voices, channel: 0, note: 65, sameKey: .fade) == 1)
    #expect(pool.allocator.sounding == 2)
    #expect(fading(pool.voices, pool.allocator.slotCount).isEmpty)
}

@Test func atCapacityTheQuietestReleasingVoiceIsStolenFirst() {
    var pool = makePool(capacity: 3, notes: [60, 62, 64])
    pool.voices.stage[0] = Synth.Stage.release; pool.voices.envelope[0] = 0.5
    pool.voices.stage[2] = Synth.Stage.release; pool.voices.envelope[2] = 0.2
    let slot = pool.allocator.take(pool.voices, channel: 0, note: 65, sameKey: .fade)
    #expect(fading(pool.voices, pool.allocator.slotCount) == [2]) // not the older, louder release, not the held note
    #expect(slot == 3) // the stolen voice fades in its own slot
    #expect(pool.allocator.sounding == 2)
}

@Test func withoutAReleasingVoiceTheOldestIsStolen() {
    var pool = makePool(capacity: 3, notes: [60, 62, 64])
    _ = pool.allocator.take(pool.voices, channel: 0, note: 65, sameKey: .fade)
    #expect(fading(pool.voices, pool.allocator.slotCount) == [0])
}

@Test func aVoiceStartedInTheSamePeriodIsNeverStolen() {
    // Two voices started since the last render: a third note finds no voice it may steal and does not start.
    var pool = makePool(capacity: 2, notes: [60, 62], heard: false)
    #expect(pool.allocator.take(pool.voices, channel: 0, note: 64, sameKey: .fade) == -1)
    #expect(fading(pool.voices, pool.allocator.slotCount).isEmpty)
    #expect(pool.allocator.sounding == 2)
    // One heard voice among them: it is the victim, even though the new one is releasing and quieter.
    pool.allocator.rendered(pool.voices)
    pool.allocator.free(pool.voices, 1)
    let v = pool.allocator.take(pool.voices, channel: 0, note: 64, sameKey: .fade)
    pool.allocator.start(pool.voices, v, kind: VoiceKind.wavetable, channel: 0, note: 64)
    pool.voices.stage[v] = Synth.Stage.release; pool.voices.envelope[v] = 0.01
    #expect(pool.allocator.take(pool.voices, channel: 0, note: 65, sameKey: .fade) >= 0)
    #expect(fading(pool.voices, pool.allocator.slotCount) == [0])
}

@Test func theSameKeyAgainFadesTheBuiltInVoiceAndLeavesTheSampleVoice() {
    var pool = makePool(capacity: 4, notes: [60, 62])
    _ = pool.allocator.take(pool.voices, channel: 0, note: 62, sameKey: .keep)
    #expect(fading(pool.voices, pool.allocator.slotCount).isEmpty)
    _ = pool.allocator.take(pool.voices, channel: 1, note: 62, sameKey: .fade) // another channel: not the same key
    #expect(fading(pool.voices, pool.allocator.slotCount).isEmpty)
    _ = pool.allocator.take(pool.voices, channel: 0, note: 62, sameKey: .fade)
    #expect(fading(pool.voices, pool.allocator.slotCount) == [1])
}

@Test func anExclusiveClassCutsItsOwnOnItsChannelOnly() {
    var allocator = VoiceAllocator(capacity: 8)
    let voices = VoiceSlots(count: allocator.slotCount)
    let openHat = VoiceAllocator.exclusiveKey(1, preset: 5), other = VoiceAllocator.exclusiveKey(2, preset: 5)
    #expect(VoiceAllocator.exclusiveKey(0, preset: 5) == 0)
    #expect(VoiceAllocator.exclusiveKey(1, preset: 6) != openHat) // another preset's class 1
    for (ch, key) in [(9, openHat), (0, openHat), (9, other), (9, 0 as Int32)] {
        let v = allocator.take(voices, channel: ch, note: 46, sameKey: .keep)
        allocator.start(voices, v, kind: VoiceKind.sample, channel: ch, note: 46, exclusive: key)
    }
    allocator.cut(voices, exclusive: openHat, channel: 9)
    #expect(fading(voices, allocator.slotCount) == [0])
    #expect(allocator.sounding == 3)
}

@Test(arguments: [false, true])
func bothSynthsLetTheFirstNotesOfAPeriodKeepTheirVoices(_ soundFont: Bool) {
    // Three notes between two renders with room for two: the third does not steal a voice not yet heard.
    let synth = soundFont ? cosineFontSynth(voices: 2) : steadySynth(voices: 2)
    for note: UInt8 in [60, 64, 67] { synth.handle(noteOn(note)) }
    #expect(synth.activeVoiceCount == 2)
    _ = render(synth, frames: 256)
    synth.handle(noteOn(72))
    #expect(synth.activeVoiceCount == 2) // now a heard voice is stolen for it
}
