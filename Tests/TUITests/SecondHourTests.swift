@testable import Engine
import Foundation
@testable import Lifecycle
import MIDI
import Testing
@testable import TUI

/// Issue 36, "The second hour", on the cell grid: every panel at the sizes the user tried cuts no word or
/// number, the monitor drops columns instead of values, a hidden panel never has the focus, and the
/// lifecycle panel's narration, warnings and strip read as sentences with their words.
@Suite struct SecondHourTests {
    static let sizes = [(80, 24), (100, 30), (120, 40), (200, 60)]

    /// A workstation with something in every panel: notes at velocities 100 and 120, a program change, a
    /// control change, a warning in the lifecycle panel and its narration.
    static func busyWorkstation(_ engine: FakeEngine = FakeEngine()) -> Workstation {
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        engine.midi(0x90, 60, 100, frame: 480)
        engine.midi(0x90, 72, 120, frame: 960, source: .keyboard)
        engine.midi(0xB0, 7, 100, frame: 1200, source: .alsa)
        engine.midi(0xC0, 5, frame: 1400, source: .demo)
        engine.midi(0x80, 60, 0, frame: 1500, lost: true)
        w.tick(now: 0.1)
        let layout = Layout.compute(width: 200, height: 60)
        while w.focus != .lifecycle { w.handle(.tab, layout: layout, now: 0.2) }
        w.handle(.char("1"), layout: layout, now: 0.3)  // an empty keep-alive player: a warning
        w.handle(.char("h"), layout: layout, now: 0.4)
        w.tick(now: 0.6)
        w.handle(.tab, layout: layout, now: 0.7)
        return w
    }

    @Test func everyPanelAtEverySizeCutsNoWord() throws {
        for (width, height) in Self.sizes {
            let w = Self.busyWorkstation()
            let layout = try #require(Layout.compute(width: width, height: height))
            var found: [String] = []
            func look(_ what: String) {
                let g = render(w, width, height)
                found += g.cutWords.map { "\(width)x\(height) \(what): \($0)" }
            }
            for _ in layout.tabOrder {
                w.handle(.tab, layout: layout, now: 1)
                look("focus \(w.focus)")
            }
            w.handle(.char("P"), layout: layout, now: 1)
            look("presenter")
            w.handle(.escape, layout: layout, now: 1)
            w.handle(.char("?"), layout: layout, now: 1)
            look("help")
            w.handle(.escape, layout: layout, now: 1)
            while w.focus != .synth { w.handle(.tab, layout: layout, now: 1) }
            w.handle(.char("/"), layout: layout, now: 1)
            look("preset browser")
            w.handle(.escape, layout: layout, now: 1)
            w.say("saved preset \"live one\": /home/someone/.local/share/backbeat/presets/live one.toml ([ ] load presets) PgUp PgDn")
            look("status line")
            #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        }
    }

    /// The header says the rate and the period in milliseconds at every size; the dummy driver's notice
    /// keeps its words beyond "no sound card" from 120 columns.
    @Test func theHeaderShowsTheRateAtEverySize() {
        for (width, height) in Self.sizes {
            let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
            w.tick(now: 0)
            let header = render(w, width, height).row(0)
            #expect(header.contains("48 kHz") || header.contains("48000 Hz"), "\(width): \(header)")
            #expect(header.contains("5.3 ms"), "\(width): \(header)")
            if width >= 120 { #expect(header.contains("no sound card: output goes nowhere"), "\(width): \(header)") }
        }
    }

    /// The monitor at 120x40 (70 columns inside) and 80x24 (40): a value is whole, a column goes whole.
    @Test func theMonitorDropsColumnsNotValues() {
        let panel = MonitorPanel()
        func row(_ status: UInt8, _ d1: UInt8, _ d2: UInt8, lost: Bool = false, width: Int) -> String {
            let message = MIDIMessage(ShortMessage(status: status, data1: d1, data2: d2))
            let entry = MonitorEntry(sequence: 0, time: 12.5, source: .keyboard, lost: lost, message: message, status: status)
            return panel.segments(entry, width: width).map(\.0).joined()
        }
        for width in [70, 40] {
            let a = row(0x90, 60, 100, width: width), b = row(0x90, 60, 120, width: width), c = row(0x90, 60, 100, lost: true, width: width)
            #expect(a.count <= width && a.contains("C4 (60) velocity 100"), "\(width): \(a)")
            #expect(b.count <= width && b.contains("C4 (60) velocity 120"), "\(width): \(b)")
            #expect(c.count <= width && c.contains("LOST C4 (60) velocity 100"), "\(width): \(c)")
        }
        // Wide: every column, the bytes too.
        let wide = row(0x90, 60, 100, width: 120)
        #expect(wide.contains("keys") && wide.contains("Note On") && wide.contains("90 3C 64"), "\(wide)")
    }

    /// At 80x24 the lifecycle panel has no room: the screen says P shows it; after P and Esc the focus is
    /// on a panel on screen, and `h` does not send the app home unseen.
    @Test func aHiddenPanelNeverHasTheFocus() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        let layout = try #require(Layout.compute(width: 80, height: 24))
        #expect(layout.lifecycle.isEmpty)
        #expect(render(w, 80, 24).contains("Lifecycle hidden: P shows it"))
        w.handle(.char("P"), layout: layout, now: 0.1)
        #expect(w.presenter && w.focus == .lifecycle)
        w.handle(.escape, layout: layout, now: 0.2)
        #expect(w.focus != .lifecycle)
        w.handle(.char("h"), layout: layout, now: 0.3)
        w.tick(now: 0.4)
        #expect(w.lifecycle.state == .active)
        // A resize that hides the focused panel moves the focus too.
        let tall = try #require(Layout.compute(width: 120, height: 40))
        while w.focus != .lifecycle { w.handle(.tab, layout: tall, now: 0.5) }
        w.handle(.resize, layout: layout, now: 0.6)
        #expect(w.focus != .lifecycle)
        // `a` outside the lifecycle panel says where it works.
        w.handle(.char("a"), layout: layout, now: 0.7)
        #expect(w.statusMessage.contains("in the Lifecycle panel"), "\(w.statusMessage)")
        #expect(w.lifecycle.simulator.status(of: LiveSession.synthStream)?.isOn == true)
    }

    /// The help overlay at 80 columns wraps a long line: its last words show.
    @Test func theHelpOverlayWraps() {
        let w = Workstation(engine: FakeEngine(), settings: WorkstationSettings())
        w.handle(.char("?"), layout: Layout.compute(width: 80, height: 24), now: 0)
        let g = render(w, 80, 24)
        #expect(g.contains("again saves both)"), "\(g.text)")
        #expect(g.cutWords.isEmpty, "\(g.cutWords)")
    }

    /// README step 5: `a`, `h`, `f`: back in the foreground the synth is still stopped, and the narration says so.
    @Test func backInTheForegroundTheStoppedSynthIsSaid() {
        let live = LiveSession()
        live.perform(.toggleSynth, at: 1)
        #expect(live.hint?.contains("h and it is suspended") == true, "\(live.hint ?? "")")
        live.perform(.event(.home), at: 2)
        live.perform(.event(.foreground), at: 3)
        #expect(live.state == .active)
        #expect(live.narration?.text.contains("The synth is still stopped, so nothing sounds") == true, "\(live.narration?.text ?? "")")
        // Through suspension: the release and the stopped synth, two sentences each.
        live.perform(.event(.home), at: 4)
        live.advance(to: 12)
        #expect(live.state == .suspended)
        live.perform(.event(.foreground), at: 13)
        let text = live.narration?.text ?? ""
        #expect(text.contains("delivered. Backbeat releases every voice") && text.contains("would hang. The synth is still stopped"), "\(text)")
    }

    /// Narration pieces join as sentences: a scenario's `say` without its full stop gets one.
    @Test func narrationJoinsSentences() {
        #expect(LiveSession.joined("after a cold launch", "Backbeat releases every voice.") == "after a cold launch. Backbeat releases every voice.")
        #expect(LiveSession.joined("“Delivered again.”", "The scenario has finished.") == "“Delivered again.” The scenario has finished.")
        #expect(LiveSession.sentence("Delivered again") == "Delivered again.")
    }

    /// Warnings: never a bare code; one whose cause is gone is shown as past; the strip has a legend.
    @Test func warningsHaveWordsAndGoWithTheirCause() {
        let live = LiveSession()
        live.perform(.keepAlive, at: 1)  // an empty player: keepalive-never-plays
        var block = LifecycleText.warnings(live, width: 60)
        let medium = (block.medium ?? []).compactMap { if case .text(let t, _, _) = $0 { t } else { nil } }.joined(separator: " ")
        #expect(medium.contains("keepalive-never-plays (the keep-alive player's content cannot play)"), "\(medium)")
        let compact = block.compact.compactMap { if case .text(let t, _, _) = $0 { t } else { nil } }.joined(separator: " ")
        #expect(compact.contains("keepalive-never-plays (P says why)"), "\(compact)")
        live.perform(.keepAlive, at: 2)  // near-silent: the empty player is gone
        live.perform(.keepAlive, at: 3)  // off
        block = LifecycleText.warnings(live, width: 60)
        let full = block.full.compactMap { if case .text(let t, _, _) = $0 { t } else { nil } }
        #expect(full.first == "warnings: none", "\(full)")
        #expect(full.contains { $0.contains("earlier, cause gone: keepalive-never-plays") }, "\(full)")
        let strip = LifecycleText.strip(width: 60, priority: 8).full
        let legend = strip.compactMap { if case .text(let t, _, _) = $0 { t } else { nil } }.joined(separator: " ")
        #expect(legend.contains("A active") && legend.contains("S suspended"), "\(legend)")
    }

    /// Idle, the workstation redraws only what changed: a second of the lifecycle clock redraws that panel
    /// alone; nothing changed, nothing is drawn; a key redraws everything.
    @Test func anIdleSecondRedrawsTheLifecyclePanelAlone() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        let layout = try #require(Layout.compute(width: 120, height: 40))
        var grid = Grid(width: 120, height: 40)
        w.tick(now: 0)
        #expect(w.drawChanges(into: &grid))
        w.tick(now: 0.5)
        #expect(!w.drawChanges(into: &grid), "nothing changed")
        // A mark in the monitor: a partial frame leaves it, a full one clears it.
        grid.set(layout.monitor.x + 3, layout.monitor.y + 5, "#", .normal)
        w.tick(now: 1.2)
        #expect(w.drawChanges(into: &grid))
        #expect(grid[layout.monitor.x + 3, layout.monitor.y + 5].scalar == ("#" as Unicode.Scalar).value, "only the lifecycle panel was drawn")
        let panel = (layout.lifecycle.y..<layout.lifecycle.maxY).map(grid.row).joined(separator: "\n")
        #expect(panel.contains("for 1 s"), "\(panel)")
        // The header's figures change (DSP load): the header alone.
        engine.load = 7.5
        w.tick(now: 1.8)
        #expect(w.drawChanges(into: &grid))
        #expect(grid.row(0).contains("DSP 7.5%"), "\(grid.row(0))")
        #expect(grid[layout.monitor.x + 3, layout.monitor.y + 5].scalar == ("#" as Unicode.Scalar).value, "only the header was drawn")
        w.handle(.char("p"), layout: layout, now: 1.9)  // pause the monitor
        w.tick(now: 1.9)
        #expect(w.drawChanges(into: &grid))
        #expect(grid[layout.monitor.x + 3, layout.monitor.y + 5].scalar != ("#" as Unicode.Scalar).value, "a full frame")
    }
}
