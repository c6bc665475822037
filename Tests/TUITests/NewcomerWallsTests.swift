// Issue 26, "Playing" and "Reading the screen": play-mode keys, Tab order, the header's priorities and
// notices, loss wording, the monitor's direction column, suspended screens, program names, the preset
// browser and the SoundFont synth panel, read through the cell grid.
import DSP
@testable import Engine
import Foundation
import MIDI
@testable import Settings
import TestSupport
import Testing
@testable import TUI

/// FakeEngine with a SoundFont's presets (no font is loaded: the browser and names only need the list).
final class FontFakeEngine: WorkstationEngine {
    let base = FakeEngine()
    var chosen: [(Int, UInt8)] = []
    let entries = [PresetEntry(index: 0, bank: 0, program: 0, name: "Grand Piano"),
                   PresetEntry(index: 1, bank: 0, program: 4, name: "Rhodes EP"),
                   PresetEntry(index: 2, bank: 0, program: 40, name: "Violin"),
                   PresetEntry(index: 3, bank: 8, program: 4, name: "Chorused Tine EP"),
                   PresetEntry(index: 4, bank: 128, program: 0, name: "Standard Drums")]
    var current = 0
    func status() -> EngineStatus { base.status() }
    func drainEvents(_ body: (EngineEvent) -> Void) { base.drainEvents(body) }
    func takeSysex(count: Int) -> [UInt8] { base.takeSysex(count: count) }
    func send(_ event: ControlEvent) -> Bool { base.send(event) }
    func synthView() -> SynthView { base.synthView() }
    func setInterpolation(_ mode: SampleInterpolation) { base.setInterpolation(mode) }
    func synthView(channel: UInt8) -> SynthView {
        var v = base.synthView()
        v.soundFont = "Test Font"
        v.preset = entries[current].label
        return v
    }
    var synthChannel: UInt8? { nil }
    func setGates(midiDelivered: Bool, audioPlaying: Bool) { base.setGates(midiDelivered: midiDelivered, audioPlaying: audioPlaying) }
    func presetEntries() -> [PresetEntry] { entries }
    func choosePreset(_ index: Int, channel: UInt8) -> String? { chosen.append((index, channel)); current = index; return "preset \(entries[index].label)" }
    func currentPreset(channel: UInt8) -> Int? { current }
    func programName(_ program: UInt8, bank: Int, channel: UInt8) -> String? {
        entries.first { $0.bank == bank && $0.program == Int(program) }?.label ?? "(no preset in the font)"
    }
}

@Suite struct PlayModeKeyTests {
    @Test func panicAndOctaveKeysWorkInPlayModeAndOtherKeysSaySo() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.handle(.char("i"), layout: nil, now: 0)
        #expect(w.playMode)
        w.handle(.char("!"), layout: nil, now: 0.1)
        #expect(engine.sent.last == .silenceAllVoices)
        #expect(w.statusMessage.hasPrefix("panic"))
        let octave = w.keyboard.octave
        w.handle(.char(">"), layout: nil, now: 0.2)
        #expect(w.keyboard.octave == octave + 1)
        w.handle(.char("<"), layout: nil, now: 0.3)
        w.handle(.char("<"), layout: nil, now: 0.3)
        #expect(w.keyboard.octave == octave - 1)
        // A key that plays nothing is not silently dead.
        w.handle(.char("k"), layout: nil, now: 0.4)
        #expect(w.statusMessage.contains("'k' plays nothing in play mode"), "\(w.statusMessage)")
        w.handle(.char("Z"), layout: nil, now: 0.5)
        #expect(w.statusMessage.contains("Caps Lock"), "\(w.statusMessage)")
        #expect(w.playMode, "still playing")
        // Help and README agree: the help overlay lists them.
        #expect(InputMap.helpLines.contains { $0.contains("< >") && $0.contains("octave") })
        #expect(InputMap.helpLines.contains { $0.contains("!  Backspace") })
    }

    @Test func everyPrintableKeyInPlayModeDoesSomethingOrSaysSo() {
        for scalar in 0x20...0x7E {
            let key = Key.char(Character(Unicode.Scalar(scalar)!))
            #expect(InputMap.command(for: key, focus: .keyboard, playMode: true) != nil, "\(key)")
        }
    }
}

@Suite struct TabOrderTests {
    @Test func tabFollowsTheScreenLeftToRightTopToBottom() {
        for (width, height) in [(80, 24), (120, 40), (200, 60)] {
            let layout = Layout.compute(width: width, height: height)!
            let order = layout.tabOrder
            for (a, b) in zip(order, order.dropFirst()) {
                let ra = layout.rect(a), rb = layout.rect(b)
                #expect(ra.y < rb.y || (ra.y == rb.y && ra.x < rb.x), "\(a) before \(b) at \(width)x\(height)")
            }
            let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
            var visited: [PanelID] = [w.focus]
            for _ in order.indices { w.handle(.tab, layout: layout, now: 0); visited.append(w.focus) }
            #expect(visited == order + [order[0]], "\(width)x\(height): \(visited)")
        }
        #expect(Layout.compute(width: 120, height: 40)!.tabOrder == [.monitor, .meters, .synth, .lifecycle, .keyboard])
    }
}

@Suite struct HeaderPriorityTests {
    func info(recording: Bool = true, alsa: Bool = false) -> HeaderInfo {
        var info = HeaderInfo()
        info.serverName = "default"; info.serverPrivate = true; info.driver = "dummy"; info.connected = true
        info.sampleRate = 48_000; info.periodFrames = 256; info.dspLoad = 12.5; info.xruns = 7
        info.voicesInUse = 3; info.voiceCapacity = 64; info.midiPerSecond = 10; info.ringDrops = 1
        info.program = "000:000 Yamaha Grand Piano"
        info.lifecycleBadge = "background"
        if recording {
            info.recordings = [Recording(kind: "MIDI", path: "/tmp/backbeat-20261126-001500.mid", seconds: 12.25),
                               Recording(kind: "audio", path: "/tmp/backbeat-20261126-001500.wav", seconds: 12.2)]
        }
        if alsa {
            info.alsaPCM = "ALSA PCM 'hw:0': float32, 2 x 256 frames, SCHED_FIFO priority 70"
            info.alsaMIDI = "ALSA MIDI unavailable: cannot open the ALSA sequencer /dev/snd/seq: No such file or directory"
        }
        return info
    }

    func row(_ info: HeaderInfo, _ width: Int) -> String {
        var g = Grid(width: width, height: 1)
        HeaderPanel.draw(info, into: &g, rect: Rect(x: 0, y: 0, width: width, height: 1), glyphs: .unicode)
        return g.row(0)
    }

    @Test(arguments: [80, 100, 132, 160, 240])
    func stateDSPXrunsAndRECAlwaysShowAndNothingIsCutMidWord(_ width: Int) {
        for (recording, alsa) in [(true, false), (true, true), (false, true), (false, false)] {
            let info = info(recording: recording, alsa: alsa)
            let text = row(info, width)
            #expect(text.hasSuffix(" background "), "\(width): \(text)")
            #expect(text.contains("DSP 12.5%") && text.contains("xruns 7"), "\(width): \(text)")
            if recording { #expect(text.contains("REC "), "\(width): \(text)") }
            // Every field shown is one of its variants, whole.
            let variants = Set(HeaderPanel.variants(info).values.flatMap { $0.map { ($0.0 + $0.1).trimmingCharacters(in: .whitespaces) } })
            let fields = text.dropLast(" background ".count).split(separator: "│").map { $0.trimmingCharacters(in: .whitespaces) }
            for field in fields where !field.isEmpty {
                #expect(variants.contains(field), "\(width): '\(field)' is cut in \(text)")
            }
        }
    }

    @Test func theDummyDriverSaysNothingIsHeard() {
        #expect(row(info(recording: false), 320).contains("no sound card: output goes nowhere; connect out_L/out_R or use --driver alsa"))
        #expect(row(info(recording: false), 100).contains("no sound card"))
        var external = info(recording: false)
        external.serverPrivate = false
        #expect(!row(external, 240).contains("no sound card"))
        // The workstation's header (FakeEngine: a private dummy server).
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        w.tick(now: 0)
        #expect(render(w, 200, 40).row(0).contains("no sound card: output goes nowhere"))
    }

    @Test func theHeaderNamesWhatTheKeyboardPlays() {
        #expect(row(info(recording: false), 240).contains("000:000 Yamaha Grand Piano"))
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        w.tick(now: 0)
        #expect(render(w, 200, 40).row(0).contains("patch 0 \(SynthPatch.builtIn[0].name)"))
    }
}

@Suite struct ReadingTheScreenTests {
    @Test func lossIsSaidInWordsWithTheDetailInHelp() {
        #expect(MonitorPanel.lossText(engineLost: 0, ringDrops: 0) == "nothing lost")
        #expect(MonitorPanel.lossText(engineLost: 3, ringDrops: 0) == "lost: 3 dropped while suspended")
        #expect(MonitorPanel.lossText(engineLost: 3, ringDrops: 2) == "lost: 3 dropped while suspended · 2 lost to input overflow")
        #expect(InputMap.helpLines.contains { $0.contains("  dropped while suspended ") })
        #expect(InputMap.helpLines.contains { $0.contains("  lost to input overflow ") })
        // No key column is cut: every key text fits its 24 columns.
        #expect(InputMap.help.allSatisfy { $0.keys.allSatisfy { $0.0.count <= 24 } })
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        #expect(render(w).contains("nothing lost"))
        #expect(!render(w).contains(" gate ·"))
    }

    @Test func anEchoedMessageIsOneRowWithItsDirection() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        engine.midi(0x90, 60, 100, frame: 10, source: .keyboard)
        engine.midi(0x90, 60, 100, frame: 10, source: .out)  // keys, sent on midi_out
        engine.midi(0x90, 62, 90, frame: 20, source: .jack)
        engine.midi(0x90, 62, 90, frame: 20, source: .out)   // --midi-thru
        engine.midi(0x90, 64, 80, frame: 30, source: .alsa)  // arrived, not sent on
        engine.midi(0x80, 64, 0, frame: 40, source: .out)    // an outgoing copy whose source row is not there
        w.tick(now: 0)
        #expect(w.log.count == 4)
        #expect((0..<4).map { w.log.entry(at: $0).direction } == ["out", "thru", "in", "out"])
        let g = render(w)
        #expect(g.contains("keys out"), "\(g.text)")
        #expect(g.contains("jack thru"))
        #expect(g.contains("alsa in "))
    }

    @Test func aSuspendedAppShowsNoVoicesAndNoLitKeys() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        let layout = try #require(Layout.compute(width: 120, height: 40))
        w.tick(now: 0)
        engine.midi(0x90, 60, 127, frame: 1)
        w.tick(now: 0.5)
        #expect(w.held.velocity(of: 60) == 127)
        #expect(render(w).row(0).contains("voices 1/64"))
        while w.focus != .lifecycle { w.handle(.tab, layout: layout, now: 0.6) }
        w.handle(.char("a"), layout: layout, now: 0.7)  // the synth stops: silent
        w.handle(.char("h"), layout: layout, now: 0.8)
        w.tick(now: 7)
        #expect(w.lifecycle.state == .suspended)
        let g = render(w)
        #expect(g.row(0).contains("voices 0/64"), "\(g.row(0))")
        #expect(g.contains("0 held"))
        #expect(!g.contains("1/64 voices"))
        // The keyboard strip draws no lit key: no cell has a held note's role.
        let lit = g.cells.filter { [.noteOnLoud, .noteOnMedium, .noteOnSoft].contains($0.role) }
        #expect(lit.isEmpty)
    }

    @Test func programChangesAreNamedAsTheSynthPlaysThem() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        engine.midi(0xC0, 9, frame: 1)
        w.tick(now: 0)
        let patch = SynthPatch.generalMIDI(program: 9) // glockenspiel: the mallet patch (docs/builtin-programs.md)
        let name = "9 patch \(patch) \(SynthPatch.builtIn[patch].name)"
        #expect(render(w).contains(name), "\(render(w).text)")
        #expect(!render(w).contains(GeneralMIDI.programName(9)))

        let font = FontFakeEngine()
        let f = Workstation(engine: font, settings: WorkstationSettings())
        font.base.midi(0xB0, 0, 8, frame: 1)   // bank 8
        font.base.midi(0xC0, 4, frame: 2)
        font.base.midi(0xC9, 0, frame: 3)      // channel 10: the drums are bank 128 there (the fake's lookup: bank 0)
        f.tick(now: 0)
        #expect(render(f, 200, 40).contains("4 008:004 Chorused Tine EP"), "\(render(f, 200, 40).text)")
    }
}

@Suite struct PresetBrowserTests {
    let entries = FontFakeEngine().entries

    @Test func searchesByNameNumberAndBankProgram() {
        var b = PresetBrowser(presets: entries, current: 2)
        #expect(b.chosen?.name == "Violin")
        for c in "ep" { b.type(c) }
        #expect(b.matches.map { entries[$0].name } == ["Rhodes EP", "Chorused Tine EP"])
        b.erase(); b.erase()
        for c in "4" { b.type(c) }
        #expect(b.matches.map { entries[$0].index } == [1, 3])
        for c in ":" { b.type(c) }
        #expect(b.matches.isEmpty, "4: is bank 4, none")
        b.erase(); b.erase()
        for c in "128:0" { b.type(c) }
        #expect(b.chosen?.name == "Standard Drums")
        b.erase(); b.erase(); b.erase(); b.erase(); b.erase()
        for c in "tine chorus" { b.type(c) }
        #expect(b.chosen?.name == "Chorused Tine EP", "words in any order")
    }

    @Test func theBrowserOpensFromTheSynthPanelAndPlaysTheChoice() throws {
        let engine = FontFakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        let layout = try #require(Layout.compute(width: 120, height: 40))
        w.tick(now: 0)
        while w.focus != .synth { w.handle(.tab, layout: layout, now: 0) }
        w.handle(.enter, layout: layout, now: 0)
        #expect(w.browser != nil)
        var g = render(w)
        #expect(g.contains("Presets: Test Font"))
        #expect(g.contains("000:040 Violin") && g.contains("128:000 Standard Drums"))
        for c in "viol" { w.handle(.char(c), layout: layout, now: 0) }
        g = render(w)
        #expect(g.contains("find: viol_") && g.contains("1 of 5"), "\(g.text)")
        #expect(!g.contains("Rhodes EP"))
        w.handle(.enter, layout: layout, now: 0)
        #expect(w.browser == nil)
        #expect(engine.chosen.first?.0 == 2)
        w.tick(now: 1)
        #expect(render(w, 240, 40).row(0).contains("000:040 Violin"), "the header names the preset")
        // In play mode `/` opens it too; Esc closes it and play mode goes on.
        w.handle(.char("i"), layout: layout, now: 1)
        w.handle(.char("/"), layout: layout, now: 1)
        #expect(w.browser != nil)
        w.handle(.escape, layout: layout, now: 1)
        #expect(w.browser == nil && w.playMode)
    }

    @Test func withoutAFontTheBrowserListsTheBuiltInPatches() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.handle(.char("i"), layout: nil, now: 0)
        w.handle(.char("/"), layout: nil, now: 0)
        // The General MIDI programs' patches, what a program change can choose (docs/builtin-programs.md).
        #expect(w.browser?.presets.count == 128)
        #expect(w.browser?.presets.first?.name == "acoustic grand piano")
        w.handle(.down, layout: nil, now: 0)
        w.handle(.enter, layout: nil, now: 0)
        #expect(engine.sent.last == .midi(ShortMessage.programChange(1), .keyboard))
    }
}

@Suite struct SoundFontSynthPanelTests {
    @Test func onlyControlsThatActOnTheFontAreShownAndTheySendTheSoundControllers() throws {
        let engine = FontFakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        let layout = try #require(Layout.compute(width: 120, height: 40))
        w.tick(now: 0)
        var g = render(w)
        for name in ["cutoff", "resonance", "attack", "decay", "release", "master gain", "polyphony"] {
            #expect(g.contains(name), "\(name)")
        }
        for hidden in ["waveform", "sustain", "filter env"] { #expect(!g.contains(hidden), "\(hidden) does nothing on a font") }
        #expect(g.contains("64 +0.0 oct"))
        while w.focus != .synth { w.handle(.tab, layout: layout, now: 0) }
        w.handle(.down, layout: layout, now: 0)   // cutoff
        w.handle(.shiftLeft, layout: layout, now: 0)
        #expect(engine.base.sent.last == .midi(ShortMessage.controlChange(Controller(rawValue: 74), value: 48), .keyboard))
        g = render(w)
        #expect(g.contains("48 -1.2 oct"), "\(g.text)")
        w.handle(.down, layout: layout, now: 0)   // resonance
        w.handle(.right, layout: layout, now: 0)
        #expect(engine.base.sent.last == .midi(ShortMessage.controlChange(Controller(rawValue: 71), value: 68), .keyboard))
        // A control change from MIDI shows the same way.
        engine.base.midi(0xB0, 73, 0, frame: 5)
        w.tick(now: 1)
        #expect(render(w).contains("0 x0.02"), "attack at CC73 0: 64 times shorter")
        #expect(!w.synthRows.contains(.parameter(.waveform)))
    }
}

@Suite struct TakeStemTests {
    @Test func aTakeStartedWhileTheOtherKindRecordsSharesItsStem() throws {
        let directory = try makeTemporaryDirectory("bbstem").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let engine = Engine(options: EngineOptions(), log: { _ in })
        let capture = CaptureController(engine: engine)
        let actions = SessionActions(engine: engine, capture: capture, directory: directory)
        // The other kind's take names the stem, whatever second it is now.
        #expect(actions.takePath("wav", sharing: "/takes/backbeat-20200101-000000.mid") == "/takes/backbeat-20200101-000000.wav")
        // M, then A: one stem.
        _ = actions.toggleMIDIRecording()
        _ = actions.toggleAudioRecording()
        let status = capture.status()
        let midi = try #require(status.midi?.path), audio = try #require(status.audio?.path)
        #expect((midi as NSString).deletingPathExtension == (audio as NSString).deletingPathExtension, "\(midi) \(audio)")
        #expect(midi.hasPrefix(directory + "/backbeat-") && midi.hasSuffix(".mid") && audio.hasSuffix(".wav"))
        // R stops both; R again starts both under one new stem.
        _ = actions.toggleTake()
        #expect(!capture.isRecordingMIDI && !capture.isRecordingAudio)
        let said = actions.toggleTake()
        #expect(said.hasPrefix("recording MIDI and audio to "), "\(said)")
        let again = capture.status()
        #expect(again.midi.map { ($0.path as NSString).deletingPathExtension } == again.audio.map { ($0.path as NSString).deletingPathExtension })
        _ = actions.toggleTake()
    }
}
