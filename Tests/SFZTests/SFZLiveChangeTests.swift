import DSP
import Foundation
import MIDI
import Testing
import TestSupport
@testable import SFZ

/// A live change of instrument (`Synth.changeFont`, the preset browser's `.sfz` list): the other channels play
/// on sample for sample as a synth without the change plays them, the old instrument's notes end (or, where
/// another channel keeps it, play on), and the channel's next note plays the new instrument.
@Suite struct SFZLiveChangeTests {
    static let rate = 48_000

    /// An instrument of one `*sine` region at `hertz` for every key (pitch_keytrack=0), its presets from `bank`.
    private func instrument(hertz: Double, bank: Int = SFZInstrument.firstBank) throws -> SFZSoundFont {
        // *sine plays its key centre (60) at 261.63 Hz: tune moves it to `hertz`.
        let cents = Int((1200 * log2(hertz / 261.6256)).rounded())
        return try writeInstrument("<region> sample=*sine pitch_keytrack=0 tune=\(cents) ampeg_release=0.05", in: try temporaryFolder())
            .soundFont(bank: bank)
    }

    /// A synth at 48 kHz, effects off, rendering in 64-frame calls into one recording.
    private final class Player {
        let synth: Synth
        var left: [Float] = []
        init(_ font: SoundFont?) {
            synth = Synth(voices: 32, soundFont: font, liveChanges: true)
            synth.setEffects(reverb: false, chorus: false)
            synth.prepare(sampleRate: Double(SFZLiveChangeTests.rate), maxFrames: 64)
        }
        func play(seconds: Double) {
            var l = [Float](repeating: 0, count: 64), r = [Float](repeating: 0, count: 64)
            for _ in 0..<Int(seconds * Double(SFZLiveChangeTests.rate) / 64) {
                synth.render(left: &l, right: &r, frames: 64)
                left += l
            }
        }
        /// Renders until the change is in (at most a second), then finishes it.
        func apply(_ change: FontChange) -> Int {
            var calls = 0
            var l = [Float](repeating: 0, count: 64), r = [Float](repeating: 0, count: 64)
            while !change.isApplied && calls < 750 {
                synth.render(left: &l, right: &r, frames: 64)
                left += l
                calls += 1
            }
            synth.finishFontChange(change)
            return calls
        }
    }

    private func pitch(_ x: [Float], from: Double, to: Double) -> Double {
        AudioAnalysis.dominantFrequency(AudioComparison.slice(x, from: from, to: to, rate: Self.rate), sampleRate: Self.rate, low: 100, high: 2000)
    }

    private func level(_ x: [Float], from: Double, to: Double) -> Double {
        AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(x, from: from, to: to, rate: Self.rate)))
    }

    /// No SoundFont: channel 1 plays an instrument (330 Hz), channel 2 the built-in synth. Channel 1 changes to
    /// a 660 Hz instrument while both hold a note: channel 1's old note ends within a few ms, channel 2's plays
    /// on exactly as without the change, and channel 1's next note is 660 Hz. The old instrument is left hollow.
    @Test func aChannelChangesInstrumentWhileAnotherPlaysOn() throws {
        let first = try instrument(hertz: 330)
        let start = SoundFont.stacked([first.font], always: true).pinning([0: first.channelPresetKeys[0]], played: 1)
        let live = Player(start), reference = Player(start)
        for p in [live, reference] {
            p.synth.handle(.noteOn(60, velocity: 100, channel: 0))
            p.synth.handle(.noteOn(57, velocity: 100, channel: 1))
            p.play(seconds: 0.5)
        }
        let second = try instrument(hertz: 660, bank: start.nextInstrumentBank(from: SFZInstrument.firstBank))
        let made = try #require(SoundFont.changingInstrument(of: live.synth.soundFont, to: second.font, keys: second.channelPresetKeys, channel: 0))
        #expect(made.ending == [0], "the first instrument is let go: \(made.ending)")
        let change = try #require(live.synth.changeFont(to: made.font, channel: 0, ending: made.ending))
        let calls = live.apply(change)
        #expect(change.isApplied && calls <= 5, "applied after \(calls) calls")
        #expect(live.synth.soundFont === made.font && made.font.stack[0].isHollow && !made.font.stack[1].isHollow)
        reference.synth.handle(.noteOff(60, channel: 0)) // the reference's channel 1 note ends too, slowly
        reference.play(seconds: Double(calls * 64) / Double(Self.rate))
        live.play(seconds: 0.5)
        reference.play(seconds: 0.5)
        live.synth.handle(.noteOn(64, velocity: 100, channel: 0))
        live.play(seconds: 0.5)
        reference.play(seconds: 0.5)

        // Channel 2 alone in the reference, once its channel 1 note has released (0.05 s): the live render
        // minus it is channel 1 alone.
        let changedAt = 0.5, quiet = 0.5 + Double(calls * 64) / Double(Self.rate) + 0.2
        #expect(live.left.count == reference.left.count)
        let residual = zip(live.left, reference.left).map { $0 - $1 }
        let before = residual.prefix(Int(changedAt * Double(Self.rate))).map(abs).max() ?? 1
        #expect(before == 0, "both synths play alike before the change: \(before)")
        let after = level(residual, from: quiet, to: quiet + 0.25)
        print("live change: applied after \(calls) calls; residual before the change \(before), after it \(String(format: "%.1f", after)) dB; "
              + "channel 2 \(String(format: "%.1f", pitch(reference.left, from: quiet, to: quiet + 0.25))) Hz")
        #expect(after < -100, "after the change only channel 2 sounds, as in the reference: \(after) dB")
        let newNote = pitch(residual, from: 1.1 + Double(calls * 64) / Double(Self.rate), to: 1.4)
        #expect(abs(1200 * log2(newNote / 660)) < 10, "channel 1's next note: \(newNote) Hz")
    }

    /// An instrument on every channel: channel 1 changes instrument, the others keep the first, whose notes
    /// play on (none ends, nothing is hollowed); the synth started without a font gets its slots at the change.
    @Test func anInstrumentOtherChannelsKeepPlaysOn() throws {
        let none = Player(nil)
        none.synth.handle(.noteOn(57, velocity: 100, channel: 1)) // the built-in synth
        none.play(seconds: 0.2)
        let first = try instrument(hertz: 330)
        let made = try #require(SoundFont.changingInstrument(of: none.synth.soundFont, to: first.font, keys: first.channelPresetKeys, channel: nil))
        #expect(made.ending.isEmpty)
        let change = try #require(none.synth.changeFont(to: made.font, channel: nil, ending: made.ending))
        #expect(none.synth.changeFont(to: made.font, channel: nil, ending: []) == nil, "one change at a time")
        _ = none.apply(change)
        none.synth.handle(.noteOn(60, velocity: 100, channel: 2))
        none.play(seconds: 0.3)
        let heard = pitch(none.left, from: 0.3, to: 0.5)
        #expect(heard > 300 && heard < 360, "the instrument plays channel 3 after the change: \(heard) Hz")

        let second = try instrument(hertz: 660, bank: made.font.nextInstrumentBank(from: SFZInstrument.firstBank))
        let again = try #require(SoundFont.changingInstrument(of: none.synth.soundFont, to: second.font, keys: second.channelPresetKeys, channel: 0))
        #expect(again.ending.isEmpty, "channels 2-16 keep the first instrument: \(again.ending)")
        let held = none.left.count
        let next = try #require(none.synth.changeFont(to: again.font, channel: 0, ending: again.ending))
        _ = none.apply(next)
        none.play(seconds: 0.3)
        // Channel 3's note plays on through the change: no gap in its level.
        let tail = Array(none.left[(held - 4800)...])
        let levels = stride(from: 0, to: tail.count - 480, by: 480).map { level(tail, from: Double($0) / Double(Self.rate), to: Double($0 + 480) / Double(Self.rate)) }
        print("live change: channel 3's note through a change of channel 1, 10 ms levels \(levels.map { String(format: "%.2f", $0) })")
        #expect((levels.max() ?? 0) - (levels.min() ?? -200) < 1, "channel 3's note through the change, 10 ms levels: \(levels)")
        #expect(!again.font.stack.contains { $0.isHollow })
    }
}
