// Channel pressure to vibrato (SoundFont 2.01's default modulator: 50 cents at full) in both synths, and
// polyphonic key pressure per note where a font's modulator names it, and in the built-in synth to its key's
// vibrato; heard in the rendered audio.
import Foundation
import MIDI
import Testing
@testable import DSP

private func cents(_ f: Double, _ reference: Double) -> Double { 1200 * log2(f / reference) }

private func pressure(_ value: UInt8, channel: UInt8 = 0) -> ShortMessage {
    ShortMessage(status: 0xD0 | channel, data1: value, data2: 0)
}

private func keyPressure(_ key: UInt8, _ value: UInt8, channel: UInt8 = 0) -> ShortMessage {
    ShortMessage(status: 0xA0 | channel, data1: key, data2: value)
}

@Suite struct PressureTests {
    /// The highest pitch, in cents above the note, of a second of key 69 under `messages`.
    func swing(_ kind: TunedSynth, _ messages: [ShortMessage]) -> Double {
        let synth = kind.make()
        synth.handle(noteOn(69))
        for m in messages { synth.handle(m) }
        let out = render(synth, frames: 48_000)
        let periods = periodFrequencies(out.left[9_600...], sampleRate: 48_000)
        return cents(periods.max()!, kind.frequency(69))
    }

    @Test(arguments: TunedSynth.allCases)
    func channelPressureDeepensTheVibratoBy50CentsAtFull(_ kind: TunedSynth) {
        let full = swing(kind, [pressure(127)]), half = swing(kind, [pressure(64)]), none = swing(kind, [pressure(0)])
        #expect(abs(full - 50) < 8, "\(kind): full pressure peaks at \(full) cents")
        #expect(abs(half - 25) < 6, "\(kind): half pressure peaks at \(half) cents")
        #expect(abs(none) < 2, "\(kind): no pressure, \(none) cents")
        // With the wheel: the two add (the built-in synth as the default modulators do).
        let both = swing(kind, [pressure(127), cc(1, 127)])
        #expect(abs(both - 100) < 12, "\(kind): wheel and pressure peak at \(both) cents")
        // Reset All Controllers (RP-015) takes the pressure back to 0.
        let reset = swing(kind, [pressure(127), cc(121, 0)])
        #expect(abs(reset) < 2, "\(kind): after reset all controllers, \(reset) cents")
    }

    @Test func polyphonicKeyPressureActsOnItsOwnKeyWhereAModulatorNamesIt() {
        // Key pressure (source 10, unipolar linear) to initial attenuation, 200 cB (20 dB) at full.
        let modulator = SoundFontModulator(source: 0x000A, destination: 48, amount: 200, amountSource: 0, transform: 0)
        var data: [Int16] = []
        let sample = appendCosine(to: &data)
        let font = memoryFont(presets: [(0, 0, [makeZone([SoundFontGenerator.sampleModes: 1])])], samples: [sample],
                              data: data, modulators: defaultModulators + [modulator])
        let synth = Synth(voices: 16, soundFont: font)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        synth.handle(noteOn(69))
        let before = rms(render(synth, frames: 9_600).left[4_800...])
        synth.handle(keyPressure(70, 127)) // another key: nothing changes
        let other = rms(render(synth, frames: 9_600).left[4_800...])
        synth.handle(keyPressure(69, 127))
        let pressed = rms(render(synth, frames: 9_600).left[4_800...])
        #expect(abs(decibels(other / before)) < 0.1)
        #expect(abs(decibels(pressed / before) + 20) < 0.5, "\(decibels(pressed / before)) dB")
    }

    /// The built-in synth has no modulators: key pressure deepens its key's vibrato, as channel pressure the
    /// channel's (50 cents at full), and leaves the level alone.
    @Test func builtInKeyPressureDeepensItsOwnKeysVibrato() {
        let full = swing(.builtIn, [keyPressure(69, 127)]), half = swing(.builtIn, [keyPressure(69, 64)])
        let other = swing(.builtIn, [keyPressure(70, 127)])
        #expect(abs(full - 50) < 8, "full key pressure peaks at \(full) cents")
        #expect(abs(half - 25) < 6, "half key pressure peaks at \(half) cents")
        #expect(abs(other) < 2, "another key's pressure: \(other) cents")
        // Added to the channel's: channel pressure and key pressure at full, a semitone.
        let both = swing(.builtIn, [keyPressure(69, 127), pressure(127)])
        #expect(abs(both - 100) < 12, "key and channel pressure peak at \(both) cents")
        let reset = swing(.builtIn, [keyPressure(69, 127), cc(121, 0)])
        #expect(abs(reset) < 2, "after reset all controllers, \(reset) cents")

        let synth = steadySynth()
        synth.handle(noteOn(69))
        let a = rms(render(synth, frames: 9_600).left[4_800...])
        synth.handle(keyPressure(69, 127))
        let b = rms(render(synth, frames: 9_600).left[4_800...])
        #expect(abs(decibels(b / a)) < 0.1, "level: \(decibels(b / a)) dB")
    }

    /// Two keys held on one channel, one pressed: the other's pitch stays put. The pressed voice alone, rendered
    /// apart, is taken away from the two; what is left is the other voice.
    @Test func builtInKeyPressureLeavesTheChannelsOtherKeysAlone() {
        func held(_ notes: [UInt8]) -> [Float] {
            let synth = steadySynth()
            for n in notes { synth.handle(noteOn(n)) }
            synth.handle(keyPressure(69, 127))
            return render(synth, frames: 48_000).left
        }
        let both = held([57, 69]), pressed = held([69])
        let rest = zip(both, pressed).map { $0 - $1 }
        let periods = periodFrequencies(rest[9_600...], sampleRate: 48_000)
        let swing = cents(periods.max()!, TunedSynth.builtIn.frequency(57))
        #expect(abs(swing) < 2, "the unpressed key's pitch moves by \(swing) cents")
        let pressedSwing = cents(periodFrequencies(pressed[9_600...], sampleRate: 48_000).max()!, TunedSynth.builtIn.frequency(69))
        #expect(abs(pressedSwing - 50) < 8, "the pressed key peaks at \(pressedSwing) cents")
    }
}
