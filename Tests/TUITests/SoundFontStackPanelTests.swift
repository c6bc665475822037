// Stacked fonts in the workstation: the config file's font list, the synth panel naming the font each
// channel's preset came from, and the GS fallback said on the status line once per channel.
@testable import DSP
@testable import Engine
import Foundation
import MIDI
@testable import Settings
import Testing
@testable import TUI

/// A font of `presets` over one short silent sample, built in memory, at `path` (the panel tests' fonts).
func silentFont(_ path: String, name: String = "",
                _ presets: [(name: String, bank: UInt16, program: UInt8)]) -> SoundFont {
    SoundFont(path: path, name: name, presets: presets.enumerated().map { i, p in
        SoundFontPreset(name: p.name, bank: p.bank, program: p.program, zoneStart: Int32(i), zoneCount: 1)
    }, zones: presets.map { _ in SoundFontZone() },
       samples: [SoundFontSample(start: 0, end: 100, loopStart: 10, loopEnd: 90, sampleRate: 44_100,
                                 originalPitch: 60, pitchCorrection: 0, link: 0, type: 1)],
       frames: [Int16](repeating: 0, count: 146))
}

@Suite struct SoundFontStackPanelTests {
    @Test func theConfigFileTakesOneFontOrAStack() throws {
        let one = try Config.parse("[engine]\nsoundfont = \"a.sf2\"\n", file: "c.toml")
        #expect(one.engine.soundFonts == ["a.sf2"] && one.engine.soundFont == "a.sf2")
        let stack = try Config.parse("[engine]\nsoundfont = [\"gm.sf2\", \"gs.sf2\"]\n", file: "c.toml")
        #expect(stack.engine.soundFonts == ["gm.sf2", "gs.sf2"])
        for bad in ["[]", "[\"a.sf2\", 3]", "\"\"", "[\"a.sf2\", \"\"]"] {
            #expect(throws: ConfigFileError.self, "soundfont = \(bad)") { try Config.parse("[engine]\nsoundfont = \(bad)\n", file: "c.toml") }
        }
    }

    @Test func thePanelNamesTheFontOfTheChannelsPresetAndTheStatusLineTheFallback() {
        let low = silentFont("/fonts/low.sf2", [("Piano", 0, 0), ("Organ", 0, 5)])
        let top = silentFont("/fonts/top.sf2", [("Top Organ", 0, 5), ("Rain", 1, 122)])
        var options = EngineOptions()
        options.soundFont = SoundFont.stacked([low, top])
        let engine = Engine(options: options) { _ in }
        engine.synth.prepare(sampleRate: 48_000, maxFrames: 256)
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        var g = render(w, 160)
        let first = (title: g.contains("Synth: top.sf2 + low.sf2"), piano: g.contains("000:000 Piano · low.sf2"))
        #expect(first.title && first.piano, "\(first)")
        w.handle(.tab, layout: nil, now: 0)   // keyboard
        w.handle(.tab, layout: nil, now: 0)   // synth
        w.handle(.char(">"), layout: nil, now: 0)
        var left = [Float](repeating: 0, count: 16), right = left
        engine.synth.render(left: &left, right: &right, frames: 16)
        w.tick(now: 0.6)
        g = render(w, 160)
        let organ = (row: g.contains("000:005 Top Organ · top.sf2"), status: g.contains("channel 1: preset 000:005 Top Organ (top.sf2)"))
        #expect(organ.row && organ.status, "\(organ)")
        // Bank 9 (no font has it) on channel 2: the GS fallback to 0:5, said at its first note, once.
        engine.synth.handle(ShortMessage(status: 0xB1, data1: 0, data2: 9))
        engine.synth.handle(ShortMessage(status: 0xC1, data1: 5, data2: 0))
        engine.synth.handle(ShortMessage(status: 0x91, data1: 60, data2: 100))
        w.tick(now: 1.2)
        #expect(w.statusMessage == "channel 2: no font of the stack has bank 9 program 5; playing 000:005 Top Organ (top.sf2) instead",
                "\(w.statusMessage)")
        w.say("something else")
        engine.synth.handle(ShortMessage(status: 0x91, data1: 62, data2: 100))
        w.tick(now: 1.8)
        #expect(w.statusMessage == "something else", "said once per channel")
    }
}

@Suite struct SynthPresetSoundFontTests {
    @Test func aPresetMayNameTheFontsToStartWithAndWritesThemBack() throws {
        let one = try SynthPreset.parse("patch = 1\nsoundfont = \"~/fonts/a.sf2\"\n", file: "p.toml")
        #expect(one.soundFonts == ["~/fonts/a.sf2"])
        let stack = try SynthPreset.parse("soundfont = [\"gm.sf2\", \"gs \\\"x\\\".sf2\"]\n", file: "p.toml")
        #expect(stack.soundFonts == ["gm.sf2", "gs \"x\".sf2"])
        #expect(try SynthPreset.parse(stack.toml, file: "again.toml") == stack, "written and read back:\n\(stack.toml)")
        #expect(try SynthPreset.parse("patch = 2\n", file: "p.toml").soundFonts == nil)
        #expect(!SynthPreset(patch: 0).toml.contains("soundfont"), "no fonts: no key")
        for bad in ["[]", "3", "[\"a.sf2\", 3]", "\"\""] {
            #expect(throws: ConfigFileError.self, "soundfont = \(bad)") { try SynthPreset.parse("soundfont = \(bad)\n", file: "p.toml") }
        }
    }
}
