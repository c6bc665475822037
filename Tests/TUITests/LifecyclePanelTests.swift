@testable import Engine
import MIDI
import Lifecycle
import TestSupport
import Testing
@testable import TUI

@Suite struct LifecyclePanelTests {
    func panel(_ live: LiveSession, width: Int = 120, height: Int = 30) -> Grid {
        var g = Grid(width: width, height: height)
        LifecyclePanel.draw(live, into: &g, rect: Rect(x: 0, y: 0, width: width, height: height),
                            context: DrawContext(glyphs: .ascii, focused: true))
        return g
    }
    func text(_ g: Grid) -> String { (0..<g.height).map(g.row).joined(separator: "\n") }
    func row(_ g: Grid, containing s: String) -> String? { (0..<g.height).map(g.row).first { $0.contains(s) } }

    @Test func launchedWithBackbeatsStreamsAndDefaults() throws {
        let live = LiveSession()
        live.advance(to: 2)
        let narrow = panel(live, width: 64)
        #expect(narrow.contains(" active ") && narrow.contains(" now"), "\(text(narrow))")
        let g = panel(live)
        #expect(g.contains(" active "))
        #expect(g.contains("for 2 s"))
        #expect(g.contains("swiftui · modes [audio] · playback · mixWithOthers off"), "\(text(g))")
        #expect(g.contains("scenePhase.active"))
        for name in ["synth", "jack", "alsa", "keys", "demo"] { #expect(row(g, containing: name + " ") != nil, "\(name)") }
        let synth = try #require(row(g, containing: "synth      audio-output"))
        #expect(synth.contains("yes  yes"), "\(synth)")  // running, would keep alive
        let jack = try #require(row(g, containing: "jack       midi-in"))
        #expect(jack.contains("no MIDI background mode"))
        #expect(g.contains("warnings: none"))
        // A narrow, tall panel: each why on lines of its own, whole.
        let tall = panel(live, width: 64, height: 40)
        #expect(tall.contains("    there is no MIDI background mode: MIDI stops when the"), "\(text(tall))")
    }

    @Test func homeBackgroundsThenSuspendsWithoutAKeepAlive() throws {
        let live = LiveSession()
        // Backbeat's synth keeps it alive while it plays: stop it by the category, which cannot background.
        _ = live.perform(.cycleCategory, at: 1)  // playback -> record
        let message = live.perform(.event(.home), at: 2)
        #expect(message.contains("scenePhase.inactive, scenePhase.background → background"), "\(message)")
        live.advance(to: 4)
        var g = panel(live)
        #expect(g.contains(" background "))
        #expect(g.contains("for 2 s"))
        let synth = try #require(row(g, containing: "synth      audio-output"))
        #expect(synth.contains("category record cannot play in background"), "\(synth)")
        live.advance(to: 7.5)
        #expect(live.state == .suspended)
        g = panel(live)
        #expect(g.contains(" suspended "))
        #expect(live.simulator.midiInputDelivered == false && live.simulator.audioOutputPlays == false)
        // The strip: A for the first seconds, B, then S; newest on the right.
        let strip = try #require(row(g, containing: " now"))
        #expect(strip.contains("AABBBBBS now"), "\(strip)")
        #expect(strip.hasPrefix("|-60s "))
        _ = live.perform(.event(.foreground), at: 8)
        #expect(panel(live).contains(" active "))
    }

    @Test func emptyKeepAliveWarnsAndNearSilentKeepsAlive() throws {
        let live = LiveSession(configuration: LifecycleConfiguration(style: .swiftui, backgroundModes: [.audio], category: .playback,
                                                                       options: [.mixWithOthers]))
        _ = live.perform(.keepAlive, at: 1)  // empty
        var g = panel(live, width: 120)
        #expect(g.contains("keepalive-never-plays: the keep-alive player's content cannot play"), "\(text(g))")
        _ = live.perform(.keepAlive, at: 2)  // near-silent
        _ = live.perform(.event(.home), at: 3)
        live.advance(to: 20)
        #expect(live.state == .background)
        g = panel(live, width: 120)
        #expect(g.contains("alive by keepalive"))
        #expect(g.contains("silent-keepalive:"), "\(text(g))")
        let row = try #require(self.row(g, containing: "keepalive  keepalive-player"))
        #expect(row.contains("yes  yes"), "\(row)")
    }

    @Test func videoAttachedIsAutopausedDetachedKeepsAlive() throws {
        let live = LiveSession()
        _ = live.perform(.cycleCategory, at: 0.5)  // record: the synth cannot keep the app alive
        _ = live.perform(.cycleCategory, at: 0.6)  // playAndRecord: it can again
        _ = live.perform(.video, at: 1)  // attached
        _ = live.perform(.event(.home), at: 2)
        var g = panel(live)
        #expect(g.contains("video-autopaused:"), "\(text(g))")
        _ = live.perform(.event(.foreground), at: 3)
        _ = live.perform(.video, at: 4)  // playing again, attached
        #expect(live.perform(.video, at: 5) == "video player detached from its layer")
        _ = live.perform(.event(.home), at: 6)
        g = panel(live)
        let row = try #require(self.row(g, containing: "video      video-player"))
        #expect(row.contains("detached from its layer"), "\(row)")
        #expect(live.simulator.aliveBy.contains("video"))
        // Location and a background task, switched on by keys.
        #expect(live.perform(.location, at: 7).hasPrefix("location updates on"))
        #expect(live.perform(.backgroundTask, at: 8).hasPrefix("background task on"))
        #expect(live.simulator.aliveBy.contains("task"))
    }

    @Test func synthAudibilityFollowsTheMeterLevel() {
        let live = LiveSession()
        live.setSynthLevel(-20, at: 1)
        #expect(live.simulator.status(of: "synth")?.isAudible == true)
        live.setSynthLevel(-80, at: 2)
        #expect(live.simulator.status(of: "synth")?.isAudible == false)
    }

    @Test func otherAppsAudioInterruptsTheSessionInBackgroundAndEndsOnTheSecondPress() {
        let live = LiveSession()
        live.perform(.event(.home), at: 1)
        let began = live.perform(.otherAppAudio, at: 2)
        #expect(!began.hasPrefix("unknown rule"))
        #expect(live.simulator.isInterrupted)
        #expect(live.otherAppAudioPlaying)
        live.perform(.otherAppAudio, at: 3)
        #expect(!live.otherAppAudioPlaying)
        #expect(!live.simulator.isInterrupted)
    }

    @Test func scenarioPlaysWithNarrationAndExpectations() throws {
        let scenario = try Scenario.parse(fixtureText("scenarios/short-with-narration.toml"), file: "short.toml")
        let live = LiveSession(scenario: scenario)
        live.advance(to: 0.5)
        var g = panel(live)
        #expect(g.contains("Lifecycle: short"))
        #expect(g.contains("“The user opens the app”"))
        #expect(live.perform(.cycleStyle, at: 0.6).contains("the scenario sets the configuration"))
        live.advance(to: 3)
        #expect(panel(live).contains("“Home: nothing keeps it alive”"))
        // Suspended at 6 s: the narration follows the state instead of keeping the step's words.
        live.advance(to: 6.5)
        g = panel(live)
        #expect(g.contains(" suspended "))
        #expect(!g.contains("“Home: nothing keeps it alive”"), "\(text(g))")
        #expect(g.contains("Suspended: nothing keeps the app alive 5 s after didEnterBackground."), "\(text(g))")
        #expect(!live.scenarioFinished)
        live.advance(to: 7.5)
        g = panel(live)
        #expect(g.contains("expect 1 ok"))
        #expect(live.scenarioFinished)
        #expect(g.contains("The scenario has finished (1 of 1 expectations passed)"), "\(text(g))")
        #expect(g.contains("scenario finished at 7.0 s: 1 of 1 expectations passed"), "\(text(g))")
    }

    @Test func workstationGatesTheEngineAndTheBadgeFollows() {
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings())
        w.tick(now: 0)
        #expect(engine.gates == (true, true))
        // Tab to the lifecycle panel, g (category record: the synth cannot keep it alive), h (home).
        let layout = Layout.compute(width: 200, height: 60)
        while w.focus != .lifecycle { w.handle(.tab, layout: layout, now: 0) }
        w.handle(.char("g"), layout: layout, now: 0.1)
        w.handle(.char("h"), layout: layout, now: 0.2)
        w.tick(now: 0.7)
        var g = render(w, 200, 60)
        #expect(g.row(0).hasSuffix(" background "), "\(g.row(0))")
        w.tick(now: 6)
        #expect(engine.gates == (false, false))
        g = render(w, 200, 60)
        #expect(g.row(0).hasSuffix(" suspended "))
        w.handle(.char("f"), layout: layout, now: 6.1)
        w.tick(now: 6.6)
        #expect(engine.gates == (true, true))
        #expect(render(w, 200, 60).row(0).hasSuffix(" active "))
    }

    @Test func helpListsTheLifecycleKeys() {
        let lines = InputMap.helpLines.joined(separator: "\n")
        #expect(lines.contains("Lifecycle"))
        #expect(lines.contains("home / lock"))
        #expect(InputMap.command(for: .char("h"), focus: .lifecycle, playMode: false) == .lifecycle(.event(.home)))
        #expect(InputMap.command(for: .char("4"), focus: .lifecycle, playMode: false) == .lifecycle(.backgroundTask))
    }

    /// The lifecycle keys come from one table: letters are case-sensitive, two keys may share an action,
    /// and anything else (another letter, a named key) does nothing.
    @Test func lifecycleKeysFromTheTable() {
        func command(_ key: Key) -> Command? { InputMap.command(for: key, focus: .lifecycle, playMode: false) }
        #expect(command(.char("l")) == .lifecycle(.event(.lock)))
        #expect(command(.char("L")) == .lifecycle(.event(.launch)))
        #expect(command(.char("+")) == .lifecycle(.faster) && command(.char("=")) == .lifecycle(.faster))
        #expect(command(.char("o")) == .lifecycle(.otherAppAudio))
        #expect(command(.char("z")) == nil)
        #expect(command(.enter) == nil)
    }
}

@Suite struct LifecyclePanelMIDICountTests {
    @Test func panelAndPresenterShowPerStreamDeliveredAndLost() throws {
        let scenario = try Scenario.parse(fixtureText("scenarios/midi-steps-play-live.toml"), file: "midi.toml")
        let live = LiveSession(scenario: scenario)
        _ = live.update(wall: 0)
        func panel() -> Grid {
            var g = Grid(width: 120, height: 30)
            LifecyclePanel.draw(live, into: &g, rect: Rect(x: 0, y: 0, width: 120, height: 30), context: DrawContext(glyphs: .ascii, focused: true))
            return g
        }
        func presenter(_ width: Int, _ height: Int) -> Grid {
            var g = Grid(width: width, height: height)
            LifecyclePresenter.draw(live, into: &g, rect: Rect(x: 0, y: 0, width: width, height: height), context: DrawContext(glyphs: .ascii, focused: true))
            return g
        }
        #expect(panel().contains("MIDI keys 0 delivered, 0 lost"))
        _ = live.update(wall: 1)
        #expect(panel().contains("MIDI keys 1 delivered, 0 lost"))
        _ = live.update(wall: 8)
        #expect(panel().contains("MIDI keys 1 delivered, 1 lost"))
        for (w, h) in [(120, 36), (80, 24)] {
            let g = presenter(w, h)
            #expect(g.contains("MIDI keys 1 delivered, 1 lost"), "presenter \(w)x\(h)")
            #expect(g.contains("“A note while suspended: lost”"), "presenter \(w)x\(h): the last say line")
            // The badge: the state in capitals three rows high in the badge colour.
            #expect(g.containsBig("suspended", ascii: true), "\(g.text)")
            #expect((1...3).allSatisfy { g[2, $0].role == .badgeWarning })
            #expect(g[2, 4].role != .badgeWarning)
        }
        // In background with nothing keeping it alive, the presenter says so beside the badge.
        let early = LiveSession(scenario: scenario)
        _ = early.update(wall: 0)
        _ = early.update(wall: 2.5)
        #expect(early.state == .background)
        var g = Grid(width: 120, height: 36)
        LifecyclePresenter.draw(early, into: &g, rect: Rect(x: 0, y: 0, width: 120, height: 36), context: DrawContext(glyphs: .ascii, focused: true))
        #expect(g.row(1).contains("nothing keeps it alive"), "\(g.row(1))")
    }

    @Test func workstationSendsScenarioNotesAfterTheGatesThroughTheKeyboardRing() throws {
        let scenario = try Scenario.parse(fixtureText("scenarios/midi-steps-play-live.toml"), file: "midi.toml")
        let engine = FakeEngine()
        let w = Workstation(engine: engine, settings: WorkstationSettings(), lifecycle: LiveSession(scenario: scenario))
        w.tick(now: 0)
        w.tick(now: 1.0)
        let on = ControlEvent.midi(ShortMessage(status: 0x90, data1: 81, data2: 100), .keyboard)
        let off = ControlEvent.midi(ShortMessage(status: 0x80, data1: 81, data2: 0), .keyboard)
        #expect(engine.sent == [on])
        w.tick(now: 1.3)
        #expect(engine.sent == [on, off], "the note lasts a quarter second")
        w.tick(now: 8.0)
        #expect(engine.sent == [on, off, on], "the suspended app's note is sent, to be dropped at the gate")
        // The gate closed (suspended at 7 s) before the lost note went into the ring.
        let closed = try #require(engine.journal.lastIndex(of: "gates false false"))
        let lost = try #require(engine.journal.lastIndex(of: "\(on)"))
        #expect(closed < lost, "\(engine.journal)")
        #expect(render(w, 200, 60).contains("MIDI keys 1 delivered, 1 lost"))
    }
}

