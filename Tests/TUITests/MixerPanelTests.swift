// The channel mixer panel through the cell grid: 16 strips at 200x60 in one column, folded into two at 80x24,
// the keys' effect on its flags and offsets, and program names that are never cut mid-word.
@testable import TUI
import DSP
import Engine
import MIDI
import Testing

@Suite struct MixerPanelTests {
    @Test func sixteenStripsFoldAt80x24AndAreOneColumnAt200x60() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        engine.midi(0xC1, 33)  // channel 2: fingered bass
        w.tick(now: 0)
        w.handle(.char("O"), layout: nil, now: 0)
        #expect(w.mixer.shown)
        let small = render(w, 80, 24)
        #expect(small.contains(" Mixer "))
        // Two columns: channels 1 and 9 on the same row, 8 and 16 on the last.
        let rows = (0..<24).map { small.row($0) }
        #expect(rows.contains { $0.contains(" 1 ") && $0.contains(" 9 ") }, "\(rows.joined(separator: "\n"))")
        #expect(rows.contains { $0.contains(" 8 ") && $0.contains("16 ") })
        #expect(small.contains("33 ") && small.contains("drum kit"))
        #expect(small.allPrintable)
        let big = render(w, 200, 60)
        let bigRows = (0..<60).map { big.row($0) }
        #expect(bigRows.contains { $0.contains("16 ") && !$0.contains(" 8 ") })
        #expect(!bigRows.contains { $0.contains(" 1 ") && $0.contains(" 9 ") })
    }

    @Test func keysMuteSoloAndOffsetTheSelectedChannel() {
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        w.handle(.char("O"), layout: nil, now: 0)
        w.handle(.char("j"), layout: nil, now: 0)  // channel 2
        w.handle(.char("m"), layout: nil, now: 0)
        #expect(w.mixer.muted == 0b10)
        #expect(w.statusMessage.contains("channel 2 muted"))
        w.handle(.char("j"), layout: nil, now: 0)  // channel 3
        w.handle(.char("s"), layout: nil, now: 0)
        #expect(w.mixer.silenced == ~UInt16(0b100))
        w.handle(.right, layout: nil, now: 0)
        w.handle(.right, layout: nil, now: 0)
        w.handle(.char("<"), layout: nil, now: 0)
        #expect(w.mixer.volumeDB[2] == 2 && w.mixer.pan[2] == -8)
        let grid = render(w, 120, 40)
        #expect((0..<40).contains { grid.row($0).contains("3") && grid.row($0).contains(" S ") && grid.row($0).contains(" +2 L8") })
        w.handle(.char("0"), layout: nil, now: 0)
        #expect(w.mixer.volumeDB[2] == 0 && w.mixer.pan[2] == 0)
        // Esc hides it, and the monitor is back.
        w.handle(.escape, layout: nil, now: 0)
        #expect(!w.mixer.shown)
        #expect(render(w, 120, 40).contains("MIDI monitor"))
    }
}
