// SoundFont sample voices against blueprints: pitch, onset frame, envelope times, loop modes, exclusive
// class, bend, velocity, pan, stealing. The fonts are built in memory (InMemoryFont.swift): a looped cosine
// of 441 Hz recorded at key 69, 44.1 kHz, played at 48 kHz.
import Foundation
import Testing
@testable import DSP
import MIDI

private let sampleHz = 441.0

/// Level in dB of 480-frame windows (10 ms) starting at each frame in `starts`.
private func levels(_ x: [Float], at starts: [Int]) -> [Double] {
    starts.map { decibels(rms(x[$0..<($0 + 480)]) * sqrt(2)) }
}

@Test(arguments: [
    // (key, generators, pitch correction, expected ratio to 441 Hz)
    (69, [Int: Int32](), 0, 1.0),
    (81, [:], 0, 2.0),
    (57, [:], 0, 0.5),
    (69, [51: 2, 52: -50], 0, pow(2, 150.0 / 1200)),         // coarse +2 semitones, fine -50 cents
    (81, [56: 50], 0, pow(2, 0.5)),                          // scale tuning 50 cents per key
    (69, [58: 57], 0, 2.0),                                  // overriding root key 57
    (69, [:], 100, pow(2, 1.0 / 12)),                        // the sample's pitch correction
] as [(UInt8, [Int: Int32], Int8, Double)])
func aLoopedSamplePlaysAtThePitchOfItsKey(_ key: UInt8, _ generators: [Int: Int32], _ correction: Int8, _ ratio: Double) {
    let synth = cosineFontSynth([makeZone([54: 1].merging(generators) { $1 })], correction: correction)
    synth.handle(noteOn(key, velocity: 127))
    let out = render(synth, frames: 24_000)
    let f = zeroCrossingFrequency(out.left[4_800...], sampleRate: rate)
    #expect(abs(f / (sampleHz * ratio) - 1) < 0.005, "measured \(f) Hz, expected \(sampleHz * ratio)")
}

@Test(arguments: [0, 1, 37, 255, 256, 300])
func aSampleVoiceStartsExactlyAtItsFrame(_ offset: Int) {
    let synth = cosineFontSynth([makeZone([54: 1])])
    let left = render(synth, frames: 1_024, events: [(offset, noteOn(69, velocity: 127))], fill: 1).left
    let first = left.firstIndex { $0 != 0 }
    #expect(first == offset)
}

@Test func theVolumeEnvelopeKeepsItsTimes() {
    // Attack 100 ms (linear), decay 1 s per 96 dB to a sustain of 200 cB (19.2 dB down, reached 200 ms
    // after the attack), release 1 s per 96 dB.
    let attack = Int32((1200 * log2(0.1)).rounded())
    let synth = cosineFontSynth([makeZone([54: 1, 34: attack, 36: 0, 37: 200, 38: 0])])
    synth.handle(noteOn(69, velocity: 127))
    let held = render(synth, frames: 48_000).left
    let full = levels(held, at: [2_400 - 240])[0] // 50 ms: half way up the linear attack
    let peak = levels(held, at: [24_000 + 9_600])[0] // long after: sustain
    #expect(abs((full - peak) - (20 * log10(0.5) + 19.2)) < 1.5, "attack mid \(full) dB, sustain \(peak) dB")
    // 100 ms into the decay: 9.6 dB down from the top; at 400 ms: at the sustain, 19.2 dB down.
    let decay = levels(held, at: [4_800 + 4_800 - 240, 4_800 + 19_200 - 240])
    let top = decay[1] + 19.2
    #expect(abs(decay[0] - (top - 9.6)) < 1, "decay 100 ms: \(decay[0]) dB, top \(top) dB")
    #expect(abs(decay[1] - peak) < 0.5)
    synth.handle(noteOff(69))
    let released = render(synth, frames: 48_000).left
    let release = levels(released, at: [4_800 - 240, 19_200 - 240])
    #expect(abs(release[0] - (peak - 9.6)) < 1, "release 100 ms: \(release[0]) dB from \(peak) dB")
    #expect(abs(release[1] - (peak - 38.4)) < 1.5, "release 400 ms: \(release[1]) dB")
    // The value falls from 0.8 to 0 in 0.8 s: the voice has ended by then.
    #expect(synth.activeVoiceCount == 0)
    #expect(peakOf(released[40_000...]) == 0)
}

private func peakOf(_ x: ArraySlice<Float>) -> Float { x.reduce(0) { max($0, abs($1)) } }

@Test func loopModeZeroStopsAtTheSampleEnd() {
    let synth = cosineFontSynth([makeZone([54: 0])])
    synth.handle(noteOn(69, velocity: 127))
    let out = render(synth, frames: 4_800).left
    // 2000 frames at 44.1 kHz last 2176.9 frames at 48 kHz.
    let last = out.lastIndex { $0 != 0 } ?? -1
    #expect(abs(last - 2_176) <= 2, "last sound at frame \(last)")
    #expect(synth.activeVoiceCount == 0)
}

@Test func loopModeThreePlaysToTheEndAfterTheRelease() {
    func tail(mode: Int32) -> (last: Int, voices: Int) {
        let synth = cosineFontSynth([makeZone([54: mode, 38: 0])]) // release 1 s
        synth.handle(noteOn(69, velocity: 127))
        _ = render(synth, frames: 24_000) // 0.5 s: long past the sample's 45 ms, so it has looped
        synth.handle(noteOff(69))
        let out = render(synth, frames: 4_800).left
        return (out.lastIndex { $0 != 0 } ?? -1, synth.activeVoiceCount)
    }
    let untilRelease = tail(mode: 3)
    // From somewhere in the loop (1000..<1900) to the end (2000): at most 1000 frames, 1089 at 48 kHz.
    #expect(untilRelease.last > 100 && untilRelease.last <= 1_090, "mode 3 stopped at \(untilRelease.last)")
    #expect(untilRelease.voices == 0)
    let continuous = tail(mode: 1)
    #expect(continuous.last == 4_799)
    #expect(continuous.voices == 1)
}

@Test func anExclusiveClassCutsTheOtherNoteOfItsClassWithoutAClick() {
    func play(exclusive: Int32) -> (voices: Int, largestJump: Float) {
        let synth = cosineFontSynth([makeZone(keys: 42...42, [54: 1, 57: exclusive]),
                                     makeZone(keys: 46...46, [54: 1, 57: exclusive])])
        synth.handle(noteOn(46, velocity: 127))
        var out = render(synth, frames: 4_821).left
        synth.handle(noteOn(42, velocity: 127))
        out += render(synth, frames: 4_800).left
        let jump = zip(out.dropFirst(4_700), out.dropFirst(4_699)).map { abs($0 - $1) }.max()!
        return (synth.activeVoiceCount, jump)
    }
    let cut = play(exclusive: 1)
    #expect(cut.voices == 1)
    // Two cosines of about 0.09 at 441 Hz move at most ~0.01 per sample; a cut without a fade jumps ~0.09.
    #expect(cut.largestJump < 0.03, "largest step \(cut.largestJump)")
    #expect(play(exclusive: 0).voices == 2)
}

@Test func pitchBendFollowsTheDefaultModulatorAndRPN0() {
    func measured(_ messages: [ShortMessage]) -> Double {
        let synth = cosineFontSynth([makeZone([54: 1])])
        synth.handle(noteOn(69, velocity: 127))
        for m in messages { synth.handle(m) }
        let out = render(synth, frames: 24_000)
        return zeroCrossingFrequency(out.left[4_800...], sampleRate: rate)
    }
    let up = measured([bend(8191)])
    #expect(abs(up / (sampleHz * pow(2, 2.0 * 8191 / 8192 / 12)) - 1) < 0.003, "\(up) Hz")
    let down = measured([bend(-8192)])
    #expect(abs(down / (sampleHz * pow(2, -2.0 / 12)) - 1) < 0.003, "\(down) Hz")
    let octave = measured([cc(101, 0), cc(100, 0), cc(6, 12), cc(38, 0), bend(-8192)])
    #expect(abs(octave / (sampleHz / 2) - 1) < 0.003, "\(octave) Hz")
}

@Test func velocityVolumeAndExpressionSetTheLevelAsTheDefaultModulatorsSay() {
    func level(_ velocity: UInt8, _ messages: [ShortMessage] = []) -> Double {
        let synth = cosineFontSynth([makeZone([54: 1])])
        for m in messages { synth.handle(m) }
        synth.handle(noteOn(69, velocity: velocity))
        let out = render(synth, frames: 9_600).left
        return levels(out, at: [4_800])[0]
    }
    /// 960 cB x the concave curve of 1 - v/127, in dB.
    func concaveDecibels(_ v: Double) -> Double { 96 * (-(40.0 / 96) * log10(v / 127)) }
    let loud = level(127)
    // Amplitude 0.5 x gain 0.2 x centre pan cos(pi/4) x CC7 100: 0.0707 x 10^(-concave/20).
    let expected = 20 * log10(0.5 * 0.2 * cos(Double.pi / 4)) - concaveDecibels(100)
    #expect(abs(loud - expected) < 0.5, "velocity 127: \(loud) dB, expected \(expected)")
    #expect(abs((loud - level(64)) - concaveDecibels(64)) < 0.5, "velocity 64: \(level(64)) dB")
    #expect(abs((loud - level(127, [cc(11, 64)])) - concaveDecibels(64)) < 0.5)
    #expect(abs(level(127, [cc(7, 127)]) - 20 * log10(0.5 * 0.2 * cos(Double.pi / 4))) < 0.5)
}

@Test func panComesFromTheGeneratorAndCC10() {
    func sides(_ generators: [Int: Int32], _ messages: [ShortMessage]) -> (left: Double, right: Double) {
        let synth = cosineFontSynth([makeZone([54: 1].merging(generators) { $1 })])
        for m in messages { synth.handle(m) }
        synth.handle(noteOn(69, velocity: 127))
        let out = render(synth, frames: 9_600)
        return (rms(out.left[4_800...]), rms(out.right[4_800...]))
    }
    // CC10 at its default 64 adds (2 x 64/127 - 1) x the modulator's amount (500, as FluidSynth: +3.9) to the
    // pan: a hair right, as in FluidSynth; CC10 = 0 and 127 reach the ends (-500, +500).
    let hardLeft = sides([17: -500], [])
    #expect(hardLeft.right < hardLeft.left * 0.02)
    let ccRight = sides([:], [cc(10, 127)])
    #expect(ccRight.left < ccRight.right * 0.01)
    let centre = sides([:], [])
    #expect(abs(centre.left / centre.right - 1) < 0.03)
    // CC10 while the note sounds moves it from its next sample on.
    let synth = cosineFontSynth([makeZone([54: 1])])
    synth.handle(noteOn(69, velocity: 127))
    _ = render(synth, frames: 4_800)
    synth.handle(cc(10, 0))
    let moved = render(synth, frames: 4_800)
    #expect(rms(moved.right[480...]) < rms(moved.left[480...]) * 0.01)
}

@Test func stealingSampleVoicesNeverClicks() {
    let synth = cosineFontSynth([makeZone([54: 1, 38: 1200])], voices: 4)
    let (output, maximumVoices) = stealingWorkout(synth)
    #expect(maximumVoices <= 4)
    let largestJump = zip(output.dropFirst(), output).map { abs($0 - $1) }.max()!
    // Four cosines up to 441 Hz at about 0.0437 each (velocity 127, CC7 100, centre pan) move at most
    // 4 x 0.0437 x 2 pi 441 / 48000 = 0.01 per sample; a voice cut without a fade jumps by up to 0.0437.
    #expect(largestJump < 0.02, "largest step \(largestJump)")
}

@Test func programChangeAndPercussionChooseThePresets() {
    var data: [Int16] = []
    let sample = appendCosine(to: &data)
    let font = memoryFont(presets: [(0, 0, [makeZone([54: 1])]), (0, 5, [makeZone([54: 1, 51: 12])]),
                                    (128, 0, [makeZone([54: 1, 51: -12])])], samples: [sample], data: data)
    let synth = Synth(voices: 8, soundFont: font)
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    #expect(synth.preset(onChannel: 0) == 0)
    #expect(synth.preset(onChannel: 9) == 2)
    synth.handle(ShortMessage(status: 0xC0, data1: 5, data2: 0))
    #expect(synth.preset(onChannel: 0) == 1)
    synth.handle(noteOn(69, velocity: 127))
    let up = render(synth, frames: 24_000)
    #expect(abs(zeroCrossingFrequency(up.left[4_800...], sampleRate: rate) / (sampleHz * 2) - 1) < 0.005)
    // An unknown program falls back as FluidSynth does (to 0:0 here); the UI may choose a preset by index.
    synth.handle(ShortMessage(status: 0xC1, data1: 77, data2: 0))
    #expect(synth.preset(onChannel: 1) == 0)
    synth.requestPreset(2, onChannel: 1)
    _ = render(synth, frames: 16)
    #expect(synth.preset(onChannel: 1) == 2)
}

/// Built under the checker: a synth with a font handling MIDI and rendering is free of locks, allocation
/// and reference counting (a violation fails the build).
@_noLocks
func playSampleVoicesInRealTime(_ synth: Synth, _ left: UnsafeMutablePointer<Float>,
                                _ right: UnsafeMutablePointer<Float>, frames: Int) {
    synth.handle(ShortMessage(status: 0xC0, data1: 0, data2: 0))
    synth.handle(ShortMessage(status: 0x90, data1: 60, data2: 100))
    synth.handle(ShortMessage(status: 0xB0, data1: 7, data2: 90))
    synth.handle(ShortMessage(status: 0xE0, data1: 0, data2: 80))
    synth.render(left: left, right: right, frames: frames)
    synth.handle(ShortMessage(status: 0x80, data1: 60, data2: 0))
    synth.render(left: left, right: right, frames: frames)
}

@Test func sampleVoicesRenderUnderTheRealTimeChecker() {
    let synth = cosineFontSynth([makeZone([54: 1])])
    var left = [Float](repeating: 0, count: 256), right = left
    left.withUnsafeMutableBufferPointer { l in
        right.withUnsafeMutableBufferPointer { r in
            playSampleVoicesInRealTime(synth, l.baseAddress!, r.baseAddress!, frames: 256)
        }
    }
    #expect(left.contains { $0 != 0 })
}

/// A voice whose filter is wide open (initialFilterFc 13600 at velocity 127: the default velocity-to-cutoff
/// modulator takes 19 cents) sounds the same whichever voices share its lanes, so the call size does not
/// change it. Here a filtered voice beside it (velocity 100: 13075 cents) ends a millisecond after its
/// note-off at frame 1024; its lane is emptied at the end of the call it ended in (frame 1088 in 64-frame
/// calls, 1536 in 512-frame ones). Until then its release's last residue (under -150 dB) is all that may
/// differ; when four wide-open voices skipped the filter, the open voice (filtered while it shared its four
/// with the other) differed by -66 dB. Events on the 512-frame grid, so both renders' control blocks line up.
@Test func aWideOpenVoiceSoundsTheSameWhateverSharesItsLanes() {
    func played(block: Int) -> [Float] {
        let synth = cosineFontSynth([makeZone([SoundFontGenerator.initialFilterFc: 13_600])], maxFrames: 512)
        return render(synth, frames: 4_096, events: [(0, noteOn(69, velocity: 127)), (0, noteOn(76, velocity: 100)),
                                                     (1_024, noteOff(76))], block: block).left
    }
    let small = played(block: 64), large = played(block: 512)
    let largest = zip(small, large).map { abs($0 - $1) }.max()!
    #expect(largest < 1e-6, "64- and 512-frame calls differ by up to \(largest)")
    #expect(small[1_536...] == large[1_536...], "64- and 512-frame calls differ after both emptied the lane")
    #expect(peakOf(small[1_600...]) > 0.01, "the open voice sounds on")
}

/// A synth of `voices` slots playing four cosines (periods 100, 90, 80, 70 frames) on keys 60...63, each
/// looping over its first 100 frames from frame 0 (short: played from a loop copy).
private func shortLoopSynth(voices: Int) -> Synth {
    var data: [Int16] = []
    let samples = [100, 90, 80, 70].map { appendCosine(to: &data, period: $0, frames: 400, loop: 0..<100, root: 60) }
    let zones = (0..<4).map { (i: Int) -> SoundFontZone in
        let key = UInt8(60 + i)
        return makeZone(sample: Int32(i), keys: key...key, [SoundFontGenerator.sampleModes: 1])
    }
    let synth = Synth(voices: voices, soundFont: memoryFont(presets: [(0, 0, zones)], samples: samples, data: data))
    synth.prepare(sampleRate: 48_000, maxFrames: 256)
    return synth
}

/// The loops the synth's copies hold (layer, start, length), each once.
private func copiedLoops(_ synth: Synth) -> Set<SIMD4<Int32>> {
    Set((0..<synth.samples.slots.loops.copyCount).map { synth.samples.slots.loops.copyKeys[$0] }.filter { $0[2] != 0 })
}

@Test func voicesOfOneLoopShareOneCopy() {
    let synth = shortLoopSynth(voices: 16)
    for channel: UInt8 in 0...8 { synth.handle(noteOn(60, channel: channel)) }
    let out = render(synth, frames: 2_048).left
    #expect(synth.activeVoiceCount == 9)
    #expect(copiedLoops(synth).count == 1, "\(copiedLoops(synth))")
    #expect(peak(out[1_024...]) > 0.05)
}

/// With every copy played from in this slice or the last, a voice reaching its loop plays from the font's
/// data and takes a copy in a later slice; what it plays meanwhile differs only in the point before a
/// wrapped loop's start (the font's frame before the loop, where a copy's second pass has the loop's last).
@Test func aVoiceWithNoCopyFreePlaysFromTheFontUntilOneIs() {
    let synth = shortLoopSynth(voices: 2)
    // Every copy played from in the coming slice (as by as many voices of other loops, now ended).
    let coming = synth.samples.slots.loops.copyClock[0] &+ 1
    for c in 0..<synth.samples.slots.loops.copyCount { synth.samples.slots.loops.copyStamps[c] = coming }
    synth.handle(noteOn(62)); synth.handle(noteOn(63))
    // The slice they start in and the next, from the font's data: a copy is free again once it is two slices old.
    let first = render(synth, frames: 256).left
    #expect(copiedLoops(synth).isEmpty, "no copy was free")
    let rest = render(synth, frames: 1_024).left
    #expect(copiedLoops(synth).count == 2, "copies were taken two slices later")
    let fresh = shortLoopSynth(voices: 2)
    fresh.handle(noteOn(62)); fresh.handle(noteOn(63))
    let expected = render(fresh, frames: 1_280).left
    let played = first + rest
    // Two slices from the font (each voice wraps there once: frames 92, 275, 458 of the sum), then the same.
    let largest = zip(played, expected).map { abs($0 - $1) }.max()!
    #expect(largest < 0.002, "largest difference \(largest) (the peak is 0.059)")
    #expect(played[512...] == expected[512...])
}
