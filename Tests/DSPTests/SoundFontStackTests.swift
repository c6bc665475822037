// Stacked fonts (SoundFontStack.swift): presets looked up from the top font down, each voice reading the
// sample data of the font its zone came from, GS-style fallback said once per channel. The fonts are built in
// memory (InMemoryFont.swift): cosines whose period tells which font's sample played.
import Foundation
import Testing
@testable import DSP
import MIDI

/// A font whose presets (bank, program) each play one looped cosine of `period` frames (44.1 kHz, root key
/// 69: 44100 / period Hz at A4). `lead` zero frames come first, so its sample points differ from another
/// font's: a voice reading the wrong font's data reads other frames, or past its end.
private func cosineFont(_ presets: [(bank: UInt16, program: UInt8)], period: Int, lead: Int) -> SoundFont {
    var data = [Int16](repeating: 0, count: lead)
    let sample = appendCosine(to: &data, period: period, frames: 4_000, loop: 1_000..<(1_000 + 20 * period))
    return memoryFont(presets: presets.map { ($0.bank, $0.program, [makeZone([54: 1])]) }, samples: [sample], data: data)
}

private func programChange(_ program: UInt8, channel: UInt8 = 0) -> ShortMessage {
    ShortMessage(status: 0xC0 | channel, data1: program, data2: 0)
}

/// The strongest of `candidates` (Hz) in the left channel's steady part, by the energy of a Goertzel filter.
private func strongest(_ x: ArraySlice<Float>, among candidates: [Double]) -> Double {
    func power(_ f: Double) -> Double {
        let w = 2 * Double.pi * f / rate, coefficient = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for v in x { let s = Double(v) + coefficient * s1 - s2; s2 = s1; s1 = s }
        return s1 * s1 + s2 * s2 - coefficient * s1 * s2
    }
    return candidates.max { power($0) < power($1) }!
}

/// Bottom: 441 Hz, presets 0:0, 0:1 and the standard kit 128:0. Top: 882 Hz, presets 0:1 and 128:16.
private func twoFontStack() -> (stack: SoundFont, bottom: SoundFont, top: SoundFont) {
    let bottom = cosineFont([(0, 0), (0, 1), (128, 0)], period: 100, lead: 0)
    let top = cosineFont([(0, 1), (128, 16)], period: 50, lead: 9_000)
    return (SoundFont.stacked([bottom, top]), bottom, top)
}

private func stackSynth(_ stack: SoundFont) -> Synth {
    let synth = Synth(voices: 16, soundFont: stack)
    synth.prepare(sampleRate: rate, maxFrames: 256)
    return synth
}

/// What channel `channel` plays at A4 after `setup`: the frequency of the strongest cosine (441, 882 Hz at
/// 48 kHz playback of a 44.1 kHz sample: the same, resampled) and the level.
private func played(_ stack: SoundFont, channel: UInt8 = 0, _ setup: [ShortMessage]) -> (hz: Double, level: Double, synth: Synth) {
    let synth = stackSynth(stack)
    for message in setup { synth.handle(message) }
    synth.handle(noteOn(69, velocity: 127, channel: channel))
    let out = render(synth, frames: 24_000).left
    let steady = out[9_600..<24_000]
    return (strongest(steady, among: [441, 882]), rms(steady), synth)
}

@Suite struct SoundFontStackTests {
    @Test func theUnionOfPresetsKeepsTheTopFontsOfTwoWithTheSameNumbers() {
        let (stack, bottom, top) = twoFontStack()
        #expect(stack.layers.count == 2 && stack.layers[0] === bottom && stack.layers[1] === top)
        #expect(stack.presets.map { "\($0.bank):\($0.program)" } == ["0:0", "0:1", "128:0", "128:16"])
        #expect(stack.presetLayers == [0, 1, 0, 1], "0:1 from the top font, shadowing the bottom one's")
        #expect(stack.source(ofPreset: 1) === top && stack.source(ofPreset: 0) === bottom)
        #expect(stack.samples.count == 2 && stack.sampleLayers.map(Array.init) == [0, 1])
        let listing = stack.stackListing()
        #expect(listing[0].presets.map(\.shadowedBy) == [nil, 1, nil], "the bottom's 0:1 is shadowed by layer 1")
        #expect(listing[1].presets.allSatisfy { $0.shadowedBy == nil })
        // One font is itself; a stack of stacks is flattened.
        #expect(SoundFont.stacked([bottom]) === bottom)
        #expect(SoundFont.stacked([stack, bottom]).layers.count == 3)
    }

    @Test func aPresetIsLookedUpFromTheTopFontDownAndPlaysItsOwnFontsSamples() {
        let (stack, _, _) = twoFontStack()
        // 0:1 is in both: the top font's (882 Hz), read from the top font's data at its own sample points.
        let shadowing = played(stack, [programChange(1)])
        #expect(shadowing.hz == 882 && shadowing.level > 0.01, "0:1 played \(shadowing.hz) Hz at \(shadowing.level)")
        // 0:0 only in the bottom font: found below the top one, its samples from the bottom font's data.
        let below = played(stack, [programChange(0)])
        #expect(below.hz == 441 && below.level > 0.01, "0:0 played \(below.hz) Hz at \(below.level)")
        // The pitch itself: the zero crossings of the top font's cosine (882 Hz at 44.1 kHz, played at A4).
        let synth = stackSynth(stack)
        synth.handle(programChange(1))
        synth.handle(noteOn(69, velocity: 127))
        let f = zeroCrossingFrequency(render(synth, frames: 24_000).left[9_600...], sampleRate: rate)
        #expect(abs(1200 * log2(f / 882)) < 5, "\(f) Hz, 882 expected")
        for ch in 0..<16 { #expect(synth.takePresetSubstitution(channel: ch) == nil, "exact presets: nothing to say") }
    }

    @Test func voicesOfBothFontsSoundTogether() {
        let (stack, _, _) = twoFontStack()
        let synth = stackSynth(stack)
        synth.handle(programChange(0, channel: 0))
        synth.handle(programChange(1, channel: 1))
        synth.handle(noteOn(69, velocity: 127, channel: 0))
        synth.handle(noteOn(69, velocity: 127, channel: 1))
        let both = render(synth, frames: 24_000).left[9_600..<24_000]
        let alone0 = played(stack, channel: 0, [programChange(0)]), alone1 = played(stack, channel: 1, [programChange(1, channel: 1)])
        // The sum of the two alone (each font's voice from its own data): within a hundredth of the level.
        #expect(abs(rms(both) - sqrt(alone0.level * alone0.level + alone1.level * alone1.level)) < 0.01 * rms(both),
                "together \(rms(both)), alone \(alone0.level) and \(alone1.level)")
    }

    @Test func aBankNoFontHasFallsBackToBankZeroAndIsSaidOncePerChannel() {
        let (stack, _, _) = twoFontStack()
        // Bank 8 program 1: no font has bank 8; GS falls back to 0:1 (the top font's).
        let result = played(stack, [cc(0, 8), programChange(1)])
        #expect(result.hz == 882 && result.level > 0.01)
        let synth = result.synth
        let said = synth.takePresetSubstitution(channel: 0)
        #expect(said == PresetSubstitution(channel: 0, bank: 8, program: 1, preset: 1))
        #expect(said?.message(stack).contains("channel 1: no font of the stack has bank 8 program 1; playing 000:001") == true,
                "\(said?.message(stack) ?? "nothing")")
        // Once per channel: the next note, and another substitution on the same channel, say nothing more.
        synth.handle(noteOff(69))
        synth.handle(cc(0, 9))
        synth.handle(programChange(0))
        synth.handle(noteOn(60))
        _ = render(synth, frames: 512)
        #expect(synth.takePresetSubstitution(channel: 0) == nil)
        // Another channel has its own.
        synth.handle(cc(0, 3, channel: 2))
        synth.handle(programChange(0, channel: 2))
        #expect(synth.takePresetSubstitution(channel: 2) == nil, "said at the channel's first note, not before")
        synth.handle(noteOn(60, channel: 2))
        #expect(synth.takePresetSubstitutions() == [PresetSubstitution(channel: 2, bank: 3, program: 0, preset: 0)])
    }

    @Test func oneFontSaysItHasNoSuchPresetNotThatItHasIt() {
        // One font, no stack: the GS fallback from bank 1 program 123 to 0:123 says the font lacks 1:123.
        let font = cosineFont([(0, 123)], period: 100, lead: 0)
        let result = played(font, [cc(0, 1), programChange(123)])
        #expect(result.hz == 441 && result.level > 0.01)
        let said = result.synth.takePresetSubstitution(channel: 0)
        #expect(said == PresetSubstitution(channel: 0, bank: 1, program: 123, preset: 0))
        let text = said?.message(font) ?? ""
        #expect(text.hasPrefix("channel 1: the font has no bank 1 program 123; playing 000:123 "), "\(text)")
        #expect(text.hasSuffix(" instead"), "\(text)")
    }

    @Test func aDrumKitMissingInTheTopFontComesFromTheOneBelowAndAMissingKitFallsToTheStandardKit() {
        let (stack, _, _) = twoFontStack()
        // Channel 10, program 0: the standard kit, only in the bottom font: found there, no substitution.
        let standard = played(stack, channel: 9, [programChange(0, channel: 9)])
        #expect(standard.hz == 441 && standard.level > 0.01)
        #expect(standard.synth.preset(onChannel: 9) == 2)
        #expect(standard.synth.takePresetSubstitution(channel: 9) == nil)
        // Program 16: the top font's kit.
        let power = played(stack, channel: 9, [programChange(16, channel: 9)])
        #expect(power.hz == 882 && power.synth.takePresetSubstitution(channel: 9) == nil)
        // Program 40: no font has kit 128:40: the standard kit 128:0, said.
        let missing = played(stack, channel: 9, [programChange(40, channel: 9)])
        #expect(missing.hz == 441 && missing.level > 0.01)
        let said = missing.synth.takePresetSubstitution(channel: 9)
        #expect(said == PresetSubstitution(channel: 9, bank: 128, program: 40, preset: 2))
        #expect(said?.message(stack).contains("drum kit 128:40") == true)
    }

    @Test func aChannelWithNothingToPlayIsSaidToBeSilent() {
        // A drums-only font: a melodic channel finds no preset at all (FluidSynth's fallbacks end at 0:0).
        let drums = cosineFont([(128, 0)], period: 100, lead: 0)
        let other = cosineFont([(128, 8)], period: 50, lead: 100)
        let stack = SoundFont.stacked([drums, other])
        let result = played(stack, [programChange(5)])
        #expect(result.level == 0)
        let said = result.synth.takePresetSubstitution(channel: 0)
        #expect(said == PresetSubstitution(channel: 0, bank: 0, program: 5, preset: nil))
        #expect(said?.message(stack).contains("silent") == true)
    }
}
