import DSP
import Engine
import Foundation
import Lifecycle
import MIDI
@testable import Settings
import Testing
@testable import TUI

/// The synth panel's preset keys, on the cell grid: `s` asks for a name in the status line, `[` `]` load.
@Suite struct PresetPanelTests {
    func workstation(_ folder: PresetFolder, engine: FakeEngine = FakeEngine()) -> Workstation {
        var settings = WorkstationSettings()
        settings.presets = folder.library
        let w = Workstation(engine: engine, settings: settings)
        w.tick(now: 0)
        w.handle(.tab, layout: nil, now: 0)  // meters (Tab follows the screen)
        w.handle(.tab, layout: nil, now: 0)  // synth
        return w
    }

    func type(_ text: String, into w: Workstation) {
        for c in text { w.handle(.char(c), layout: nil, now: 0) }
    }

    @Test func saveByNameThenLoadItBack() throws {
        let folder = PresetFolder()
        let engine = FakeEngine()
        let w = workstation(folder, engine: engine)
        #expect(w.focus == .synth)
        w.handle(.char("j"), layout: nil, now: 0)  // waveform
        w.handle(.char("l"), layout: nil, now: 0)  // triangle
        w.handle(.char("s"), layout: nil, now: 0)
        #expect(render(w).contains("save preset as: _   (Enter saves as preset-1; Esc cancels)"))
        type("my bass", into: w)
        w.handle(.backspace, layout: nil, now: 0)
        type("s", into: w)  // letters are the name now, not commands (s, q ...)
        #expect(render(w).contains("save preset as: my bass_"))
        #expect(!w.quitRequested)
        w.handle(.enter, layout: nil, now: 0)
        #expect(w.presetPrompt == nil)
        #expect(w.statusMessage.hasPrefix("saved preset \"my bass\": \(folder.library.path(of: "my bass"))"), "\(w.statusMessage)")
        let saved = try folder.library.resolve("my bass")
        #expect(saved.patch == 0 && saved.value(.waveform) == 1)

        w.handle(.char(">"), layout: nil, now: 0)  // the next program's patch: the settings on screen change
        #expect(render(w).contains("18 electric"))  // the panel cuts the name to its column
        engine.sent.removeAll()
        w.handle(.char("]"), layout: nil, now: 0)
        #expect(engine.sent == saved.controlEvents(channel: 0))
        #expect(w.statusMessage.contains("preset \"my bass\" (1/1): patch 0 sine keys"), "\(w.statusMessage)")
        let grid = render(w)
        #expect(grid.contains("0 sine keys") && grid.contains("triangle"))
    }

    @Test func enterWithNoNameSavesTheNextFreeNameAndBracketsCycle() throws {
        let folder = PresetFolder()
        let w = workstation(folder)
        w.handle(.char("s"), layout: nil, now: 0)
        w.handle(.enter, layout: nil, now: 0)
        w.handle(.char(">"), layout: nil, now: 0)
        w.handle(.char("s"), layout: nil, now: 0)
        // After a save the name is the one last saved: Enter would replace it, so type a new one.
        #expect(w.presetPromptLine?.contains("Enter saves as preset-1") == true)
        type("preset-2", into: w)
        w.handle(.enter, layout: nil, now: 0)
        #expect(folder.library.names() == ["preset-1", "preset-2"])
        w.handle(.char("]"), layout: nil, now: 0)
        #expect(w.presetName == "preset-1")
        w.handle(.char("]"), layout: nil, now: 0)
        #expect(w.presetName == "preset-2")
        w.handle(.char("["), layout: nil, now: 0)
        w.handle(.char("["), layout: nil, now: 0)
        #expect(w.presetName == "preset-2")
        #expect(w.statusMessage.contains("patch 18 electric piano 2"))
    }

    @Test func escapeCancelsAndBadNamesAndFilesAreSaid() throws {
        let folder = PresetFolder()
        let w = workstation(folder)
        w.handle(.char("]"), layout: nil, now: 0)
        #expect(w.statusMessage.hasPrefix("no saved presets in \(folder.library.directory)"))
        w.handle(.char("s"), layout: nil, now: 0)
        type("x", into: w)
        w.handle(.escape, layout: nil, now: 0)
        #expect(w.statusMessage == "preset not saved")
        #expect(folder.library.names().isEmpty)
        w.handle(.char("s"), layout: nil, now: 0)
        type("a/b", into: w)
        w.handle(.enter, layout: nil, now: 0)
        #expect(w.statusMessage.contains("preset not saved") && w.statusMessage.contains("cannot contain \"/\""), "\(w.statusMessage)")
        _ = try folder.write("broken", "patch = 1\ncutoff = 1\n")
        w.handle(.char("]"), layout: nil, now: 0)
        #expect(w.statusMessage.contains("broken.toml:2: \"cutoff\" must be a number in 20...20000 Hz"), "\(w.statusMessage)")
    }

    /// While the simulated app is suspended its MIDI is dropped: a preset would lose its program change and
    /// be half applied, so it is not loaded, and the status line says why.
    @Test func noLoadWhileTheSimulatedAppIsSuspended() throws {
        let folder = PresetFolder()
        try folder.library.save(SynthPreset(patch: 1), as: "lead")
        let engine = FakeEngine()
        let live = LiveSession()
        var settings = WorkstationSettings()
        settings.presets = folder.library
        let w = Workstation(engine: engine, settings: settings, lifecycle: live)
        w.tick(now: 0)
        w.handle(.tab, layout: nil, now: 0)
        w.handle(.tab, layout: nil, now: 0)
        _ = live.perform(.cycleCategory, at: 1)  // record: the synth cannot keep it alive in background
        _ = live.perform(.event(.home), at: 2)
        w.tick(now: 8)
        #expect(engine.gates.midi == false)
        engine.sent.removeAll()
        w.handle(.char("]"), layout: nil, now: 8)
        #expect(engine.sent.isEmpty)
        #expect(w.statusMessage.hasPrefix("preset not loaded: the simulated app is suspended"), "\(w.statusMessage)")
        _ = live.perform(.event(.foreground), at: 9)
        w.tick(now: 9)
        w.handle(.char("]"), layout: nil, now: 9)
        #expect(engine.sent.suffix(10) == SynthPreset(patch: 1).controlEvents(channel: 0)[...])
    }

    @Test func helpListsThePresetKeys() {
        let w = workstation(PresetFolder())
        w.handle(.char("?"), layout: nil, now: 0)
        let g = render(w, 120, 80)
        #expect(g.contains("save these settings as a preset"))
        #expect(g.contains("load the previous / next saved preset"))
    }
}
