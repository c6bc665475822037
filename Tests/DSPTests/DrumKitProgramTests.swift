// Issue 40, part 3: the built-in kits a drum part chooses by program (DrumKits.swift), each heard as its own:
// the same keys played on each kit differ from every other kit's in spectrum or in envelope, measured from
// the audio; a program selects its kit (or the one below it in its group of eight) for the next notes; a
// GM reset returns to Standard; the orchestra's timpani sound at their keys' pitches.
import Foundation
import MIDI
import Testing
import TestSupport
@testable import DSP

private let kitRate = 48_000.0

@Suite struct DrumKitProgramTests {
    /// The keys each kit is heard on: kicks, snares, toms, hats, cymbals, a few others.
    static let keys: [UInt8] = [35, 36, 37, 38, 39, 40, 41, 42, 45, 46, 49, 51, 56, 58, 67, 75, 79]

    /// `key` hit once on channel 10 after program change `program`: 0.5 s.
    static func hit(_ key: UInt8, program: UInt8) -> [Float] {
        let synth = Synth(voices: 8)
        synth.prepare(sampleRate: kitRate, maxFrames: 256)
        synth.setEffects(reverb: false, chorus: false)
        synth.handle(ShortMessage(status: 0xC9, data1: program, data2: 0))
        synth.handle(noteOn(key, velocity: 110, channel: 9))
        return render(synth, frames: Int(0.5 * kitRate)).left
    }

    /// Per key: the band energies (dB below the loudest band) of its first 8192 samples and its loudness
    /// envelope (10 ms windows, dB, floor -60); nil for a silent key.
    static func portrait(program: UInt8) -> [(bands: [Double], envelope: [Double])?] {
        keys.map { key in
            let x = hit(key, program: program)
            guard x.contains(where: { $0 != 0 }) else { return nil }
            return (AudioComparison.bandEnergies(x[...], rate: Int(kitRate), n: 8_192, bands: 24, low: 40, high: 16_000),
                    AudioComparison.loudnessEnvelope(x, rate: Int(kitRate)))
        }
    }

    /// How far apart two kits sound: the largest, over the keys, of the mean absolute difference of the band
    /// energies or of the envelopes (dB); a key silent in one kit and sounding in the other counts 60.
    static func distance(_ a: [(bands: [Double], envelope: [Double])?], _ b: [(bands: [Double], envelope: [Double])?]) -> Double {
        func mean(_ x: [Double], _ y: [Double]) -> Double { zip(x, y).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(min(x.count, y.count)) }
        return zip(a, b).map { pair -> Double in
            switch pair {
            case (nil, nil): 0
            case (nil, _), (_, nil): 60
            case let (x?, y?): max(mean(x.bands, y.bands), mean(x.envelope, y.envelope))
            }
        }.max() ?? 0
    }

    @Test func everyKitSoundsUnlikeEveryOther() {
        let kits = DrumKit.kits
        #expect(kits.map(\.program) == [0, 8, 16, 24, 25, 32, 40, 48, 56])
        let portraits = kits.map { Self.portrait(program: UInt8($0.program)) }
        for i in kits.indices {
            for j in kits.indices where j > i {
                let d = Self.distance(portraits[i], portraits[j])
                #expect(d >= 6, "\(kits[i].name) and \(kits[j].name) are only \(d) dB apart")
            }
        }
        // The measure can tell: the same kit twice is identical, and Standard's variation 1 is Standard.
        #expect(Self.distance(portraits[0], Self.portrait(program: 1)) == 0)
    }

    @Test(arguments: [(0, "Standard"), (1, "Standard"), (7, "Standard"), (8, "Room"), (15, "Room"), (16, "Power"),
                      (24, "Electronic"), (25, "TR-808"), (31, "TR-808"), (32, "Jazz"), (40, "Brush"), (48, "Orchestra"),
                      (55, "Orchestra"), (56, "SFX"), (63, "SFX"), (64, "Standard"), (127, "Standard")])
    func aProgramChoosesItsKitOrTheOneBelowInItsGroup(_ program: Int, _ name: String) {
        #expect(DrumKit.kits[DrumKit.index(program: program)].name == name)
    }

    @Test func theTR808KickIsALongLowSine() {
        let standard = Self.hit(36, program: 0), tr808 = Self.hit(36, program: 25)
        let late = Int(0.3 * kitRate)..<Int(0.4 * kitRate)
        #expect(decibels(rms(tr808[late])) > decibels(rms(standard[late])) + 10, "the 808 kick rings on")
        let f = AudioAnalysis.dominantFrequency(tr808[late], sampleRate: Int(kitRate), low: 30, high: 120)
        #expect(abs(f - 48) < 3, "\(f) Hz")
    }

    @Test(arguments: [UInt8(41), 47, 53])
    func theOrchestraTimpaniSoundAtTheirKeysPitches(_ key: UInt8) {
        let x = Self.hit(key, program: 48)
        let expected = 440 * pow(2, (Double(key) - 69) / 12)
        let f = AudioAnalysis.dominantFrequency(x[Int(0.1 * kitRate)..<Int(0.4 * kitRate)], sampleRate: Int(kitRate),
                                                low: expected * 0.8, high: expected * 1.2)
        #expect(abs(f / expected - 1) < 0.01, "key \(key): \(f) Hz, \(expected) Hz expected")
    }

    @Test func aProgramChangeChangesTheNextNotesAndAGMResetReturnsToStandard() {
        let synth = Synth(voices: 8)
        synth.prepare(sampleRate: kitRate, maxFrames: 256)
        synth.setEffects(reverb: false, chorus: false)
        // The snare (38): its sound per kit (the noise differs from note to note, its spectrum and envelope not).
        func snare() -> [(bands: [Double], envelope: [Double])?] {
            synth.handle(noteOn(38, velocity: 110, channel: 9))
            let x = render(synth, frames: Int(0.5 * kitRate)).left
            _ = render(synth, frames: Int(2 * kitRate)) // its ring ends
            return [(AudioComparison.bandEnergies(x[...], rate: Int(kitRate), n: 8_192, bands: 24, low: 40, high: 16_000),
                     AudioComparison.loudnessEnvelope(x, rate: Int(kitRate)))]
        }
        let before = snare()
        synth.handle(ShortMessage(status: 0xC9, data1: 40, data2: 0)) // Brush: a brush tap
        let after = snare()
        let gmOn: [UInt8] = [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
        _ = gmOn.withUnsafeBufferPointer { synth.handle(sysex: $0) }
        let reset = snare()
        #expect(Self.distance(before, after) >= 6, "the brush kit after program 40")
        #expect(Self.distance(before, reset) < 2, "after GM System On the standard snare again: \(Self.distance(before, reset)) dB")
    }
}
