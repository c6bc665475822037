@testable import DSP
@testable import Engine
import Foundation
import MIDI
@testable import Settings
import Testing
@testable import TUI

/// A font of three presets over one short silent sample, built in memory.
private func threePresetFont() -> SoundFont {
    silentFont("/fonts/three.sf2", name: "Three", [("Piano", 0, 0), ("Organ", 0, 5), ("Drums", 128, 0)])
}

@Suite struct SoundFontPanelTests {
    @Test func theSynthPanelShowsTheFontAndChoosesTheChannelsPreset() {
        var options = EngineOptions()
        options.soundFont = threePresetFont()
        let engine = Engine(options: options) { _ in }
        engine.synth.prepare(sampleRate: 48_000, maxFrames: 256)
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        var g = render(w)
        let first = (font: g.contains("Synth: Three"), row: g.contains("preset"), piano: g.contains("000:000 Piano"))
        #expect(first.font && first.row && first.piano, "\(first)")
        w.handle(.tab, layout: nil, now: 0)   // meters (Tab follows the screen)
        w.handle(.tab, layout: nil, now: 0)   // synth
        w.handle(.char(">"), layout: nil, now: 0)
        // The request is applied by the real-time thread at its next render.
        var left = [Float](repeating: 0, count: 16), right = left
        engine.synth.render(left: &left, right: &right, frames: 16)
        w.tick(now: 0.1)
        g = render(w)
        let organ = (row: g.contains("000:005 Organ"), status: g.contains("channel 1: preset 000:005 Organ"))
        #expect(organ.row && organ.status, "\(organ)")
        w.handle(.char("<"), layout: nil, now: 0.2)
        w.handle(.char("<"), layout: nil, now: 0.2)
        engine.synth.render(left: &left, right: &right, frames: 16)
        w.tick(now: 0.3)
        let drums = render(w).contains("128:000 Drums")
        #expect(drums) // wraps around from the first preset
        #expect(engine.synth.preset(onChannel: 0) == 2)
    }

    @Test func withoutAFontThePanelShowsThePatch() {
        let engine = Engine(options: EngineOptions()) { _ in }
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        let g = render(w)
        // The engine starts on GM program 0's patch, 13 acoustic grand piano (issue 36).
        let shown = (patch: g.contains("13 " + SynthPatch.builtIn[13].name), font: g.contains("Synth: "))
        #expect(shown.patch && !shown.font, "\(shown)")
    }

    @Test func theConfigFileNamesASoundFontUnderEngine() throws {
        let config = try Config.parse("[engine]\nsoundfont = \"/usr/share/sounds/sf2/TimGM6mb.sf2\"\n", file: "c.toml")
        #expect(config.engine.soundFont == "/usr/share/sounds/sf2/TimGM6mb.sf2")
        #expect(throws: ConfigFileError.self) { try Config.parse("[engine]\nsoundfont = 3\n", file: "c.toml") }
    }
}
