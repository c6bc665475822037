// Issue 40, part 3: every General MIDI program has a built-in patch of its own family's character. Rendered
// from the synth, each program's note is told from every program of another family by its spectrum or its
// envelope, and from every other program of its own family at all.
import Foundation
import MIDI
import Testing
import TestSupport
@testable import DSP

private let familyRate = 48_000.0

@Suite struct BuiltInFamilyTests {
    typealias Portrait = (bands: [Double], envelope: [Double])

    /// Middle C at velocity 100 on `program`, held 1.2 s, 1.6 s in all, effects off: the band energies (dB below
    /// the loudest band) of 8192 samples from 0.1 s, and the loudness envelope (10 ms windows, dB, floor -60).
    static func portrait(program: UInt8) -> Portrait {
        let synth = Synth(voices: 8)
        synth.prepare(sampleRate: familyRate, maxFrames: 256)
        synth.setEffects(reverb: false, chorus: false)
        synth.handle(ShortMessage(status: 0xC0, data1: program))
        synth.handle(noteOn(60, velocity: 100))
        let held = render(synth, frames: Int(1.2 * familyRate)).left
        synth.handle(noteOn(60, velocity: 0))
        let x = held + render(synth, frames: Int(0.4 * familyRate)).left
        let from = Int(0.1 * familyRate)
        return (AudioComparison.bandEnergies(x[from...], rate: Int(familyRate), n: 8_192, bands: 24, low: 40, high: 16_000),
                AudioComparison.loudnessEnvelope(x, rate: Int(familyRate)))
    }

    /// The larger of the mean absolute differences of the band energies and of the envelopes, dB.
    static func distance(_ a: Portrait, _ b: Portrait) -> Double {
        func mean(_ x: [Double], _ y: [Double]) -> Double { zip(x, y).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(min(x.count, y.count)) }
        return max(mean(a.bands, b.bands), mean(a.envelope, b.envelope))
    }

    @Test func everyProgramSoundsOfItsFamilyAndUnlikeTheOthers() {
        let portraits = (0..<128).map { Self.portrait(program: UInt8($0)) }
        var closestAcross = (distance: Double.infinity, a: 0, b: 0), closestWithin = (distance: Double.infinity, a: 0, b: 0)
        for a in 0..<128 {
            for b in (a + 1)..<128 {
                let d = Self.distance(portraits[a], portraits[b])
                if a / 8 != b / 8 {
                    #expect(d >= 3, "\(GeneralMIDI.programName(UInt8(a))) and \(GeneralMIDI.programName(UInt8(b))), of two families, are only \(d) dB apart")
                    if d < closestAcross.distance { closestAcross = (d, a, b) }
                } else {
                    #expect(d >= 0.5, "\(GeneralMIDI.programName(UInt8(a))) and \(GeneralMIDI.programName(UInt8(b))) sound the same (\(d) dB)")
                    if d < closestWithin.distance { closestWithin = (d, a, b) }
                }
            }
        }
        print(String(format: "closest across families: %.1f dB (%d, %d); within a family: %.1f dB (%d, %d)",
                     closestAcross.distance, closestAcross.a, closestAcross.b, closestWithin.distance, closestWithin.a, closestWithin.b))
        // The measure can tell: the same program twice is identical.
        #expect(Self.distance(portraits[0], Self.portrait(program: 0)) == 0)
    }
}
