import DSP
import Testing
import TestSupport
@testable import SFZ

/// The translation of the opcodes that follow the note and the wheel (their sound is measured against sfizz in
/// CLITests' SFZAgainstSfizzTests+Tracking.swift): the modulators and rules they become, and what is said.
@Suite struct SFZNoteFollowingTests {
    /// The instrument `text` as a font and its notes.
    private func translate(_ text: String) throws -> SFZSoundFont {
        try writeInstrument(text, in: try temporaryFolder()).soundFont()
    }

    /// Zone `z`'s modulators.
    private func modulators(_ font: SoundFont, zone z: Int) -> [SoundFontModulator] {
        let zone = font.zones[z]
        return Array(font.modulators[Int(zone.modulatorStart)..<Int(zone.modulatorStart + zone.modulatorCount)])
    }

    @Test func anAsymmetricBendIsTwoModulatorsGatedByTheWheelsHalves() throws {
        let sfz = try translate("<region> sample=*sine bend_up=300 bend_down=-700\n<region> sample=*sine key=70 bend_up=100 bend_down=-100")
        let wheel = modulators(sfz.font, zone: 0).filter { $0.source == 0x020E }
        #expect(wheel.map(\.amount) == [300, 700])
        #expect(wheel.map(\.amountSource) == [0x0C0E, 0x0D0E])
        let symmetric = modulators(sfz.font, zone: 1).filter { $0.source == 0x020E }
        #expect(symmetric.map(\.amount) == [100])
        #expect(symmetric.map(\.amountSource) == [0], "a symmetric range needs no gate and does not follow RPN 0")
    }

    @Test func filterTrackingIsKeyAndVelocityModulatorsAroundTheCentre() throws {
        let sfz = try translate("<region> sample=*sine cutoff=1000 fil_keytrack=100 fil_keycenter=64 fil_veltrack=-600")
        let toCutoff = modulators(sfz.font, zone: 0).filter { $0.destination == UInt16(SoundFontGenerator.initialFilterFc) && $0.amount != 0 }
        #expect(toCutoff.map(\.source) == [3, 2])
        #expect(toCutoff.map(\.amount) == [12_700, -600])
        // 1000 Hz is 8321 absolute cents; the centre's 64 keys x 100 cents come off it.
        #expect(abs(Int(sfz.font.zones[0].generators[SoundFontGenerator.initialFilterFc]) - (8321 - 6400)) <= 1)
    }

    @Test func aVelocityCurveOfTooManyPointsKeepsItsShape() throws {
        // Points on the straight line from (0, 0) to (127, 1) but one: the curve keeps that one and the ends.
        let points = stride(from: 10, through: 110, by: 10).map { "amp_velcurve_\($0)=\(Double($0) / 127)" }.joined(separator: " ")
        let sfz = try translate("<region> sample=*sine \(points) amp_velcurve_64=0.9")
        let curve = sfz.font.zoneRules[0].level.velocityCurve
        #expect(Int(curve.count) == SampleZoneCurve.capacity)
        #expect(abs(curve.value(at: 64) - 0.9) < 1e-6)
        #expect(abs(curve.value(at: 30) - 30 / 127) < 0.01)
        #expect(curve.value(at: 0) == 0 && curve.value(at: 127) == 1)
        #expect(sfz.notes.contains { $0.hasPrefix("amp_velcurve_N with more than 10 points") })
        // The velocity modulator is off: the curve gives the level.
        #expect(modulators(sfz.font, zone: 0)[0].amount == 0)
    }

    @Test func envelopeVelocityAndStartGoToTheRule() throws {
        let sfz = try translate("<region> sample=*sine ampeg_vel2attack=0.3 ampeg_vel2sustain=-40 ampeg_start=20\n"
                                + "<region> sample=*sine key=70 ampeg_start=50 ampeg_delay=0.1")
        let envelope = sfz.font.zoneRules[0].envelope
        #expect(envelope.attack == 0.3 && envelope.sustain == -40 && abs(envelope.start - 0.2) < 1e-6)
        #expect(!sfz.notes.contains { $0.contains("vel2") })
        #expect(sfz.notes.contains { $0.hasPrefix("ampeg_start with a delay") })
    }
}
