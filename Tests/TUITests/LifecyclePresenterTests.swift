@testable import Engine
import Lifecycle
import Testing
@testable import TUI

/// Wrapping without lost words, the panel at 120x36, the presenter view, panic and the resume release.
@Suite struct LifecyclePresenterTests {
    /// The words of a rectangle of the grid, row by row (border characters dropped).
    func words(_ g: Grid, _ rect: Rect) -> [String] {
        var out: [String] = []
        for y in rect.y..<rect.maxY {
            let row = String(g.row(y).dropFirst(rect.x).prefix(rect.width))
            for piece in row.split(separator: " ") {
                let frame = Set("|+-│┌┐└┘─")
                var word = String(piece)
                while let c = word.first, frame.contains(c) { word.removeFirst() }
                while let c = word.last, frame.contains(c) { word.removeLast() }
                if !word.isEmpty { out.append(word) }
            }
        }
        return out
    }

    /// Whether `needle`'s words appear in `haystack` one after another.
    func containsRun(_ haystack: [String], _ needle: String) -> Bool {
        let n = needle.split(separator: " ").map(String.init)
        guard n.count <= haystack.count else { return false }
        return (0...(haystack.count - n.count)).contains { i in Array(haystack[i..<(i + n.count)]) == n }
    }

    @Test func wrappingKeepsEveryWord() {
        let text = "interruption.began pauses every player of the session, so Backbeat's synth is silent until the app resumes it: supercalifragilisticexpialidocious-and-longer-than-a-line"
        for width in [8, 12, 20, 33, 46, 62, 118] {
            let lines = LifecycleText.wrap(text, width: width)
            #expect(lines.allSatisfy { $0.count <= width }, "width \(width): \(lines)")
            #expect(lines.joined(separator: " ").split(separator: " ").joined() == text.split(separator: " ").joined(), "width \(width)")
        }
        #expect(LifecycleText.wrap("a b c", width: 3, first: 1) == ["a", "b c"])
    }

    @Test func narrowPanelWrapsNarrationReasonsAndWarningsWhole() throws {
        let live = LiveSession()
        _ = live.perform(.keepAlive, at: 1)  // empty: keepalive-never-plays
        _ = live.perform(.toggleSynth, at: 2)
        _ = live.perform(.event(.home), at: 3)
        live.advance(to: 9)
        let rect = Rect(x: 0, y: 0, width: 64, height: 40)
        var g = Grid(width: 64, height: 40)
        LifecyclePanel.draw(live, into: &g, rect: rect, context: DrawContext(glyphs: .ascii, focused: true))
        let all = words(g, rect)
        let narration = try #require(live.narration?.text)
        #expect(narration.count > 62)
        #expect(containsRun(all, narration), "\(g.text)")
        #expect(containsRun(all, "keepalive-never-plays: " + WarningCode.keepaliveNeverPlays.explanation), "\(g.text)")
        for s in live.simulator.streamStatuses { #expect(containsRun(all, s.why), "\(s.name): \(s.why)\n\(g.text)") }
    }

    @Test func at120x36TheStreamsAndWarningsAreVisible() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        let layout = try #require(Layout.compute(width: 120, height: 36))
        while w.focus != .lifecycle { w.handle(.tab, layout: layout, now: 0) }
        w.handle(.char("1"), layout: layout, now: 0.1)  // an empty keep-alive player: a warning
        w.tick(now: 0.2)
        let g = render(w, 120, 36)
        let all = words(g, layout.lifecycle)
        #expect(containsRun(all, "streams: synth* jack alsa keys demo(off) keepalive"), "\(g.text)")
        #expect(containsRun(all, "warnings: keepalive-never-plays"), "\(g.text)")
        #expect(containsRun(all, "state active"), "\(g.text)")
        // The panel's narration is whole.
        #expect(containsRun(all, try #require(w.lifecycle.narration?.text)), "\(g.text)")
    }

    @Test func presenterViewFillsTheScreenAt120x36And80x24() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        w.handle(.char("P"), layout: Layout.compute(width: 120, height: 36), now: 0.1)
        #expect(w.presenter && w.focus == .lifecycle)
        w.handle(.char("h"), layout: nil, now: 0.2)  // lifecycle keys act in the presenter view
        w.tick(now: 1)
        var g = render(w, 120, 36)
        #expect(g.contains("Lifecycle presenter"))
        #expect(g.containsBig("background", ascii: false), "\(g.text)")
        #expect(g.contains("alive by synth"))
        #expect(g.row(2).contains("background for 0 s · alive by synth"), "the state in words beside the badge: \(g.row(2))")
        #expect(g.contains("callbacks as they fire"))
        #expect(g.contains("scenePhase.inactive, scenePhase.background"))
        let inner = Rect(x: 1, y: 2, width: 118, height: 32)
        var all = words(g, inner)
        let leftColumn = words(g, Rect(x: 1, y: 2, width: 71, height: 32))  // streams and warnings; callbacks on the right
        for s in w.lifecycle.simulator.streamStatuses { #expect(containsRun(leftColumn, s.why), "\(s.name)\n\(g.text)") }
        #expect(containsRun(all, try #require(w.lifecycle.narration?.text)), "\(g.text)")
        #expect(g.contains("Space pause · . step · - + speed"))
        #expect(g.row(35).contains("Presenter"))
        // Pause and speed from the presenter view.
        w.handle(.char(" "), layout: nil, now: 1.1)
        w.handle(.char("+"), layout: nil, now: 1.2)
        w.tick(now: 1.3)
        g = render(w, 80, 24)
        #expect(g.containsBig("background", ascii: false), "\(g.text)")
        #expect(g.contains("PAUSED · speed 2x"), "\(g.text)")
        all = words(g, Rect(x: 1, y: 2, width: 78, height: 20))
        #expect(containsRun(all, try #require(w.lifecycle.narration?.text)), "\(g.text)")
        for s in w.lifecycle.simulator.streamStatuses { #expect(containsRun(all, s.why), "\(s.name)\n\(g.text)") }
        #expect(containsRun(all, "warnings: silent-keepalive"), "\(g.text)")
        w.handle(.escape, layout: nil, now: 2)
        #expect(!w.presenter)
        #expect(render(w, 120, 36).contains("MIDI monitor"))
        #expect(InputMap.helpLines.contains { $0.contains("presenter view") })
    }

    @Test func panicSilencesEveryVoiceWhateverTheGate() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        w.handle(.char("!"), layout: nil, now: 0.1)
        #expect(engine.sent.last == .silenceAllVoices)
        #expect(w.statusMessage.hasPrefix("panic"))
        #expect(InputMap.helpLines.contains { $0.contains("panic: silence every voice now") })
    }

    @Test func resumeReleasesEveryVoiceBeforeTheGatesOpen() throws {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        let layout = Layout.compute(width: 200, height: 60)
        while w.focus != .lifecycle { w.handle(.tab, layout: layout, now: 0) }
        w.handle(.char("a"), layout: layout, now: 0.1)  // the synth stops: nothing keeps the app alive
        #expect(engine.gates == (true, false))
        w.handle(.char("h"), layout: layout, now: 0.2)
        w.tick(now: 6)
        #expect(w.lifecycle.state == .suspended && engine.gates == (false, false))
        w.handle(.char("a"), layout: layout, now: 6.1)  // a suspended app starts nothing
        w.handle(.char("f"), layout: layout, now: 6.2)
        w.handle(.char("a"), layout: layout, now: 6.3)
        let release = try #require(engine.journal.lastIndex(of: "releaseAllVoices"))
        let open = try #require(engine.journal.lastIndex(of: "gates true true"))
        #expect(release < open, "\(engine.journal)")
        #expect(engine.journal.filter { $0 == "releaseAllVoices" }.count == 1)
        #expect(render(w, 200, 60).contains("releases every voice"))
    }

    @Test func badgeCapitalsAreThreeRowsHighForEveryStateAndOneRowWhenNarrow() {
        for state in AppState.allCases {
            for ascii in [false, true] {
                let big = LifecyclePresenter.bigText(state.rawValue, ascii: ascii)
                #expect(big?.count == 3, "\(state) has big capitals")
                #expect(Set(big?.map(\.count) ?? []).count == 1, "\(state): rows of one width")
                #expect(!(big ?? []).joined().contains { $0.isLetter }, "\(state): drawn in strokes, not letters")
            }
        }
        #expect(LifecyclePresenter.bigText("active", ascii: true) == ["+-+ +-- -+- | | | +--", "+-+ |    |  | |++ +- ", "| | +--  |  | ++  +--"])
        let live = LiveSession()
        var g = Grid(width: 80, height: 24)
        LifecyclePresenter.draw(live, into: &g, rect: Rect(x: 0, y: 0, width: 80, height: 24), context: DrawContext(glyphs: .ascii, focused: true))
        #expect(g.containsBig("active", ascii: true), "\(g.text)")
        #expect((1...3).allSatisfy { g[2, $0].role == .badgeActive } && g[2, 4].role != .badgeActive)
        // Too narrow for the big capitals: the state in spaced capitals, still three rows of badge.
        g = Grid(width: 40, height: 24)
        LifecyclePresenter.draw(live, into: &g, rect: Rect(x: 0, y: 0, width: 40, height: 24), context: DrawContext(glyphs: .ascii, focused: true))
        #expect(g.row(2).contains("A C T I V E"), "\(g.text)")
    }
}

