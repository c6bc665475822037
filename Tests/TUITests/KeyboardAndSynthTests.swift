import DSP
import Engine
import MIDI
import Testing
@testable import TUI

@Suite struct KeyboardTests {
    @Test func trackerLayout() {
        let k = ComputerKeyboard(octave: 4)
        #expect(k.note(for: "z") == 60)
        #expect(k.note(for: "s") == 61)
        #expect(k.note(for: "m") == 71)
        #expect(k.note(for: "q") == 72)
        #expect(k.note(for: "2") == 73)
        #expect(k.note(for: "u") == 83)
        #expect(k.note(for: "a") == nil)
        #expect(ComputerKeyboard(octave: 8).note(for: "u") == nil)
    }

    @Test func gateEndsNotesAndRepeatExtends() {
        var k = ComputerKeyboard(octave: 4, velocity: 90, gate: 0.3)
        #expect(k.press(note: 60, now: 0) == [ShortMessage(status: 0x90, data1: 60, data2: 90)])
        #expect(k.press(note: 60, now: 0.2).isEmpty)  // auto-repeat keeps it going
        #expect(k.expire(now: 0.4).isEmpty)
        #expect(k.expire(now: 0.51) == [ShortMessage(status: 0x80, data1: 60, data2: 0)])
    }

    @Test func holdModeToggles() {
        var k = ComputerKeyboard(hold: true)
        #expect(k.press(note: 64, now: 0).first?.status == 0x90)
        #expect(k.expire(now: 100).isEmpty)
        #expect(k.press(note: 64, now: 1).first?.status == 0x80)
    }

    @Test func heldNotesFollowMonitorEvents() {
        var h = HeldNotes()
        h.apply(.noteOn(NoteOn(channel: 2, note: 60, velocity: 100)))
        h.apply(.noteOn(NoteOn(channel: 0, note: 62, velocity: 30)))
        #expect(h.velocity(of: 60) == 100)
        h.apply(.noteOn(NoteOn(channel: 2, note: 60, velocity: 0)))
        #expect(h.velocity(of: 60) == 0)
        h.apply(.controlChange(ControlChange(channel: 0, controller: 123, value: 0)))
        #expect(h.heldCount == 0)
    }

    @Test func clickOnTheStripFindsTheNote() {
        let rect = Rect(x: 0, y: 30, width: 120, height: 6)
        let inner = rect.inset(1)
        let first = KeyboardPanel.firstWhiteKey(width: inner.width, octave: 4)
        // Find the column of C4's white key and click its bottom row.
        let c4 = (60 / 12) * 7 - first
        #expect(KeyboardPanel.note(atX: inner.x + c4 * 3 + 1, y: inner.y + 2, rect: rect, octave: 4) == 60)
        // The black key C#4 straddles C4 and D4 on the top rows.
        #expect(KeyboardPanel.note(atX: inner.x + c4 * 3 + 2, y: inner.y, rect: rect, octave: 4) == 61)
        #expect(KeyboardPanel.note(atX: inner.x + c4 * 3 + 3, y: inner.y + 1, rect: rect, octave: 4) == 61)
        #expect(KeyboardPanel.note(atX: inner.x, y: inner.y + 3, rect: rect, octave: 4) == nil)
    }

    @Test func stripShowsAtLeastTwoOctavesAtMinimumWidth() {
        let rect = Rect(x: 0, y: 0, width: 80, height: 6)
        #expect((rect.inset(1).width / 3) >= 14)
        var g = Grid(width: 80, height: 6)
        var held = HeldNotes()
        held.apply(.noteOn(NoteOn(channel: 0, note: 60, velocity: 120)))
        KeyboardPanel.draw(held: held, keyboard: ComputerKeyboard(), playMode: true, into: &g, rect: rect, context: DrawContext(glyphs: .ascii, focused: true))
        #expect(g.contains("PLAY"))
        #expect(g.row(3).contains("#"))  // the held key, loud
        #expect(g.row(4).contains("1 held"))
    }

    @Test func playModeKeysSendNotesToTheKeyboardRing() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.handle(.char("z"), layout: nil, now: 0)
        #expect(engine.sent.isEmpty)  // not in play mode: z is no command
        w.handle(.char("i"), layout: nil, now: 0)
        #expect(w.playMode)
        w.handle(.char("z"), layout: nil, now: 0)
        w.handle(.char("q"), layout: nil, now: 0)
        #expect(engine.sent == [.midi(ShortMessage(status: 0x90, data1: 60, data2: 100), .keyboard),
                                .midi(ShortMessage(status: 0x90, data1: 72, data2: 100), .keyboard)])
        #expect(!w.quitRequested)
        w.tick(now: 1)
        #expect(engine.sent.count == 4)  // both gates ended
        w.handle(.escape, layout: nil, now: 1)
        w.handle(.char("q"), layout: nil, now: 1)
        #expect(w.quitRequested)
    }

    @Test func mouseClickPlaysANote() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        let layout = try #require(Layout.compute(width: 120, height: 40))
        let inner = layout.keyboard.inset(1)
        let first = KeyboardPanel.firstWhiteKey(width: inner.width, octave: 4)
        w.handle(.mouse(x: inner.x + (35 - first) * 3 + 1, y: inner.y + 2), layout: layout, now: 0)
        #expect(engine.sent == [.midi(ShortMessage(status: 0x90, data1: 60, data2: 100), .keyboard)])
    }
}

@Suite struct SynthPanelTests {
    @Test func editingSendsParametersThroughTheRing() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        w.handle(.tab, layout: nil, now: 0)   // meters (Tab follows the screen)
        w.handle(.tab, layout: nil, now: 0)   // synth
        #expect(w.focus == .synth)
        w.handle(.char("j"), layout: nil, now: 0)  // waveform
        w.handle(.char("l"), layout: nil, now: 0)
        #expect(engine.sent.last == .parameter(index: UInt8(SynthParameter.waveform.rawValue), value: 1))
        w.handle(.down, layout: nil, now: 0)       // attack
        w.handle(.right, layout: nil, now: 0)
        guard case .parameter(let index, let value) = engine.sent.last else { Issue.record("no parameter"); return }
        #expect(index == UInt8(SynthParameter.attack.rawValue))
        #expect(value > SynthPatch.builtIn[0].attack)
        w.handle(.char(">"), layout: nil, now: 0)
        // Patch 0 (sine keys) stands for GM program 4; the next program is 5, electric piano 2, patch 18.
        #expect(engine.sent.last == .midi(ShortMessage(status: 0xC0, data1: 5), .keyboard))
        let g = render(w)
        #expect(g.contains("18 electric"))  // the panel cuts the name to its column
    }

    @Test func stepsStayInRange() {
        for p in SynthParameter.allCases {
            var v = p.defaultValue
            for _ in 0..<200 { v = SynthPanel.step(p, v, by: 1) }
            #expect(p.range.contains(v))
            for _ in 0..<400 { v = SynthPanel.step(p, v, by: -1) }
            #expect(p.range.contains(v))
        }
        #expect(SynthPanel.format(.cutoff, 1800) == "1.80 kHz")
        #expect(SynthPanel.format(.attack, 0.005) == "5 ms")
        #expect(SynthPanel.format(.waveform, 2) == "saw")
    }

    @Test func helpOverlayListsEveryKeyAndEscCloses() {
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        w.handle(.char("?"), layout: nil, now: 0)
        let g = render(w, 120, 60)
        for text in ["Help", "quit", "play mode", "z s x d c v g b h n j m", "pause", "channel filter", "clock", "patch"] {
            #expect(g.contains(text), "\(text)")
        }
        w.handle(.escape, layout: nil, now: 0)
        #expect(!render(w, 120, 60).contains("Help — Esc closes"))
    }

    @Test func unavailableActionsSaySo() {
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        w.handle(.char("D"), layout: nil, now: 0)
        #expect(w.statusMessage.contains("not available"))
        w.handle(.char("M"), layout: nil, now: 0)
        #expect(w.statusMessage.contains("MIDI recording"))
    }
}
