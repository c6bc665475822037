// Two ways of rendering sample voices that must not change a sample. Groups kept in their rows between
// render calls (Synth+SampleLaneCache.swift): a synth keeping groups against one gathering every group afresh
// in every call. Groups played eight lanes wide (WideLoops.swift) with each compile of the loops the CPU
// runs (AVX2, AVX-512): a synth doing so against one playing four lanes at a time. Each plays the same MIDI through both synths on
// the same font and demands the same samples bit for bit while voices start, end, are released, stolen or
// cut, their controllers, tuning and effects change between calls; and that the way under test was taken.
import Testing
@testable import DSP
import MIDI

/// Something done to both synths between two render calls.
private typealias Action = (Synth) -> Void

/// A font whose zones take every path of a group: preset 0 plays a short loop (unrolled into a copy) below
/// key 60, with a delayed modulation LFO on pitch, cutoff and volume, and a longer loop from key 60, with a
/// modulation envelope on pitch and cutoff and a held, delayed volume envelope; preset 1 plays a sample with
/// no loop (its voices end) and one that loops until release then plays to its end (mode 3), sent to reverb
/// and chorus.
private func testFont() -> SoundFont {
    var data: [Int16] = []
    let samples = [
        appendCosine(to: &data, period: 50, frames: 400, loop: 0..<100, root: 48),
        appendCosine(to: &data, period: 90, frames: 3_000, loop: 1_000..<2_800, root: 72),
        appendCosine(to: &data, period: 70, frames: 6_000, loop: 0..<0, root: 60),
        appendCosine(to: &data, period: 60, frames: 4_000, loop: 500..<620, root: 60),
    ]
    typealias G = SoundFontGenerator
    let low = makeZone(sample: 0, keys: 0...59, [G.sampleModes: 1, G.delayModLFO: -2_000, G.freqModLFO: 200,
                                                  G.modLFOToPitch: 30, G.modLFOToFilterFc: 800, G.modLFOToVolume: 40,
                                                  G.initialFilterFc: 6_000, G.initialFilterQ: 60,
                                                  G.releaseVolEnv: -3_000])
    let high = makeZone(sample: 1, keys: 60...127, [G.sampleModes: 1, G.attackModEnv: -2_000, G.decayModEnv: -1_000,
                                                    G.sustainModEnv: 500, G.modEnvToPitch: 50, G.modEnvToFilterFc: -2_000,
                                                    G.initialFilterFc: 9_000, G.delayVolEnv: -3_000, G.attackVolEnv: -2_500,
                                                    G.holdVolEnv: -2_000, G.decayVolEnv: -500, G.sustainVolEnv: 200,
                                                    G.delayVibLFO: -1_500, G.vibLFOToPitch: 20,
                                                    G.releaseVolEnv: -2_000])
    let once = makeZone(sample: 2, keys: 0...63, [G.reverbEffectsSend: 300, G.chorusEffectsSend: 200,
                                                  G.releaseVolEnv: -4_000])
    let untilRelease = makeZone(sample: 3, keys: 64...127, [G.sampleModes: 3, G.reverbEffectsSend: 500,
                                                            G.releaseVolEnv: -1_200])
    return memoryFont(presets: [(0, 0, [low, high]), (0, 1, [once, untilRelease])], samples: samples, data: data)
}

/// Renders `calls` calls of `period` frames through a synth as it comes (keeping sample groups, eight lanes
/// wide where the CPU can) and one `reference` changed, doing `script[call]` to both before that call.
/// Returns the first differing sample (nil if none) and the first synth.
private func compare(_ names: (String, String), voices: Int = 64, period: Int = 64, calls: Int, script: [Int: [Action]],
                     path forcedPath: VoiceLoopPath? = nil,
                     reference change: (Synth) -> Void) -> (mismatch: String?, synth: Synth) {
    let font = testFont()
    let synth = Synth(voices: voices, soundFont: font), reference = Synth(voices: voices, soundFont: font)
    change(reference)
    if let path = forcedPath {
        synth.voiceLoops = path
        synth.samples.forcesEightLanes = true
    }
    for each in [synth, reference] { each.prepare(sampleRate: 48_000, maxFrames: period) }
    let mismatch = firstDifference(synth, reference, names: names, period: period, calls: calls, script: script)
    if mismatch == nil { #expect(synth.activeVoiceCount == reference.activeVoiceCount) }
    return (mismatch, synth)
}

/// Expects the synth to play what one gathering every group afresh plays, with more than `minimumKept` groups
/// rendered from kept rows; `context` begins each failure's message.
private func expectKeptSoundsAsFresh(voices: Int = 64, period: Int = 64, calls: Int, script: [Int: [Action]],
                                     keptOver minimumKept: Int, context: String = "",
                                     sourceLocation: SourceLocation = #_sourceLocation) {
    let result = compare(("kept", "fresh"), voices: voices, period: period, calls: calls, script: script) {
        $0.samples.keepsGroups = false
    }
    let kept = result.synth.samples.keptRenders
    #expect(result.mismatch == nil, "\(context)\(result.mismatch ?? "")", sourceLocation: sourceLocation)
    #expect(kept > minimumKept, "\(context)kept groups rendered: \(kept)", sourceLocation: sourceLocation)
}

/// Against a synth playing four lanes at a time, the first on `path`; also how many blocks of groups were
/// played eight wide.
private func compareWideToNarrow(_ path: VoiceLoopPath, voices: Int = 64, period: Int = 64, calls: Int,
                                 script: [Int: [Action]]) -> (mismatch: String?, wide: Int) {
    let result = compare((path.rawValue, "four lanes"), voices: voices, period: period, calls: calls, script: script,
                         path: path) {
        $0.playsWideLoops = false
    }
    return (result.mismatch, result.synth.samples.wideBlocks)
}

/// `count` notes over channels 0...3 from key `first`, 12 per channel.
private func chord(_ count: Int, from first: UInt8 = 40, velocity: UInt8 = 100) -> Action {
    { synth in
        for i in 0..<count { synth.handle(noteOn(first + UInt8(i % 12) * 3, velocity: velocity, channel: UInt8(i / 12))) }
    }
}

private func send(_ messages: ShortMessage...) -> Action {
    { synth in messages.forEach(synth.handle) }
}

private func program(_ p: UInt8, channel: UInt8) -> ShortMessage {
    ShortMessage(status: 0xC0 | channel, data1: p, data2: 0)
}

/// Voices start among held ones, are released and end; short and long loops, mode 3 (500 calls).
private var startsReleasesAndEnds: [Int: [Action]] { [
        0: [chord(30)],                                             // short and long loops, held
        40: [send(noteOn(90, channel: 1))],                         // a voice starts among kept groups
        80: [send(noteOff(43, channel: 0))],                        // one is released: the groups after it shift
        120: [send(program(1, channel: 3)), chord(6, from: 58)],    // voices that end, and loop until release
        200: [send(noteOff(64, channel: 0), noteOff(67, channel: 0))],
        260: [send(noteOn(43, channel: 0), noteOn(46, channel: 0))], // the same keys again
        300: [{ $0.releaseAllVoices() }],
] }

@Test func keptSampleGroupsSoundAsAFreshGatherWhileVoicesStartReleaseAndEnd() {
    expectKeptSoundsAsFresh(calls: 500, script: startsReleasesAndEnds, keptOver: 1_500)
}

/// Controllers, bend, sends, effects switched, an MTS tuning, the pedal, sound off (400 calls).
private var controllersTuningAndEffects: [Int: [Action]] { [
        0: [chord(24), send(program(1, channel: 2)), chord(4, from: 62)],
        50: [send(cc(7, 60), cc(10, 20, channel: 1))],                // volume and pan
        80: [send(cc(1, 127, channel: 1), bend(3_000))],              // the wheel and a bend
        110: [send(cc(91, 100, channel: 2), cc(93, 80, channel: 0))],  // sends
        140: [{ $0.setEffects(reverb: false, chorus: true) }],        // a bus off: its sends regathered
        170: [{ $0.setEffects(reverb: true, chorus: false) }],
        200: [{ synth in // a scale/octave tuning (MTS, real time, all channels): pitches moved
            let bytes: [UInt8] = [0xF0, 0x7F, 0x7F, 0x08, 0x08, 0x03, 0x7F, 0x7F] + [UInt8](repeating: 0x50, count: 12) + [0xF7]
            bytes.withUnsafeBufferPointer { _ = synth.handle(sysex: $0) }
        }],
        250: [send(cc(64, 127)), send(noteOff(40)), send(noteOff(43))], // held by the pedal
        300: [send(cc(64, 0))],
        330: [{ $0.silenceAllVoices() }],
] }

@Test func keptSampleGroupsSoundAsAFreshGatherWhenControllersTuningAndEffectsChange() {
    expectKeptSoundsAsFresh(calls: 400, script: controllersTuningAndEffects, keptOver: 1_000)
}

/// 20 voices held, then more notes: each steals one, which fades out in its own slot (for 20 voices, 120 calls).
private var steals: [Int: [Action]] { [
    0: [chord(20)],
    30: [send(noteOn(100, channel: 5))],
    31: [send(noteOn(101, channel: 5), noteOn(102, channel: 6))],
    60: [chord(20, velocity: 60)], // the same keys again: every old voice fades, new ones take over
] }

@Test func keptSampleGroupsSoundAsAFreshGatherWhenVoicesAreStolenAndCalls() {
    // Odd call sizes.
    for period in [37, 256] {
        expectKeptSoundsAsFresh(voices: 20, period: period, calls: 120, script: steals, keptOver: 100,
                                context: "period \(period): ")
    }
}

/// The same scripts eight lanes wide and four at a time, on each compile of the eight-lane loop this CPU runs
/// (forced eight wide where the synth would play four: `VoiceLoopPath.playsSampleGroupsEightWide`). Calls of
/// 37 frames cut blocks short, as a JACK period or a slice at a MIDI event does.
@Test(arguments: VoiceLoopPath.supported)
func wideSampleRunsSoundAsFourLanesDo(_ path: VoiceLoopPath) {
    for (name, calls, voices, script) in [("starts, releases and ends", 500, 64, startsReleasesAndEnds),
                                          ("controllers, tuning and effects", 400, 64, controllersTuningAndEffects),
                                          ("steals", 120, 20, steals)] {
        for period in [64, 37] {
            let result = compareWideToNarrow(path, voices: voices, period: period, calls: calls, script: script)
            #expect(result.mismatch == nil, "\(path.rawValue), \(name), period \(period): \(result.mismatch ?? "")")
            #expect(result.wide > calls, "\(path.rawValue), \(name), period \(period): blocks played eight wide: \(result.wide)")
        }
    }
}
