// Issue 38: SFZ instruments in the config file's [engine] table and in synth presets (`instruments`), in
// `--instrument`'s syntax: "FILE.sfz" for every channel, "CH=FILE.sfz" for one.
@testable import Settings
import Testing

@Suite struct InstrumentConfigTests {
    @Test func configKeyTakesAFileOrAList() throws {
        #expect(try Config.parse("[engine]\ninstruments = \"piano.sfz\"\n", file: "c.toml").engine.instruments == ["piano.sfz"])
        let list = try Config.parse("[engine]\ninstruments = [\"piano.sfz\", \"10=drums.sfz\"]\n", file: "c.toml")
        #expect(list.engine.instruments == ["piano.sfz", "10=drums.sfz"])
        // Only a whole number before "=" is a channel: this is one file, for every channel.
        #expect(try Config.parse("[engine]\ninstruments = [\"2=a.sfz\", \"my=odd.sfz\"]\n", file: "c.toml").engine.instruments?.count == 2)
        #expect(try Config.parse("[engine]\n", file: "c.toml").engine.instruments == nil)
    }

    /// Each refusal names the file, the key's line and what is wrong.
    @Test func badEntriesAreRefusedWithTheirLine() {
        let cases: [(String, String)] = [
            ("instruments = 3", "\"instruments\" must be an SFZ file name"),
            ("instruments = [\"17=a.sfz\"]", "the channel is 17; channels are 1...16"),
            ("instruments = [\"2=a.sfz\", \"2=b.sfz\"]", "gives channel 2 two instruments"),
            ("instruments = [\"a.sfz\", \"b.sfz\"]", "more than one entry without a channel"),
            ("instruments = [\"3=\"]", "has no file name"),
        ]
        for (line, said) in cases {
            do {
                _ = try Config.parse("[engine]\n\(line)\n", file: "c.toml")
                Issue.record("\(line) was accepted")
            } catch {
                #expect(error.description.hasPrefix("c.toml:2: ") && error.description.contains(said), "\(line): \(error.description)")
            }
        }
    }

    @Test func presetKeyIsReadAndWrittenBack() throws {
        let preset = try SynthPreset.parse("patch = 1\ninstruments = [\"2=piano.sfz\", \"organ.sfz\"]\n", file: "p.toml")
        #expect(preset.instruments == ["2=piano.sfz", "organ.sfz"])
        #expect(try SynthPreset.parse(preset.toml, file: "again.toml") == preset, "written and read back:\n\(preset.toml)")
        #expect(throws: ConfigFileError.self) { try SynthPreset.parse("instruments = [\"0=x.sfz\"]\n", file: "p.toml") }
    }

    /// A live change of instrument as a session saves it: the channel's entry replaced, a channel-less one kept
    /// for the other channels until every channel has its own.
    @Test func aLiveChangeReplacesItsChannelsEntry() throws {
        #expect(InstrumentSetting.replacing([], channel: 1, with: "/i/tenor.sfz") == ["1=/i/tenor.sfz"])
        #expect(InstrumentSetting.replacing(["piano.sfz", "2=a.sfz"], channel: 2, with: "b.sfz") == ["piano.sfz", "2=b.sfz"])
        var all = ["piano.sfz"]
        for ch in 1...16 { all = InstrumentSetting.replacing(all, channel: ch, with: "x.sfz") }
        #expect(all.count == 16 && !all.contains("piano.sfz"), "\(all)")
        #expect(try Config.parse("[engine]\ninstrument_dir = \"/srv/sfz\"\n", file: "c.toml").engine.instrumentDirectory == "/srv/sfz")
    }
}
