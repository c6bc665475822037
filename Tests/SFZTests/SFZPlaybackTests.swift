import CSndFile
import DSP
import Foundation
import MIDI
import Testing
import TestSupport
@testable import SFZ

/// An instrument written into a fresh folder: `text` as `test.sfz`, beside the samples the test wrote there.
func writeInstrument(_ text: String, in folder: String) throws -> SFZInstrument {
    let path = folder + "/test.sfz"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return try SFZInstrument.load(path: path)
}

/// Renders `events` (frame, message) through a synth playing `font` at 48 kHz for `seconds`: left, right.
func renderFont(_ font: SoundFont, seconds: Double, _ events: [(Int, ShortMessage)]) -> (left: [Float], right: [Float]) {
    let synth = Synth(voices: 32, soundFont: font)
    synth.setEffects(reverb: false, chorus: false)
    synth.prepare(sampleRate: 48_000, maxFrames: 64)
    let total = Int(seconds * 48_000)
    var left = [Float](repeating: 0, count: total), right = [Float](repeating: 0, count: total)
    var frame = 0, next = 0
    let sorted = events.sorted { $0.0 < $1.0 }
    while frame < total {
        while next < sorted.count && sorted[next].0 <= frame { synth.handle(sorted[next].1); next += 1 }
        let n = min(64, total - frame, (next < sorted.count ? sorted[next].0 : total) - frame)
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in synth.render(left: l.baseAddress! + frame, right: r.baseAddress! + frame, frames: max(n, 1)) }
        }
        frame += max(n, 1)
    }
    return (left, right)
}

func cents(_ measured: Double, _ expected: Double) -> Double { 1200 * log2(measured / expected) }

@Suite struct SFZPlaybackTests {
    @Test func monoSampleKeysPitchAndRange() throws {
        let folder = try temporaryFolder()
        try writeSoundFile(folder + "/a440.wav", format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, rate: 44100,
                           samples: sine(frames: 44100, hertz: 440, rate: 44100))
        let sfz = try writeInstrument("<region> sample=a440.wav lokey=60 hikey=80 pitch_keycenter=a4", in: folder).soundFont()
        #expect(sfz.channelPresetKeys.allSatisfy { $0 == sfz.channelPresetKeys[0] })
        let font = sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1)
        // Key 69 is the sample's pitch, 72 three semitones up (the 44.1 kHz file resampled to 48 kHz).
        for (key, hertz) in [(69, 440.0), (72, 523.251)] {
            let out = renderFont(font, seconds: 0.5, [(0, .noteOn(UInt8(key), velocity: 127))])
            let found = AudioComparison.strongestFrequency(out.left[4800..<19200], rate: 48_000, low: hertz * 0.9, high: hertz * 1.1)
            #expect(abs(cents(found.frequency, hertz)) < 5, "key \(key): \(found.frequency) Hz")
        }
        // Key 81 is outside lokey/hikey: nothing sounds.
        let silent = renderFont(font, seconds: 0.2, [(0, .noteOn(81, velocity: 127))])
        #expect(AudioComparison.rms(silent.left[...]) == 0)
    }

    @Test func stereo24BitFileIsALeftRightPair() throws {
        let folder = try temporaryFolder()
        let left = sine(frames: 48000, hertz: 220, rate: 48000), right = sine(frames: 48000, hertz: 660, rate: 48000)
        try writeSoundFile(folder + "/pair.flac", format: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24), channels: 2, rate: 48000,
                           samples: zip(left, right).flatMap { [$0, $1] })
        let sfz = try writeInstrument("<region> sample=pair.flac key=60", in: folder).soundFont()
        #expect(sfz.font.samples.count == 2 && sfz.font.zones.count == 2)
        #expect(sfz.font.sampleLowBytes != nil)
        let out = renderFont(sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1), seconds: 0.4, [(0, .noteOn(60, velocity: 127))])
        let l = out.left[4800..<14400], r = out.right[4800..<14400]
        #expect(AudioComparison.magnitude(l, at: 220, rate: 48_000) > 20 * AudioComparison.magnitude(l, at: 660, rate: 48_000))
        #expect(AudioComparison.magnitude(r, at: 660, rate: 48_000) > 20 * AudioComparison.magnitude(r, at: 220, rate: 48_000))
    }

    @Test func generatedSineFollowsTheKeyAndLoops() throws {
        let folder = try temporaryFolder()
        let sfz = try writeInstrument("<region> sample=*sine ampeg_release=0.05", in: folder).soundFont()
        let font = sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1)
        let out = renderFont(font, seconds: 2, [(0, .noteOn(57, velocity: 127)), (72_000, .noteOff(57))])
        let found = AudioComparison.strongestFrequency(out.left[48_000..<72_000], rate: 48_000, low: 200, high: 240)
        #expect(abs(cents(found.frequency, 220)) < 5)
        // Still sounding at 1.4 s (the one-cycle wave loops), gone 0.4 s after the note-off (a 50 ms release).
        #expect(AudioComparison.rms(out.left[60_000..<72_000]) > 0.05)
        #expect(AudioComparison.rms(out.left[91_200..<96_000]) < 1e-3)
    }

    @Test func loopFromTheSmplChunkAndNoLoop() throws {
        let folder = try temporaryFolder()
        try writeSoundFile(folder + "/tone.wav", format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), channels: 1, rate: 48000,
                           samples: sine(frames: 4800, hertz: 500, rate: 48000), loop: (960, 4799))
        for (opcodes, sounds) in [("", true), ("loop_mode=no_loop", false)] {
            let sfz = try writeInstrument("<region> sample=tone.wav key=60 \(opcodes)", in: folder).soundFont()
            let out = renderFont(sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1), seconds: 1, [(0, .noteOn(60, velocity: 127))])
            // The sample is 0.1 s long: at 0.5 s only its loop can be playing, as loud as the start.
            let start = AudioComparison.rms(out.left[480..<4800]), level = AudioComparison.rms(out.left[24_000..<28_800])
            #expect(start > 0.01)
            #expect(sounds ? abs(AudioComparison.decibels(level / start)) < 0.5 : level == 0, "\(opcodes): \(level) against \(start)")
        }
    }

    @Test func channelRangesMakePresetsAndPinsIgnorePrograms() throws {
        let folder = try temporaryFolder()
        let sfz = try writeInstrument("""
            <region> sample=*sine lochan=1 hichan=1
            <region> sample=*saw lochan=2 hichan=16 volume=-6
            """, in: folder).soundFont()
        #expect(sfz.channelPresetKeys[0] != sfz.channelPresetKeys[1])
        #expect(Set(sfz.channelPresetKeys[1...]).count == 1)
        // Channel 2 pinned: a program change does not move it; channel 1 keeps the built-in synth.
        let font = sfz.font.pinning([1: sfz.channelPresetKeys[1]], played: 1 << 1)
        let synth = Synth(voices: 8, soundFont: font)
        #expect(synth.preset(onChannel: 1) == font.pinnedPreset(channel: 1))
        synth.handle(.programChange(40, channel: 1))
        #expect(synth.preset(onChannel: 1) == font.pinnedPreset(channel: 1))
        let out = renderFont(font, seconds: 0.3, [(0, .programChange(40, channel: 1)), (0, .noteOn(69, velocity: 127, channel: 1))])
        let saw = AudioComparison.slice(out.left, from: 0.1, to: 0.3, rate: 48_000)
        // A saw has its second harmonic at half the fundamental (a sine has none).
        let ratio = AudioComparison.magnitude(saw, at: 880, rate: 48_000) / AudioComparison.magnitude(saw, at: 440, rate: 48_000)
        #expect(ratio > 0.4 && ratio < 0.6, "second harmonic ratio \(ratio)")
    }

    @Test func missingSampleNamesItsLine() throws {
        let folder = try temporaryFolder()
        let loaded = try writeInstrument("<group> lokey=1\n\n<region> sample=gone.wav\n", in: folder)
        #expect(throws: SFZPlayError.self) { try loaded.soundFont() }
        do {
            _ = try loaded.soundFont()
        } catch {
            #expect(error.description.hasSuffix("test.sfz:3: sample '\(folder)/gone.wav' is missing"), "\(error.description)")
        }
        let empty = try writeInstrument("<group> key=60", in: folder)
        #expect(throws: SFZPlayError.self) { try empty.soundFont() }
    }

    @Test func opcodesBecomeGenerators() throws {
        let folder = try temporaryFolder()
        let sfz = try writeInstrument("""
            <region> sample=*sine lokey=40 hikey=50 lovel=10 hivel=90 pitch_keycenter=45 transpose=2 tune=-30
              volume=-6 pan=-50 ampeg_attack=0.5 ampeg_decay=1 ampeg_sustain=50 ampeg_release=2 cutoff=1000 resonance=6
              pitch_keytrack=50 loop_mode=loop_sustain amp_veltrack=50
            """, in: folder).soundFont()
        let zone = sfz.font.zones[0]
        typealias G = SoundFontGenerator
        #expect((zone.keyLow, zone.keyHigh, zone.velocityLow, zone.velocityHigh) == (40, 50, 10, 90))
        #expect(zone.generators[G.overridingRootKey] == 45)
        #expect(zone.generators[G.coarseTune] * 100 + zone.generators[G.fineTune] == 170)
        #expect(zone.generators[G.scaleTuning] == 50)
        #expect(zone.generators[G.initialAttenuation] == 150) // 6 dB = 60 cB, read at 0.4
        #expect(zone.generators[G.pan] == -250)
        #expect(zone.generators[G.attackVolEnv] == -1200 && zone.generators[G.decayVolEnv] == 0 && zone.generators[G.releaseVolEnv] == 1200)
        #expect(zone.generators[G.sustainVolEnv] == 60)
        // 6 dB of resonance and the 3.01 dB by which sfizz's Q (1 at 0 dB) is above SF2's flat response.
        #expect(zone.generators[G.initialFilterFc] == 8321 && zone.generators[G.initialFilterQ] == 90)
        #expect(zone.filterShape == .lowPass)
        #expect(zone.generators[G.sampleModes] == 3)
        #expect(sfz.font.modulators[Int(zone.modulatorStart)].amount == 480)
        #expect(sfz.font.modulators[Int(zone.modulatorStart) + 1].amount == 0)
    }

    /// Each `fil_type` the voices play becomes its filter shape; one they do not leaves the zone unfiltered
    /// (low-pass, wide open), and no cutoff means no filter whatever the type.
    @Test func filterTypesBecomeShapes() throws {
        let folder = try temporaryFolder()
        let types: [(String, SampleFilterShape)] = [("lpf_1p", .lowPassOnePole), ("lpf_2p", .lowPass), ("lpf_4p", .lowPass),
                                                    ("hpf_1p", .highPassOnePole), ("hpf_2p", .highPass), ("hpf_6p", .highPass),
                                                    ("bpf_2p", .bandPass), ("brf_2p", .bandReject), ("apf_1p", .lowPass)]
        let regions = types.map { "<region> sample=*sine cutoff=500 fil_type=\($0.0)" } + ["<region> sample=*sine fil_type=hpf_2p"]
        let sfz = try writeInstrument(regions.joined(separator: "\n"), in: folder).soundFont()
        for (i, (type, shape)) in types.enumerated() {
            #expect(sfz.font.zones[i].filterShape == shape, "\(type)")
        }
        #expect(sfz.font.zones[types.count - 1].generators[SoundFontGenerator.initialFilterFc] == 13500) // apf_1p: no filter
        #expect(sfz.font.zones[types.count].filterShape == .lowPass)
        #expect(sfz.font.zones[types.count].generators[SoundFontGenerator.initialFilterFc] == 13500)
    }
}
