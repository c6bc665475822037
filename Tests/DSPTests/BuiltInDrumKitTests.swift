// Issue 20, section 4: the built-in synth plays a drum kit on drum parts, judged from the audio: a kick's
// energy is low and its pitch falls, snares, hats and cymbals are noise (flat spectra) that decay, toms are
// pitched in order, a closed hat cuts an open one, nothing on channel 10 is a steady tone; GM2/XG bank MSB
// 120/127 and GS Use For Rhythm Part make any channel a drum part, MSB 121 makes channel 10 melodic.
import Foundation
import MIDI
import Testing
import TestSupport
@testable import DSP

private let drumRate = 48_000.0

private func kitSynth() -> Synth {
    let synth = Synth(voices: 32)
    synth.prepare(sampleRate: drumRate, maxFrames: 256)
    return synth
}

/// One hit of `key` on `channel` (channel 10 by default), `seconds` of it.
private func hit(_ key: UInt8, channel: UInt8 = 9, seconds: Double = 1, synth: Synth = kitSynth()) -> [Float] {
    synth.handle(noteOn(key, velocity: 120, channel: channel))
    return render(synth, frames: Int(seconds * drumRate)).left
}

/// Spectral flatness (geometric over arithmetic mean of the power) of 4096 samples from `start`, between
/// `low` and `high` Hz: about 0.56 for white noise, less for filtered noise, near 0 for a tone.
func spectralFlatness(_ x: [Float], start: Int = 0, low: Double = 40, high: Double = 16_000) -> Double {
    let n = 4_096
    let magnitude = spectrum(x[start..<(start + n)], n: n)
    let bins = Int(low / drumRate * Double(n))...Int(high / drumRate * Double(n))
    let power = bins.map { magnitude[$0] * magnitude[$0] + 1e-30 }
    let geometric = exp(power.map { log($0) }.reduce(0, +) / Double(power.count))
    return geometric / (power.reduce(0, +) / Double(power.count))
}

/// RMS in dB of `x` over `seconds` from `from` seconds.
private func level(_ x: [Float], from: Double, seconds: Double = 0.05) -> Double {
    let a = Int(from * drumRate), b = min(Int((from + seconds) * drumRate), x.count)
    return decibels(rms(x[a..<b]))
}

@Suite struct BuiltInDrumKitTests {
    @Test func theKickIsLowAndFallsInPitch() {
        let kick = hit(36)
        let magnitude = spectrum(kick[0..<8_192][...], n: 8_192)
        let energy = magnitude.map { $0 * $0 }
        let below = energy[0...Int(200 / drumRate * 8_192)].reduce(0, +), all = energy.reduce(0, +)
        let early = zeroCrossingFrequency(kick[0..<1_440][...], sampleRate: drumRate)     // 0-30 ms
        let late = zeroCrossingFrequency(kick[4_800..<9_600][...], sampleRate: drumRate)  // 100-200 ms
        print(String(format: "kick: %.1f %% of the energy below 200 Hz; pitch %.0f Hz at 0-30 ms, %.0f Hz at 100-200 ms",
                     below / all * 100, early, late))
        #expect(below / all > 0.8, "energy below 200 Hz: \(below / all)")
        #expect(early > late * 1.3, "pitch falls: \(early) Hz then \(late) Hz")
        #expect(late > 30 && late < 80)
    }

    /// Snares, hats, cymbals, shakers: noise (flat from 40 Hz to 16 kHz, where a tone is near 0), decaying.
    @Test(arguments: [UInt8(38), 39, 40, 42, 44, 46, 49, 51, 52, 54, 55, 57, 69, 70])
    func noisyDrumsAreFlatAndDecay(_ key: UInt8) {
        let out = hit(key, seconds: 3)
        let flatness = spectralFlatness(out)
        print(String(format: "key %d: flatness %.4f; %.1f dB at 0 s, %.1f dB at 2.5 s",
                     Int(key), flatness, level(out, from: 0), level(out, from: 2.5)))
        #expect(flatness > 0.01, "key \(key): flatness \(flatness)")
        #expect(level(out, from: 2.5) < level(out, from: 0) - 40, "key \(key) decays")
    }

    /// What the flatness says of a tone: the built-in patch's key 38 on a melodic channel.
    @Test func aToneIsNotFlat() {
        let flatness = spectralFlatness(hit(38, channel: 0))
        print(String(format: "a tone (key 38, channel 1): flatness %.6f", flatness))
        #expect(flatness < 0.001)
    }

    @Test func tomsArePitchedInOrder() {
        let toms: [UInt8] = [41, 43, 45, 47, 48, 50]
        let pitches = toms.map { zeroCrossingFrequency(hit($0, seconds: 0.2)[2_400..<7_200][...], sampleRate: drumRate) }
        print("toms 41...50: " + pitches.map { String(format: "%.0f Hz", $0) }.joined(separator: ", "))
        for i in 1..<pitches.count { #expect(pitches[i] > pitches[i - 1] * 1.08, "\(pitches)") }
    }

    @Test func aClosedHatCutsAnOpenOne() {
        let open = hit(46)
        let synth = kitSynth()
        let cut = render(synth, frames: 48_000, events: [(0, noteOn(46, velocity: 120, channel: 9)),
                                                         (14_400, noteOn(42, velocity: 1, channel: 9))]).left
        // 0.4-0.5 s: the open hat alone rings, the cut one (and the quiet closed hat, 60 ms) are gone.
        let alone = level(open, from: 0.4, seconds: 0.1), cutShort = level(cut, from: 0.4, seconds: 0.1)
        print(String(format: "open hat at 0.4 s: %.1f dB alone, %.1f dB cut by a closed hat at 0.3 s", alone, cutShort))
        #expect(cutShort < alone - 40)
        #expect(alone > -65)
    }

    /// Every key of the kit sounds and dies away: none is a steady tone; keys outside 35...81 are silent.
    @Test func everyKeyOnChannel10DecaysAndOthersAreSilent() {
        for key in UInt8(27)...87 {
            let synth = kitSynth()
            let out = hit(key, seconds: 3, synth: synth)
            let start = level(out, from: 0, seconds: 0.1), end = level(out, from: 2.9, seconds: 0.1)
            #expect(start > -55, "key \(key) sounds: \(start) dB")
            #expect(end < start - 40, "key \(key) decays: \(start) dB, then \(end) dB")
            _ = render(synth, frames: 96_000)
            #expect(synth.activeVoiceCount == 0, "key \(key) ends")
        }
        for key: UInt8 in [26, 88, 100] { #expect(peak(hit(key)[...]) == 0, "key \(key)") }
        #expect(DrumSound.kit.count == 61)
    }

    @Test func bankAndRhythmPartMessagesChooseTheKit() {
        func isDrum(_ channel: UInt8, _ setup: (Synth) -> Void) -> Bool {
            let synth = kitSynth()
            setup(synth)
            return spectralFlatness(hit(38, channel: channel, synth: synth)) > 0.01
        }
        #expect(isDrum(9) { _ in })
        #expect(!isDrum(0) { _ in })
        #expect(isDrum(1) { $0.handle(cc(0, 127, channel: 1)) }, "XG drum kit bank")
        #expect(isDrum(2) { $0.handle(cc(0, 120, channel: 2)) }, "GM2 rhythm bank")
        #expect(!isDrum(9) { $0.handle(cc(0, 121, channel: 9)) }, "GM2 melodic bank on channel 10")
        let rhythm = UniversalSystemExclusive.gsRhythmPart(channel: 3, map: 1).bytes()
        var obeyed = false
        #expect(isDrum(3) { synth in obeyed = rhythm.withUnsafeBufferPointer { synth.handle(sysex: $0) } }, "GS Use For Rhythm Part")
        #expect(obeyed)
        let off = UniversalSystemExclusive.gsRhythmPart(channel: 9, map: 0).bytes()
        #expect(!isDrum(9) { synth in _ = off.withUnsafeBufferPointer { synth.handle(sysex: $0) } }, "channel 10 made a normal part")
    }

    /// Live periods and offline blocks split the same MIDI differently: the drums come out sample-identical.
    @Test func drumsAreTheSameInAnyBlockSize() {
        let events: [(frame: Int, message: ShortMessage)] = [(0, noteOn(36, channel: 9)), (100, noteOn(42, channel: 9)),
                                                             (5_000, noteOn(38, channel: 9)), (7_777, noteOn(46, channel: 9)),
                                                             (12_000, noteOn(44, channel: 9)), (13_000, noteOn(49, channel: 9))]
        let a = render(kitSynth(), frames: 24_000, events: events, block: 256)
        let b = render(kitSynth(), frames: 24_000, events: events, block: 37)
        #expect(a.left == b.left && a.right == b.right)
        #expect(peak(a.left[...]) > 0.05)
    }

    /// The kit sends by its channel's CC91 (and CC93), as the other voices do: a closed hat with CC91 at 0 is
    /// followed by exact silence once it has ended, with CC91 at 127 by a reverb tail; the same holds with the
    /// events split into any block size.
    @Test func drumsSendToTheReverbByCC91() {
        func tail(cc91: UInt8, block: Int = 256) -> [Float] {
            let events: [(frame: Int, message: ShortMessage)] = [
                (0, ShortMessage.controlChange(.reverbSend, value: cc91, channel: 9)), (0, noteOn(42, channel: 9)),
            ]
            return render(kitSynth(), frames: 48_000, events: events, block: block).left
        }
        let dry = tail(cc91: 0), wet = tail(cc91: 127)
        #expect(peak(dry[24_000...]) == 0, "no send: silence after the hat")
        // The reverb's return: what CC91 adds, against the hat's own first 50 ms.
        let reverb = zip(wet, dry).map { $0 - $1 }
        let hat = level(dry, from: 0), added = level(reverb, from: 0, seconds: 1), late = level(wet, from: 0.5, seconds: 0.3)
        print("hat \(hat) dB, reverb return \(added) dB over 1 s, \(late) dB at 0.5-0.8 s")
        #expect(added > hat - 40, "CC91 127: a reverb return, \(added) dB against the hat's \(hat) dB")
        #expect(late > -120 && late < added, "a decaying tail after the hat, \(late) dB")
        #expect(wet == tail(cc91: 127, block: 37))
    }
}
