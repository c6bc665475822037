import DSP
import Foundation
import MIDI
import Testing
import TestSupport
@testable import SFZ

/// `amp_veltrack` below 0 without `amp_velcurve_N`: louder at low velocity, sfizz's squared velocity inverted.
@Suite struct SFZVelocityTrackTests {
    @Test func negativeTrackingIsTheRulesSquaredVelocity() throws {
        let sfz = try writeInstrument("<region> sample=*sine amp_veltrack=-50", in: try temporaryFolder()).soundFont()
        let level = sfz.font.zoneRules[0].level
        #expect(level.squaredVelocity && level.velocityTrack == -0.5 && level.velocityCurve.count == 0)
        // The velocity modulator plays nothing: the rule gives the level.
        let zone = sfz.font.zones[0]
        let first = sfz.font.modulators[Int(zone.modulatorStart)]
        #expect(first.destination == UInt16(SoundFontGenerator.initialAttenuation) && first.amount == 0)
        let positive = try writeInstrument("<region> sample=*sine amp_veltrack=50", in: try temporaryFolder()).soundFont()
        #expect(positive.font.zoneRules.isEmpty, "tracking from 0 up stays the SF2 modulator")
    }

    /// The level at velocities 20, 64 and 127 follows sfizz's |track| x (1 - (velocity / 127)^2).
    @Test func lowVelocitiesAreLouder() throws {
        let sfz = try writeInstrument("<region> sample=*sine amp_veltrack=-100", in: try temporaryFolder()).soundFont()
        let font = sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1)
        let velocities: [UInt8] = [20, 64, 127]
        var events: [(Int, ShortMessage)] = []
        for (i, v) in velocities.enumerated() {
            events.append((i * 24_000, .noteOn(69, velocity: v)))
            events.append((i * 24_000 + 18_000, .noteOff(69)))
        }
        let out = renderFont(font, seconds: 1.5, events).left
        let levels = velocities.indices.map { AudioComparison.rms(out[($0 * 24_000 + 4_800)..<($0 * 24_000 + 16_800)]) }
        let expected = velocities.map { 1 - pow(Double($0) / 127, 2) }
        #expect(abs(AudioComparison.decibels(levels[1] / levels[0]) - AudioComparison.decibels(expected[1] / expected[0])) < 0.1, "\(levels)")
        #expect(levels[2] < levels[0] * 1e-3, "velocity 127 is silent at -100: \(levels)")
    }
}
