// The GM2 sound controllers on SoundFont voices (Synth+SoundFontModulators.swift, `SoundControllers`):
// CC74 brightness moves the filter cutoff, CC71 its resonance, CC73/CC75/CC72 the volume envelope's
// attack, decay and release; 64 changes nothing. Checked from the rendered audio of the in-memory cosine font
// (a 441 Hz tone recorded at key 69).
import Foundation
import Testing
@testable import DSP
import MIDI

/// Level in dB of the 10 ms (480 frames) starting at `start`.
private func level(_ x: [Float], at start: Int) -> Double { decibels(rms(x[start..<(start + 480)]) * sqrt(2)) }

@Suite struct SoundControllerTests {
    /// Key 105 plays the tone three octaves up (3528 Hz), where a darker cutoff is heard.
    @Test func brightnessLowersTheCutoffOfSoundingNotesAndCentreChangesNothing() {
        let plain = cosineFontSynth([makeZone([54: 1])])
        plain.handle(noteOn(105, velocity: 127))
        let open = level(render(plain, frames: 9_600).left, at: 4_800)

        let centred = cosineFontSynth([makeZone([54: 1])])
        centred.handle(cc(74, 64))
        centred.handle(noteOn(105, velocity: 127))
        #expect(abs(level(render(centred, frames: 9_600).left, at: 4_800) - open) < 0.01, "CC74 = 64 is no change")

        let dark = cosineFontSynth([makeZone([54: 1])])
        dark.handle(noteOn(105, velocity: 127))
        _ = render(dark, frames: 4_800)
        dark.handle(cc(74, 0)) // while the note sounds: cutoff 5 octaves down, to 625 Hz
        let after = level(render(dark, frames: 9_600).left, at: 4_800)
        #expect(open - after > 20, "3528 Hz through a 625 Hz low-pass: \(open) -> \(after) dB")
        // Back to the centre: the level returns.
        dark.handle(cc(74, 64))
        let back = level(render(dark, frames: 9_600).left, at: 4_800)
        #expect(abs(back - open) < 0.5, "\(back) vs \(open) dB")
    }

    @Test func resonanceRaisesThePeakAtTheCutoff() {
        // Cutoff at the tone (441 Hz = 6000 + 1200 log2(441 / 8.176) cents): the resonance peak lifts it.
        let fc = Int32((1200 * log2(441 / 8.176)).rounded())
        func played(_ resonance: UInt8) -> Double {
            let synth = cosineFontSynth([makeZone([54: 1, 8: fc])])
            synth.handle(cc(71, resonance))
            synth.handle(noteOn(69, velocity: 127))
            return level(render(synth, frames: 9_600).left, at: 4_800)
        }
        let flat = played(64), resonant = played(127)
        #expect(resonant - flat > 10, "CC71 127 at the cutoff: \(flat) -> \(resonant) dB")
    }

    @Test func attackDecayAndReleaseScaleTheEnvelopeTimes() {
        // Attack 100 ms, decay 1 s per 96 dB to 19.2 dB down, release 1 s per 96 dB.
        let attack = Int32((1200 * log2(0.1)).rounded())
        let zone = makeZone([54: 1, 34: attack, 36: 0, 37: 200, 38: 0])
        func note(_ controller: UInt8, _ value: UInt8) -> Synth {
            let synth = cosineFontSynth([zone])
            synth.handle(cc(controller, value))
            synth.handle(noteOn(69, velocity: 127))
            return synth
        }
        // 10 ms in: a tenth of the way up at CC73 64 (-20 dB), at the top with CC73 0 (1.6 ms attack).
        let slow = level(render(note(73, 64), frames: 4_800).left, at: 480)
        let fast = level(render(note(73, 0), frames: 4_800).left, at: 480)
        #expect(fast - slow > 12, "attack: \(slow) dB at CC73 64, \(fast) dB at 0")
        // CC73 127: 60 times longer (6 s), so 200 ms in it is still far below the centred note.
        let longer = render(note(73, 127), frames: 24_000).left, centred = render(note(73, 64), frames: 24_000).left
        #expect(level(longer, at: 9_600) < level(centred, at: 9_600) - 15)

        // Decay at CC75 0: 16 times faster, at the sustain 40 ms after the top instead of 200 ms.
        let decayed = render(note(75, 0), frames: 24_000).left, normal = render(note(75, 64), frames: 24_000).left
        #expect(level(normal, at: 4_800 + 2_400) - level(decayed, at: 4_800 + 2_400) > 6)

        // Release at CC72 0: 16 times faster, the voice is gone 100 ms after the note-off.
        for (value, ended) in [(UInt8(0), true), (64, false)] {
            let synth = note(72, value)
            _ = render(synth, frames: 24_000)
            synth.handle(noteOff(69))
            _ = render(synth, frames: 4_800)
            #expect((synth.activeVoiceCount == 0) == ended, "CC72 \(value): \(synth.activeVoiceCount) voices 100 ms after note-off")
        }
    }

    @Test func aZoneMappingTheControllerItselfReplacesBackbeatsMapping() {
        #expect(SoundControllers.bit(source: 0x80 | 74, destination: 8) == 1)
        #expect(SoundControllers.bit(source: 0x0280 | 72, destination: 38) == 16)
        #expect(SoundControllers.bit(source: 74, destination: 8) == 0, "a general controller index, not CC74")
        #expect(SoundControllers.bit(source: 0x80 | 74, destination: 9) == 0)
    }
}
