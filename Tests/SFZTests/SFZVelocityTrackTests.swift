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

/// `ampeg_*_onccN`: the zone's rule holds each controller and the seconds (percent) it adds at its top.
@Suite struct SFZEnvelopeControllerTests {
    @Test func stagesOnOneControllerGoToTheRule() throws {
        let sfz = try writeInstrument("<region> sample=*sine ampeg_attack_oncc20=0.3 ampeg_sustain_oncc20=-40 ampeg_releasecc20=1.5",
                                      in: try temporaryFolder()).soundFont()
        let envelope = sfz.font.zoneRules[0].envelope
        #expect(envelope.controllers.count == 1)
        let (cc, shift) = (envelope.controllers.entry(0).controller, envelope.controllers.entry(0).shift)
        #expect(cc == 20)
        #expect(shift.attack == 0.3 && shift.sustain == -40 && shift.release == 1.5)
        #expect(shift.decay == 0 && envelope.attack == 0)
        #expect(!sfz.notes.contains { $0.contains("oncc") })
    }

    /// Several CCs on one region are each kept (summed at the note-on, as sfizz sums them), with `start`;
    /// past the rule's four, the lowest four, said.
    @Test func severalControllersAreKept() throws {
        let two = try writeInstrument("<region> sample=*sine ampeg_attack_oncc30=0.3 ampeg_decay_oncc21=1 ampeg_start_oncc22=40",
                                      in: try temporaryFolder()).soundFont()
        let controllers = two.font.zoneRules[0].envelope.controllers
        #expect(controllers.count == 3)
        #expect(controllers.entry(0).controller == 21 && controllers.entry(0).shift.decay == 1)
        #expect(controllers.entry(1).controller == 22 && controllers.entry(1).shift.start == 40)
        #expect(controllers.entry(2).controller == 30 && controllers.entry(2).shift.attack == 0.3)
        #expect(!two.notes.contains { $0.contains("oncc") })
        let five = try writeInstrument("<region> sample=*sine " + (20...24).map { "ampeg_attack_oncc\($0)=0.1" }.joined(separator: " "),
                                       in: try temporaryFolder()).soundFont()
        #expect(five.font.zoneRules[0].envelope.controllers.count == 4)
        #expect(five.notes.contains { $0.hasPrefix("ampeg_*_onccN on more than 4 CCs") })
    }

    /// The attack's length follows CC20 at the note-on: 0.5 s at 127 (0.01 + 0.49), a moment at 0; a CC moved
    /// during the note leaves it.
    @Test func theControllerAtTheNoteOnSetsTheAttack() throws {
        let sfz = try writeInstrument("<region> sample=*sine ampeg_attack=0.01 ampeg_attack_oncc20=0.49", in: try temporaryFolder()).soundFont()
        let font = sfz.font.pinning([0: sfz.channelPresetKeys[0]], played: 1)
        func level(cc: UInt8) -> (early: Double, late: Double) {
            let out = renderFont(font, seconds: 0.8, [(0, .controlChange(Controller(20), value: cc)), (480, .noteOn(69, velocity: 127)),
                                                       (2_400, .controlChange(Controller(20), value: 127 - cc))]).left
            return (AudioComparison.rms(out[5_280..<7_680]), AudioComparison.rms(out[33_600..<36_000]))
        }
        let fast = level(cc: 0), slow = level(cc: 127)
        // 0.1 to 0.15 s: full at CC 0; about a quarter of the way up at CC 127 (linear attack).
        #expect(abs(AudioComparison.decibels(fast.early / fast.late)) < 0.5, "\(fast)")
        let rise = slow.early / slow.late
        #expect(rise > 0.15 && rise < 0.4, "\(slow)")
    }
}
