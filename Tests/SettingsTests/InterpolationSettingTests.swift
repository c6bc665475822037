// Issue 40: the sample voices' interpolation as the config's [engine] key and as a preset's key.
import DSP
@testable import Settings
import Testing

@Suite struct InterpolationSettingTests {
    @Test func theConfigKeyIsReadAndABadValueNamesTheLine() throws {
        #expect(try Config.parse("[engine]\ninterpolation = \"sinc\"\n", file: "c.toml").engine.interpolation == .sinc)
        #expect(try Config.parse("[engine]\ninterpolation = \"Cubic\"\n", file: "c.toml").engine.interpolation == .cubic)
        #expect(try Config.parse("[engine]\n", file: "c.toml").engine.interpolation == nil)
        do {
            _ = try Config.parse("[engine]\nvoices = 64\ninterpolation = \"linear\"\n", file: "c.toml")
            Issue.record("a bad interpolation was accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains("c.toml") && text.contains("3") && text.contains("cubic, sinc"), "\(text)")
        }
    }

    @Test func aPresetKeepsItsInterpolationAndLeavesItAsItIsWithoutOne() throws {
        var preset = SynthPreset(patch: 0)
        #expect(preset.interpolation == nil)
        #expect(!preset.toml.contains("interpolation"))
        preset.interpolation = .sinc
        let back = try SynthPreset.parse(preset.toml, file: "p.toml")
        #expect(back.interpolation == .sinc)
        #expect(back == preset)
        do {
            _ = try SynthPreset.parse("patch = 0\ninterpolation = 7\n", file: "p.toml")
            Issue.record("a bad interpolation was accepted")
        } catch {
            #expect("\(error)".contains("p.toml") && "\(error)".contains("interpolation"), "\(error)")
        }
        // Applied to a synth, it sets the synth's.
        let synth = Synth(voices: 1)
        back.apply(to: synth)
        #expect(synth.interpolation == .sinc)
    }
}
