// The channel mixer's settings in a synth preset: written only when set, read back exactly, and a bad value
// named with its line and what is accepted.
import Settings
import Testing

@Suite struct PresetMixerTests {
    @Test func theMixerRoundTripsThroughAPresetFile() throws {
        var preset = SynthPreset(patch: 3)
        #expect(!preset.toml.contains("mixer_"))
        var volume = [Int](repeating: 0, count: 16), pan = volume
        volume[1] = -6; pan[2] = 16
        preset.mixer = PresetMixer(muted: [2, 10], soloed: [], volumeDB: volume, pan: pan)
        let text = preset.toml
        #expect(text.contains("mixer_mute = [2, 10]"))
        #expect(try SynthPreset.parse(text, file: "p.toml") == preset)
        // Without the keys the preset leaves the mixer alone.
        #expect(try SynthPreset.parse("patch = 3\n", file: "p.toml").mixer == nil)
    }

    @Test func aBadMixerValueIsNamedWithItsLine() {
        #expect(throws: ConfigFileError.self) { try SynthPreset.parse("patch = 0\nmixer_mute = [17]\n", file: "p.toml") }
        do {
            _ = try SynthPreset.parse("patch = 0\nmixer_pan = [1, 2]\n", file: "p.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.contains("16 pan offsets"), "\(error.message)")
        }
    }
}
