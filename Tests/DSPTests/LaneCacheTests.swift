// The lane cache (Synth+LaneCache.swift) keeps steady voice groups in their SIMD lanes between render
// calls. Each test plays the same MIDI through two synths, one with the cache and one gathering every group
// afresh in every call, and demands the same samples bit for bit, while voices start, stop, are stolen,
// released, or their channel's state changes under them; and that the cache was in fact used.
import Testing
@testable import DSP
import MIDI

/// Something done to both synths between two render calls.
private typealias Action = (Synth) -> Void

/// Renders `calls` calls of `period` frames through a synth with the lane cache and one without, doing
/// `script[call]` to both before that call. Returns the first differing sample (nil if none) and how many
/// groups the cached synth rendered from kept lanes.
private func compareCachedToFresh(voices: Int = 64, patch: Int = 1, period: Int = 64, calls: Int,
                                  setUp: Action = { _ in }, script: [Int: [Action]])
    -> (mismatch: String?, kept: Int) {
    let cached = Synth(voices: voices, patch: patch), fresh = Synth(voices: voices, patch: patch)
    fresh.builtIn.laneCache.isEnabled = false
    for synth in [cached, fresh] {
        synth.prepare(sampleRate: 48_000, maxFrames: period)
        // Short decays so voices settle (and become steady) within a few dozen calls.
        synth.setParameter(.decay, 0.02)
        setUp(synth)
    }
    if let mismatch = firstDifference(cached, fresh, names: ("cached", "fresh"), period: period, calls: calls, script: script) {
        return (mismatch, cached.builtIn.laneCache.keptRenders)
    }
    #expect(cached.activeVoiceCount == fresh.activeVoiceCount)
    #expect(fresh.builtIn.laneCache.keptRenders == 0)
    return (nil, cached.builtIn.laneCache.keptRenders)
}

/// `count` notes over channels 0...3, 16 per channel from note 40.
private func chord(_ count: Int, velocity: UInt8 = 100) -> Action {
    { synth in
        for i in 0..<count { synth.handle(noteOn(UInt8(40 + i % 16), velocity: velocity, channel: UInt8(i / 16))) }
    }
}

private func send(_ messages: ShortMessage...) -> Action {
    { synth in messages.forEach(synth.handle) }
}

@Test func keptGroupsSoundAsAFreshGatherWhileVoicesStartAndStop() {
    let result = compareCachedToFresh(calls: 400, script: [
        0: [chord(40)],
        60: [send(noteOn(90, channel: 1))],                        // a voice starts among steady groups
        90: [send(noteOff(42, channel: 0))],                       // one stops: the groups after it shift
        120: [send(noteOff(40, channel: 2), noteOff(55, channel: 1), noteOn(91, channel: 3))],
        150: [send(noteOn(42, channel: 0), noteOn(43, channel: 0))], // a retriggered key fades its old voice
        200: [chord(8, velocity: 30)],                             // same keys again, quieter
    ])
    #expect(result.mismatch == nil, "\(result.mismatch ?? "")")
    #expect(result.kept > 1_000, "kept groups rendered: \(result.kept)")
}

@Test func keptGroupsSoundAsAFreshGatherWhenVoicesAreStolen() {
    // 24 voices held, then more notes: each steals the quietest released or oldest voice, which fades out
    // in its own slot.
    let result = compareCachedToFresh(voices: 24, calls: 300, script: [
        0: [chord(24)],
        60: [send(noteOn(100, channel: 5))],
        61: [send(noteOn(101, channel: 5), noteOn(102, channel: 6))],
        100: [send(noteOff(45, channel: 0)), send(noteOn(103, channel: 6))],
        150: [chord(24, velocity: 60)], // the same keys again: every old voice fades, new ones take over
    ])
    #expect(result.mismatch == nil, "\(result.mismatch ?? "")")
    #expect(result.kept > 100, "kept groups rendered: \(result.kept)")
}

@Test func aSlotTakenByANewNoteBetweenTwoCallsGetsNoStaleState() {
    // 4 voices, 8 slots. Four steady voices are kept; then, between two calls, four notes steal them all
    // (they fade in slots 0...3, the new notes take 4...7) and a fifth note finds no free slot and cuts
    // the faintest fading one: a slot of a kept group, now a new note's, must not get the kept state back.
    let result = compareCachedToFresh(voices: 4, calls: 200, script: [
        0: [chord(4)],
        80: [send(noteOn(70), noteOn(71), noteOn(72), noteOn(73), noteOn(74))],
        81: [send(noteOn(75, channel: 2))],
    ])
    #expect(result.mismatch == nil, "\(result.mismatch ?? "")")
    #expect(result.kept > 60, "kept groups rendered: \(result.kept)")
}

@Test func keptGroupsFollowTheirChannelsState() {
    let result = compareCachedToFresh(calls: 700, script: [
        0: [chord(48)],
        60: [send(bend(3000, channel: 1))],                    // a jump: steady before and after
        90: [send(cc(7, 64, channel: 2))],                     // volume glides over ~5 ms
        130: [send(cc(1, 90, channel: 0))],                    // vibrato: channel 0's voices glide
        180: [send(cc(1, 0, channel: 0))],                     // ...and settle again
        260: [send(cc(10, 20, channel: 1), cc(11, 100, channel: 2))],
        320: [send(cc(64, 127, channel: 0), noteOff(41, channel: 0), noteOff(42, channel: 0))], // held
        360: [send(bend(-8192, channel: 0))],
        400: [send(cc(64, 0, channel: 0))],                    // pedal up: the held ones release
        450: [send(cc(101, 0, channel: 2), cc(100, 0, channel: 2), cc(6, 12, channel: 2), bend(8191, channel: 2))],
        500: [send(cc(121, 0, channel: 2))],                   // reset all controllers
    ])
    #expect(result.mismatch == nil, "\(result.mismatch ?? "")")
    #expect(result.kept > 2_000, "kept groups rendered: \(result.kept)")
}

@Test func keptGroupsFollowSoundOffPanicAndPatchChanges() {
    let result = compareCachedToFresh(calls: 1_000, script: [
        0: [chord(40)],
        60: [send(cc(120, 0, channel: 1))],                    // all sound off on one channel
        100: [send(cc(123, 0, channel: 2))],                   // all notes off on another
        140: [chord(40)],
        190: [{ $0.setParameter(.waveform, 0) }],              // the waveform alone, voices steady: new tables
        240: [{ $0.setParameter(.waveform, 3) }],
        300: [send(ShortMessage(status: 0xC0, data1: 16, data2: 0))], // hollow organ: sustain 1, filter glides
        460: [{ $0.setParameter(.cutoff, 900) }],              // the filter glides, then rests
        560: [{ $0.releaseAllVoices() }],
        620: [chord(32)],
        720: [{ $0.silenceAllVoices() }],
        740: [chord(16)],
        800: [{ $0.prepare(sampleRate: 48_000, maxFrames: 64) }, chord(16)], // everything reset
    ])
    #expect(result.mismatch == nil, "\(result.mismatch ?? "")")
    #expect(result.kept > 1_000, "kept groups rendered: \(result.kept)")
}

@Test(arguments: [1, 37, 64, 256])
func keptGroupsMatchAFreshGatherInCallsOfAnySize(period: Int) {
    // Kept lanes do not depend on the call size: one frame per call up to a whole period.
    let calls = 24_000 / period
    let result = compareCachedToFresh(voices: 32, period: period, calls: calls, script: [
        0: [chord(20)],
        calls / 2: [send(noteOn(99, channel: 3), noteOff(44, channel: 0))],
    ])
    #expect(result.mismatch == nil, "\(result.mismatch ?? "")")
    #expect(result.kept > 0)
}

@Test func aHeldChordIsRenderedFromKeptLanesOnly() {
    // The benchmark's case: 256 voices held on the saw lead, settled. Every call renders all 32 groups from
    // their kept lanes (none gathered again), in 64-frame calls.
    let synth = Synth(voices: 256, patch: 1)
    synth.prepare(sampleRate: 48_000, maxFrames: 64)
    for i in 0..<256 { synth.handle(noteOn(UInt8(36 + i % 64), channel: UInt8(i / 64))) }
    _ = render(synth, frames: 48_000, block: 64) // attack and decay, settled after about 0.7 s
    let before = synth.builtIn.laneCache.keptRenders
    _ = render(synth, frames: 64 * 100, block: 64)
    #expect(synth.builtIn.laneCache.keptRenders - before == 100 * 32)
}

@Test func keptGroupsOfManyPatchesSoundAsAFreshGather() {
    // Each channel plays its own built-in patch (a program change per channel, each patch given short decays):
    // groups are sorted by patch, kept per patch, and a patch's change (its waveform, its filter) makes only
    // its own groups stale.
    let programs: [UInt8] = [16, 21, 40, 56, 73, 80, 32, 88, 4, 16, 21, 40, 56, 73, 80, 32]
    let result = compareCachedToFresh(calls: 900, setUp: { synth in
        for (ch, program) in programs.enumerated() {
            synth.handle(ShortMessage(status: 0xC0 | UInt8(ch), data1: program, data2: 0))
            synth.setParameter(.decay, 0.02)
            synth.setParameter(.attack, 0.005)
        }
    }, script: [
        0: [{ synth in for i in 0..<96 { synth.handle(noteOn(UInt8(40 + i % 24), channel: UInt8(i % 16))) } }],
        200: [send(noteOn(90, channel: 3), noteOff(41, channel: 1))],  // one patch's groups shift
        300: [{ $0.setParameter(.waveform, 1) }],                      // program 32's patch (the last chosen)
        400: [{ $0.setParameter(.cutoff, 700) }],                      // its filter glides, then rests
        500: [send(ShortMessage(status: 0xC2, data1: 0, data2: 0)), send(noteOn(70, channel: 2))], // a piano note
        600: [send(cc(7, 50, channel: 5))],
        700: [{ $0.releaseAllVoices() }],
    ])
    #expect(result.mismatch == nil, "\(result.mismatch ?? "")")
    #expect(result.kept > 2_000, "kept groups rendered: \(result.kept)")
}

/// A kept group keeps its effect sends too: a channel's CC91 or CC93, or a bus switched, makes them stale.
@Test func keptGroupsFollowTheirChannelsSendsAndTheBuses() {
    let result = compareCachedToFresh(calls: 600, script: [
        0: [chord(48)],
        80: [send(cc(91, 100, channel: 1))],                   // reverb send: channel 1's groups send
        140: [send(cc(93, 64, channel: 2), cc(91, 0, channel: 1))],
        200: [{ $0.setEffects(reverb: false, chorus: true) }],
        260: [{ $0.setEffects(reverb: false, chorus: false) }], // no bus: nothing sends
        320: [{ $0.setEffects(reverb: true, chorus: true) }],
        380: [send(cc(91, 127, channel: 0), cc(93, 127, channel: 3))],
        450: [send(cc(121, 0, channel: 0))],                   // reset all controllers: the depths stay
    ])
    #expect(result.mismatch == nil, "\(result.mismatch ?? "")")
    #expect(result.kept > 2_000, "kept groups rendered: \(result.kept)")
}
