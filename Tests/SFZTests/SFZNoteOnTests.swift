import CSndFile
import DSP
import Foundation
import MIDI
import Testing
import TestSupport
@testable import SFZ

/// The opcodes on the note-on and control path played by the sample voices, without sfizz (which
/// SFZAgainstSfizzTests+Opcodes.swift compares them with): the zone's own gain above 0 dB, crossfades and key
/// tracking, held key switches, `trigger=first`/`legato`, `set_ccN`, `width`/`position`, `pan_onccN`.
@Suite struct SFZNoteOnTests {
    /// The instrument `text` pinned to channel 1.
    private func font(_ text: String) throws -> SoundFont {
        let sfz = try writeInstrument(text, in: try temporaryFolder()).soundFont()
        return sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1)
    }

    /// The level (dB, left channel) of `from..<to` seconds of `out`.
    private func level(_ out: [Float], _ from: Double, _ to: Double) -> Double {
        AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(out, from: from, to: to, rate: 48_000)))
    }

    /// `volume` +20 dB plays 30 dB above `volume=-10` (the gain generator this replaced stopped at +14.4 dB),
    /// and an SF2 zone's gain is 1. Velocity 32 keeps the louder note below full scale.
    @Test func zoneGainHasNoCeiling() throws {
        var levels: [Double] = []
        for volume in [-10, 20] {
            let out = renderFont(try font("<region> sample=*sine volume=\(volume)"), seconds: 0.4, [(0, .noteOn(69, velocity: 32))])
            levels.append(level(out.left, 0.1, 0.4))
        }
        #expect(abs(levels[1] - levels[0] - 30) < 0.1, "\(levels)")
        #expect(SoundFontZone().gain == 1)
    }

    /// A key crossfade in over 60...72 (power) and out over 72...78 (gain), and `amp_keytrack`: the level of
    /// each key against the key centre's, as sfizz computes them.
    @Test func crossfadesAndKeytrackSetTheNoteLevel() throws {
        func levels(_ text: String, keys: [UInt8], velocity: (UInt8) -> UInt8 = { _ in 127 }) throws -> [Double] {
            let f = try font(text)
            return keys.map { key in
                let out = renderFont(f, seconds: 0.3, [(0, .noteOn(key, velocity: velocity(key)))])
                return level(out.left, 0.1, 0.3)
            }
        }
        let keys: [UInt8] = [59, 63, 66, 72, 75, 79]
        let faded = try levels("<region> sample=*sine pitch_keytrack=0 xfin_lokey=60 xfin_hikey=72 xfout_lokey=72 xfout_hikey=78 xf_keycurve=gain", keys: keys)
        let flat = try levels("<region> sample=*sine pitch_keytrack=0", keys: [66])[0]
        // Gain curve: (66 - 60) / 12 = 0.5 is -6.02 dB; 63 is 0.25; 75 on the way out (78 - 75) / 6 = 0.5.
        let expected: [Double] = [-.infinity, 20 * log10(0.25), 20 * log10(0.5), 0, 20 * log10(0.5), -.infinity]
        for (i, key) in keys.enumerated() {
            if expected[i] == -.infinity {
                #expect(faded[i] < -100, "key \(key): \(faded[i]) dB")
            } else {
                #expect(abs(faded[i] - flat - expected[i]) < 0.2, "key \(key): \(faded[i] - flat) dB, expected \(expected[i])")
            }
        }
        let power = try levels("<region> sample=*sine pitch_keytrack=0 xfin_lokey=60 xfin_hikey=72", keys: [63])[0]
        #expect(abs(power - flat - 20 * log10(0.5)) < 0.2, "power curve at a quarter: \(power - flat) dB") // sqrt(0.25)
        let tracked = try levels("<region> sample=*sine pitch_keytrack=0 amp_keytrack=-1.5 amp_keycenter=66", keys: [62, 70])
        #expect(abs(tracked[0] - flat - 6) < 0.2 && abs(tracked[1] - flat + 6) < 0.2, "\(tracked.map { $0 - flat })")
        let velocity = try levels("<region> sample=*sine pitch_keytrack=0 amp_veltrack=0 xfin_lovel=20 xfin_hivel=100 xf_velcurve=gain",
                                  keys: [66, 67], velocity: { $0 == 66 ? 60 : 10 })
        #expect(abs(velocity[0] - flat - 20 * log10(0.5)) < 0.2 && velocity[1] < -100, "\(velocity.map { $0 - flat })")
    }

    /// Each note's pitch says which region played (the regions are `*sine` at different transpositions).
    private func pitch(_ out: [Float], _ from: Double, _ to: Double) -> Double {
        let part = AudioComparison.slice(out, from: from, to: to, rate: 48_000)
        if AudioComparison.rms(part) < 1e-4 { return 0 }
        return AudioComparison.strongestFrequency(part, rate: 48_000, low: 200, high: 1_800, resolution: 0.5).frequency
    }

    @Test func heldSwitchKeysChooseTheLayer() throws {
        let f = try font("""
            <global> sw_lokey=24 sw_hikey=25 ampeg_release=0.01
            <region> sw_down=24 lokey=60 hikey=80 sample=*sine
            <region> sw_up=24 lokey=60 hikey=80 sample=*sine transpose=12
            """)
        let out = renderFont(f, seconds: 1.2, [(0, .noteOn(69, velocity: 100)), (14_400, .noteOff(69)),
                                               (19_200, .noteOn(24, velocity: 100)), (24_000, .noteOn(69, velocity: 100)),
                                               (38_400, .noteOff(69)), (40_000, .noteOff(24)), (43_200, .noteOn(69, velocity: 100))])
        let heard = [pitch(out.left, 0.05, 0.3), pitch(out.left, 0.55, 0.8), pitch(out.left, 0.95, 1.2)]
        #expect(abs(cents(heard[0], 880)) < 5 && abs(cents(heard[1], 440)) < 5 && abs(cents(heard[2], 880)) < 5, "\(heard)")
    }

    @Test func firstAndLegatoTriggersFollowTheKeysHeld() throws {
        let f = try font("""
            <global> ampeg_release=0.01
            <region> trigger=first lokey=60 hikey=80 sample=*sine
            <region> trigger=legato lokey=60 hikey=80 sample=*sine transpose=7
            """)
        // 69 alone (first: 440 Hz); 62 held, then 69 on it (legato: 69 + 7, 659 Hz); 69 alone again.
        let out = renderFont(f, seconds: 1.3, [(0, .noteOn(69, velocity: 100)), (14_400, .noteOff(69)),
                                               (19_200, .noteOn(62, velocity: 100)), (28_800, .noteOn(69, velocity: 100)),
                                               (43_200, .noteOff(69)), (44_000, .noteOff(62)), (48_000, .noteOn(69, velocity: 100))])
        let first = pitch(out.left, 0.05, 0.3), last = pitch(out.left, 1.05, 1.3)
        let legato = AudioComparison.slice(out.left, from: 0.65, to: 0.9, rate: 48_000)
        #expect(abs(cents(first, 440)) < 5 && abs(cents(last, 440)) < 5, "\(first), \(last)")
        // Over the legato note: 62's own first region (293.7 Hz) and 69's legato region (659.3 Hz), no 440 Hz.
        let m659 = AudioComparison.magnitude(legato, at: 659.26, rate: 48_000), m440 = AudioComparison.magnitude(legato, at: 440, rate: 48_000)
        #expect(m659 > 0.01 && m440 < m659 / 100, "659 Hz \(m659), 440 Hz \(m440)")
    }

    /// `set_cc20=100` is the pinned channel's CC20 from the start (its CC range region plays) and again after a
    /// GM reset; `set_cc7=50` is the channel volume (-12 dB squared, as CC7's SF2 modulator reads it).
    @Test func setControllersStartThePinnedChannels() throws {
        let f = try font("""
            <control> set_cc20=100
            <global> ampeg_release=0.01
            <region> locc20=64 hicc20=127 sample=*sine
            <region> locc20=0 hicc20=63 sample=*sine transpose=12
            """)
        // CC20 moved to 0 (the other region), then a GM reset: set_cc20=100 again.
        let synth = Synth(voices: 8, soundFont: f)
        synth.setEffects(reverb: false, chorus: false)
        synth.prepare(sampleRate: 48_000, maxFrames: 64)
        var heard: [Double] = []
        for reset in [false, true] {
            synth.handle(.controlChange(Controller(20), value: 0))
            if reset { _ = [UInt8]([0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]).withUnsafeBufferPointer { synth.handle(sysex: $0) } }
            synth.handle(.noteOn(69, velocity: 100))
            var left = [Float](repeating: 0, count: 9_600), right = left
            for start in stride(from: 0, to: 9_600, by: 64) {
                left.withUnsafeMutableBufferPointer { l in
                    right.withUnsafeMutableBufferPointer { r in synth.render(left: l.baseAddress! + start, right: r.baseAddress! + start, frames: 64) }
                }
            }
            synth.handle(.noteOff(69))
            heard.append(pitch(left, 0.05, 0.2))
        }
        #expect(abs(cents(heard[0], 880)) < 5 && abs(cents(heard[1], 440)) < 5, "CC20 at 0, then after a GM reset: \(heard)")
        let out = renderFont(f, seconds: 0.3, [(0, .noteOn(69, velocity: 100))])
        #expect(abs(cents(pitch(out.left, 0.05, 0.3), 440)) < 5)
        let loud = try font("<region> sample=*sine"), quiet = try font("<control> set_cc7=50\n<region> sample=*sine")
        let a = level(renderFont(loud, seconds: 0.3, [(0, .noteOn(69, velocity: 127))]).left, 0.1, 0.3)
        let b = level(renderFont(quiet, seconds: 0.3, [(0, .noteOn(69, velocity: 127))]).left, 0.1, 0.3)
        // CC7 100 (the power-on value) against 50: 40 log10(50 / 100) = -12.0 dB.
        #expect(abs(b - a + 12.04) < 0.5, "set_cc7=50: \(b - a) dB")
    }

    /// A stereo pair's sides at `position` -/+ `width`; `pan_oncc10`-style modulation moves a mono region.
    @Test func widthPositionAndPanOnController() throws {
        let folder = try temporaryFolder()
        let left = sine(frames: 48000, hertz: 220, rate: 48000), right = sine(frames: 48000, hertz: 660, rate: 48000)
        try writeSoundFile(folder + "/pair.wav", format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 2, rate: 48000,
                           samples: zip(left, right).flatMap { [$0, $1] })
        func sides(_ opcodes: String) throws -> (left220: Double, right220: Double) {
            let sfz = try writeInstrument("<region> sample=pair.wav key=60 \(opcodes)", in: folder).soundFont()
            let out = renderFont(sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1), seconds: 0.4, [(0, .noteOn(60, velocity: 127))])
            return (AudioComparison.magnitude(out.left[4800..<14400], at: 220, rate: 48_000),
                    AudioComparison.magnitude(out.right[4800..<14400], at: 220, rate: 48_000))
        }
        let full = try sides(""), mono = try sides("width=0"), swapped = try sides("width=-100")
        #expect(full.right220 < full.left220 / 100, "width 100: the left side stays left")
        #expect(abs(AudioComparison.decibels(mono.left220 / mono.right220)) < 0.2, "width 0: the left side in both")
        #expect(swapped.left220 < swapped.right220 / 100, "width -100: the sides swap")
        let pan = try font("<region> sample=*sine pan_oncc20=-100")
        let out = renderFont(pan, seconds: 0.4, [(0, .controlChange(Controller(20), value: 127)), (0, .noteOn(69, velocity: 127))])
        #expect(AudioComparison.rms(out.right[4800...]) < AudioComparison.rms(out.left[4800...]) / 100, "pan_oncc20=-100 at 127: hard left")
    }
}

extension SFZNoteOnTests {
    /// `trigger=release` waits for the sustain pedal (its note-off at 0.2 s, the pedal up at 0.5 s);
    /// `trigger=release_key` does not.
    @Test func releaseWaitsForThePedalReleaseKeyDoesNot() throws {
        for (trigger, onset) in [("release", 24_000), ("release_key", 9_600)] {
            let f = try font("<region> key=69 sample=*silence\n<region> key=69 trigger=\(trigger) sample=*sine")
            let out = renderFont(f, seconds: 0.8, [(0, .controlChange(.sustain, value: 127)), (0, .noteOn(69, velocity: 100)),
                                                   (9_600, .noteOff(69)), (24_000, .controlChange(.sustain, value: 0))])
            let first = out.left.firstIndex { abs($0) > 1e-4 } ?? -1
            #expect(first >= onset && first < onset + 64, "\(trigger): first sound at frame \(first), expected \(onset)")
        }
    }
}

extension SFZNoteOnTests {
    /// `rt_decay=6`: the release region of a note held 1 s starts 6 dB below that of a note held 0 s.
    @Test func releaseDecayFollowsTheTimeHeld() throws {
        let f = try font("<region> key=69 sample=*silence\n<region> key=69 trigger=release rt_decay=6 sample=*sine")
        var levels: [Double] = []
        for held in [0, 48_000] {
            let out = renderFont(f, seconds: Double(held) / 48_000 + 0.3, [(0, .noteOn(69, velocity: 100)), (max(held, 1), .noteOff(69))])
            levels.append(level(out.left, Double(held) / 48_000 + 0.05, Double(held) / 48_000 + 0.25))
        }
        #expect(abs(levels[0] - levels[1] - 6) < 0.1, "\(levels)")
    }
}
