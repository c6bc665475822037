import DSP
import Testing
import TestSupport
@testable import SFZ

/// The translation of the filter's and the modulation envelope's controller and velocity opcodes (their sound
/// is measured against sfizz in CLITests' SFZAgainstSfizzTests+FilterCC.swift and +EnvelopeShifts.swift).
@Suite struct SFZControllerModulationTests {
    private func translate(_ text: String) throws -> SFZSoundFont {
        try writeInstrument(text, in: try temporaryFolder()).soundFont()
    }

    /// Zone `z`'s modulators from CC `cc` (unipolar, linear: 0x80 | cc).
    private func fromController(_ font: SoundFont, zone z: Int, _ cc: UInt16) -> [SoundFontModulator] {
        let zone = font.zones[z]
        return font.modulators[Int(zone.modulatorStart)..<Int(zone.modulatorStart + zone.modulatorCount)].filter { $0.source == 0x80 | cc }
    }

    /// `cutoff_onccN` in cents to the cutoff, `resonance_onccN` in dB as centibels to the Q, the envelopes'
    /// `depth_onccN` to their depths; without a `cutoff` (no filter) the filter's are left out, as in sfizz.
    @Test func filterAndDepthControllersAreModulators() throws {
        let sfz = try translate("<region> sample=*sine cutoff=500 cutoff_oncc20=2400 resonance_cc21=12 fileg_depth=600 fileg_depth_oncc22=-300\n"
                                + "<region> sample=*sine key=70 cutoff_oncc20=2400 pitcheg_attack=0.5 pitcheg_depth_oncc23=1200")
        let cutoff = fromController(sfz.font, zone: 0, 20), resonance = fromController(sfz.font, zone: 0, 21)
        #expect(cutoff.map(\.destination) == [UInt16(SoundFontGenerator.initialFilterFc)] && cutoff.map(\.amount) == [2400])
        #expect(resonance.map(\.destination) == [UInt16(SoundFontGenerator.initialFilterQ)] && resonance.map(\.amount) == [120])
        let depth = fromController(sfz.font, zone: 0, 22)
        #expect(depth.map(\.destination) == [UInt16(SoundFontGenerator.modEnvToFilterFc)] && depth.map(\.amount) == [-300])
        #expect(fromController(sfz.font, zone: 1, 20).isEmpty)
        let pitch = fromController(sfz.font, zone: 1, 23)
        #expect(pitch.map(\.destination) == [UInt16(SoundFontGenerator.modEnvToPitch)] && pitch.map(\.amount) == [1200])
        // A depth moved only by a CC still shapes the modulation envelope.
        #expect(sfz.font.zones[1].generators[SoundFontGenerator.attackModEnv] == -1200)
    }

    /// fileg's `vel2*` and `*_onccN` go to the rule's modulation envelope shifts (fileg shaping it over pitcheg);
    /// pitcheg's when only it moves; none when neither moves anything.
    @Test func modulationEnvelopeShiftsGoToTheRule() throws {
        let sfz = try translate("<region> sample=*sine cutoff=500 fileg_depth=1200 fileg_vel2attack=0.5 fileg_vel2sustain=-20 "
                                + "fileg_decay_oncc30=0.4 fileg_sustain_oncc21=10 pitcheg_depth=100 pitcheg_vel2hold=1\n"
                                + "<region> sample=*sine key=70 pitcheg_depth=100 pitcheg_vel2release=0.3\n"
                                + "<region> sample=*sine key=72 pitcheg_vel2release=0.3")
        let filter = sfz.font.zoneRules[0].envelope
        #expect(filter.modulationVelocity.attack == 0.5 && filter.modulationVelocity.sustain == -20 && filter.modulationVelocity.hold == 0)
        #expect(filter.modulationControllers.count == 2)
        #expect(filter.modulationControllers.entry(0).controller == 21 && filter.modulationControllers.entry(0).shift.sustain == 10)
        #expect(filter.modulationControllers.entry(1).controller == 30 && filter.modulationControllers.entry(1).shift.decay == 0.4)
        #expect(sfz.font.zoneRules[1].envelope.modulationVelocity.release == 0.3)
        #expect(sfz.font.zoneRules[2].envelope.modulationVelocity == SampleZoneEnvelopeShift())
    }
}
