// Issue 22: the synth panel's reverb and chorus rows, the preset's effect keys; issue 20: the monitor's tag
// for a sysex the synth ignored. All on the cell grid.
import DSP
import Engine
import Foundation
import MIDI
@testable import Settings
import Testing
@testable import TUI

@Suite struct EffectPanelTests {
    func synthFocused(_ engine: FakeEngine, presets: PresetLibrary? = nil) -> Workstation {
        var settings = WorkstationSettings()
        if let presets { settings.presets = presets }
        let w = Workstation(engine: engine, settings: settings)
        w.tick(now: 0)
        w.handle(.tab, layout: nil, now: 0)  // meters
        w.handle(.tab, layout: nil, now: 0)  // synth
        return w
    }

    func select(_ row: SynthRow, in w: Workstation) {
        for _ in 0..<20 { w.handle(.up, layout: nil, now: 0) }
        for _ in 0..<(SynthRow.all.firstIndex(of: row) ?? 0) { w.handle(.down, layout: nil, now: 0) }
    }

    /// The synth panel's row whose name is `name` (its text from the marker on).
    func row(_ name: String, _ grid: Grid) -> String? {
        (0..<grid.height).map(grid.row).first { $0.contains(" " + name.fitted(12)) }
    }

    /// Issue 40: with a SoundFont the panel has the sample voices' interpolation; a step either way switches
    /// the running synth between cubic and sinc.
    @Test func theInterpolationRowSwitchesTheRunningSynth() throws {
        #expect(SynthRow.rows(soundFont: true).contains(.interpolation))
        #expect(!SynthRow.rows(soundFont: false).contains(.interpolation), "the built-in voices have no samples")
        let engine = FontFakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        w.handle(.tab, layout: nil, now: 0)  // meters
        w.handle(.tab, layout: nil, now: 0)  // synth
        for _ in 0..<20 { w.handle(.up, layout: nil, now: 0) }
        for _ in 0..<(SynthRow.soundFont.firstIndex(of: .interpolation) ?? 0) { w.handle(.down, layout: nil, now: 0) }
        #expect(try #require(row("interpolation", render(w, 140, 70))).contains("cubic"))
        w.handle(.right, layout: nil, now: 0)
        #expect(engine.base.interpolation == .sinc)
        #expect(try #require(row("interpolation", render(w, 140, 70))).contains("sinc"))
        w.handle(.left, layout: nil, now: 0)
        #expect(engine.base.interpolation == .cubic)
    }

    @Test func effectRowsShowAndChangeTheRunningEffects() throws {
        #expect(SynthRow.rows(soundFont: true).contains(.effect(.roomSize)), "the effects act on SoundFont voices too")
        let engine = FakeEngine()
        let w = synthFocused(engine)
        select(.effect(.roomSize), in: w)
        var g = render(w, 140, 70)
        #expect(try #require(row("reverb", g)).contains("0.90"))
        #expect(try #require(row("room size", g)).contains("RT60 1.30 s"))
        w.handle(.right, layout: nil, now: 0)
        #expect(abs(engine.effects[EffectParameter.roomSize.rawValue] - 0.22) < 1e-6)
        #expect(try #require(row("room size", render(w, 140, 70))).contains("RT60 1.40 s"))
        w.handle(.char("L"), layout: nil, now: 0) // 4 steps
        #expect(abs(engine.effects[EffectParameter.roomSize.rawValue] - 0.30) < 1e-6)
        #expect(try #require(row("room size", render(w, 140, 70))).contains("RT60 1.80 s"))
        w.handle(.down, layout: nil, now: 0)     // chorus (the panel scrolls to it)
        #expect(try #require(row("chorus", render(w, 140, 70))).contains("2.00"))
        w.handle(.left, layout: nil, now: 0)
        #expect(abs(engine.effects[EffectParameter.chorusLevel.rawValue] - 1.75) < 1e-6)
        #expect(try #require(row("chorus", render(w, 140, 70))).contains("1.75"))
        w.handle(.up, layout: nil, now: 0)
        w.handle(.up, layout: nil, now: 0)       // reverb level
        for _ in 0..<30 { w.handle(.right, layout: nil, now: 0) }
        #expect(engine.effects[EffectParameter.reverbLevel.rawValue] == 1, "stops at the top of its range")
        g = render(w, 140, 70)
        #expect(try #require(row("reverb", g)).contains("1.00"))
        // MIDI's parameters were not touched: nothing went through the keyboard ring.
        #expect(engine.sent.isEmpty)
        // A bus switched off (--no-reverb): the row says so, an edit is kept for when it is on.
        engine.effects[EffectParameter.reverbOn.rawValue] = 0
        w.tick(now: 1)
        #expect(try #require(row("reverb", render(w, 140, 70))).contains("1.00 off"))
        w.handle(.left, layout: nil, now: 1)
        #expect(w.statusMessage.contains("the reverb is off"), "\(w.statusMessage)")
        #expect(abs(engine.effects[EffectParameter.reverbLevel.rawValue] - 0.95) < 1e-6)
    }

    @Test func presetsSaveAndLoadTheEffects() throws {
        let folder = PresetFolder()
        let engine = FakeEngine()
        let w = synthFocused(engine, presets: folder.library)
        select(.effect(.roomSize), in: w)
        w.handle(.char("L"), layout: nil, now: 0)  // room size 0.28
        w.handle(.char("s"), layout: nil, now: 0)
        for c in "hall" { w.handle(.char(c), layout: nil, now: 0) }
        w.handle(.enter, layout: nil, now: 0)
        let text = try String(contentsOfFile: folder.library.path(of: "hall"), encoding: .utf8)
        #expect(text.contains("room_size = 0.28"), "\(text)")
        #expect(text.contains("reverb_level = 0.9"))
        // Back to the defaults, then the preset loaded: the room size comes back into the running synth.
        engine.effects = EffectParameter.allCases.map(\.defaultValue)
        w.tick(now: 1)
        w.handle(.char("]"), layout: nil, now: 1)
        #expect(abs(engine.effects[EffectParameter.roomSize.rawValue] - 0.28) < 1e-6)
        #expect(try #require(row("room size", render(w, 140, 70))).contains("RT60 1.70 s"))
    }

    @Test func effectKeysRoundTripAndBadValuesNameTheFileAndLine() throws {
        var preset = SynthPreset(patch: 2)
        let settings: [(EffectParameter, Float)] = [(.reverbLevel, 0.35), (.roomSize, 0.7123), (.damping, 0.4), (.width, 1),
                                                    (.chorusLevel, 4.5), (.chorusVoices, 5), (.chorusRate, 1.22), (.chorusDepth, 12.5)]
        for (p, v) in settings { preset.effects[p.rawValue] = v }
        let read = try SynthPreset.parse(preset.toml, file: "p.toml")
        #expect(read == preset, "\(preset.toml)")
        for key in ["reverb_level", "room_size", "reverb_damping", "reverb_width", "chorus_level", "chorus_voices", "chorus_rate", "chorus_depth"] {
            #expect(preset.toml.contains("\n\(key) = "), "\(key)")
        }
        // Left out: the defaults (FluidSynth's).
        #expect(try SynthPreset.parse("patch = 1\n", file: "p.toml").value(.roomSize) == EffectParameter.roomSize.defaultValue)
        // Applied at start to a real synth.
        let synth = Synth()
        read.apply(to: synth)
        #expect(synth.value(of: .roomSize) == Float(0.7123) && synth.value(of: .chorusVoices) == 5)
        for (text, line, words) in [("patch = 0\nroom_size = 1.5\n", 2, "\"room_size\" must be a number in 0...1"),
                                    ("\n\nchorus_voices = 2.5\n", 3, "\"chorus_voices\" must be a number in 1...8 (a whole number)"),
                                    ("chorus_rate = \"fast\"\n", 1, "\"chorus_rate\" must be a number in 0.1...5 Hz")] {
            do {
                _ = try SynthPreset.parse(text, file: "/tmp/p.toml")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.file == "/tmp/p.toml" && error.line == line, "\(error)")
                #expect(error.message.contains(words), "\(error.message)")
                #expect("\(error)".contains("/tmp/p.toml"), "\(error)")
            }
        }
    }
}

@Suite struct IgnoredSysexMonitorTests {
    @Test func aSysexTheSynthIgnoredIsTaggedDim() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        let obeyed: [UInt8] = [0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x40, 0xF7]       // master volume
        let ignored: [UInt8] = [0xF0, 0x43, 0x10, 0x4C, 0x02, 0x01, 0x00, 0x01, 0xF7] // XG reverb type
        engine.sysex = obeyed + ignored
        engine.pending.append(.midi(MonitorEvent(frameTime: 0, message: ShortMessage(status: 0xF0), source: .jack, lost: false,
                                                 sysexLength: 8, sysexBytesQueued: 8)))
        var event = MonitorEvent(frameTime: 480, message: ShortMessage(status: 0xF0), source: .jack, lost: false,
                                 sysexLength: 9, sysexBytesQueued: 9)
        event.sysexIgnored = true
        engine.pending.append(.midi(event))
        w.tick(now: 0)
        let g = render(w, 160, 40)
        let rows = (0..<g.height).filter { g.row($0).contains("SysEx") }
        try #require(rows.count == 2, "\(g.text)")
        #expect(!g.row(rows[0]).contains("ignored"), "\(g.row(rows[0]))")
        let line: [Unicode.Scalar] = Array(g.row(rows[1]).unicodeScalars)
        let tag: [Unicode.Scalar] = Array("ignored".unicodeScalars)
        var found: Int?
        for x in 0...(line.count - tag.count) where Array(line[x..<(x + tag.count)]) == tag { found = x; break }
        let x = try #require(found, "\(g.row(rows[1]))")
        let y = rows[1]
        for c in x..<(x + tag.count) { #expect(g[c, y].role == .dim) }
        #expect(g.row(rows[1]).contains("43 10 4C"), "the ignored message is still shown whole")
    }
}
