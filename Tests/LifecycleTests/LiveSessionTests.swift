// LiveSession: the one live gating used by the workstation and by `backbeat --headless --scenario`.
import TestSupport
import Testing
@testable import Lifecycle

@Suite struct LiveSessionTests {
    static func scenario(_ text: String) throws -> Scenario { try Scenario.parse(text, file: "live.toml") }

    @Test func defaultAppPlaysAndTheSynthKeepsItAliveUntilTheKeyStopsIt() {
        let live = LiveSession()
        #expect(live.gates == LiveGates(midiDelivered: true, audioPlaying: true))
        #expect(live.hint?.contains("never suspended") == true, "\(live.hint ?? "")")
        #expect(live.hint?.contains("a stops the synth") == true)
        _ = live.perform(.event(.home), at: 1)
        live.advance(to: 30)
        #expect(live.state == .background, "the playing synth keeps the default app alive")
        #expect(live.simulator.aliveBy == ["synth"])
        _ = live.perform(.event(.foreground), at: 31)
        // One key away from a suspension: the synth stops, Backbeat is silent, home suspends 5 s later.
        #expect(live.perform(.toggleSynth, at: 32).hasPrefix("synth stopped"))
        #expect(live.gates == LiveGates(midiDelivered: true, audioPlaying: false))
        #expect(live.hint?.contains("nothing keeps the app alive: h and it is suspended") == true, "\(live.hint ?? "")")
        _ = live.perform(.event(.home), at: 33)
        live.advance(to: 38.5)
        #expect(live.state == .suspended)
        #expect(live.gates == LiveGates(midiDelivered: false, audioPlaying: false))
        #expect(live.perform(.toggleSynth, at: 39).hasPrefix("synth cannot play"), "a suspended app starts nothing")
    }

    @Test func interruptionPausesTheSynthAndEndedResumesIt() {
        let live = LiveSession()
        _ = live.perform(.event(.callIncoming), at: 1)
        #expect(live.state == .inactive)
        #expect(live.gates == LiveGates(midiDelivered: true, audioPlaying: false), "interruption.began pauses every player")
        _ = live.perform(.event(.callDeclined), at: 2)
        #expect(live.gates == LiveGates(midiDelivered: true, audioPlaying: true), "the default handler plays the synth on ended")
    }

    @Test func resumingAfterSuspensionReleasesEveryVoiceOnceAndSaysWhy() {
        let live = LiveSession()
        _ = live.perform(.toggleSynth, at: 0.5)
        _ = live.perform(.event(.home), at: 1)
        #expect(live.update(wall: 0).actions.isEmpty)
        live.advance(to: 7)
        #expect(live.state == .suspended)
        #expect(live.takeActions().isEmpty)
        _ = live.perform(.event(.foreground), at: 8)
        #expect(live.takeActions() == [.releaseAllVoices])
        #expect(live.takeActions().isEmpty, "once")
        let said = live.narration?.text ?? ""
        #expect(said.contains("releases every voice") && said.contains("note-offs sent while the app ran no code were lost"), "\(said)")
        // Terminated and launched again: the same.
        _ = live.perform(.event(.home), at: 9)
        live.advance(to: 15)
        _ = live.perform(.event(.terminate), at: 16)  // swiftui: unknown rule, state left; force with app-delegate
        _ = live.perform(.cycleStyle, at: 17)
        #expect(live.simulator.configuration.style == .appDelegate)
        _ = live.perform(.event(.terminate), at: 18)
        #expect(live.state == .terminated)
        _ = live.takeActions()
        _ = live.perform(.event(.launch), at: 19)
        #expect(live.takeActions() == [.releaseAllVoices])
    }

    @Test func narrationFollowsTheStateAfterAStepSaidSomething() throws {
        let live = LiveSession(scenario: try Self.scenario(fixtureText("scenarios/live-narration.toml")))
        live.advance(to: 9)
        #expect(live.narration == Narration(text: "Still within the 5 s grace: delivered", time: 8, fromScenario: true))
        live.advance(to: 10.5)
        #expect(live.state == .suspended)
        let n = try #require(live.narration)
        #expect(!n.fromScenario && n.time == 10)
        #expect(n.text.hasPrefix("Suspended: nothing keeps the app alive 5 s after didEnterBackground."), "\(n.text)")
        live.advance(to: 12)
        let last = try #require(live.narration?.text)
        #expect(last.hasPrefix("“Suspended at 10 s: this note is lost.” The scenario has finished"), "\(last)")
    }

    @Test func aScenarioLaunchedAtZeroOpensTheGatesAtTheFirstUpdate() throws {
        let live = LiveSession(scenario: try Self.scenario(fixtureText("scenarios/live-first-frame.toml")))
        #expect(live.state == .notRunning)
        #expect(live.gates == LiveGates(midiDelivered: false, audioPlaying: false))
        let first = live.update(wall: 100)
        #expect(live.state == .active)
        #expect(first.gates == LiveGates(midiDelivered: true, audioPlaying: true))
        #expect(first.actions.isEmpty, "the first launch has no voices to release")
    }

    @Test func clockRunsAtItsSpeedPausesAndStepsToTheNextChange() throws {
        let live = LiveSession(scenario: try Self.scenario(fixtureText("scenarios/live-clock.toml")))
        _ = live.update(wall: 50)
        _ = live.update(wall: 52)
        #expect(live.now == 2)
        _ = live.perform(.faster, wall: 52)
        #expect(live.speed == 2 && live.clockText == "speed 2x")
        _ = live.update(wall: 53)
        #expect(live.now == 4)
        _ = live.perform(.pause, wall: 53)
        _ = live.update(wall: 60)
        #expect(live.now == 4 && live.isPaused && live.clockText == "PAUSED · speed 2x")
        // Single steps: to the home step, to the suspension 5 s later (also the expectation's time).
        #expect(live.perform(.step, wall: 61).hasPrefix("stepped to 10.0 s: background"))
        #expect(live.narration?.text == "Home")
        #expect(live.perform(.step, wall: 62).hasPrefix("stepped to 15.0 s: suspended"))
        #expect(live.expectationsPassed == 1)
        #expect(live.scenarioFinished && live.finishedAt == 15)
        #expect(live.narration?.text.contains("The scenario has finished (1 of 1 expectations passed)") == true)
        #expect(live.perform(.step, wall: 63) == "paused: nothing more is scheduled")
        _ = live.perform(.pause, wall: 64)
        _ = live.perform(.slower, wall: 64)
        _ = live.perform(.slower, wall: 64)
        _ = live.update(wall: 66)
        #expect(live.now == 16 && live.speed == 0.5)
    }

    @Test func oneAudibilityThreshold() {
        #expect(abs(LiveSession.decibels(0.001) - -60) < 0.01)
        #expect(LiveSession.decibels(0) == -.infinity)
        let live = LiveSession()
        live.setSynthLevel(-59, at: 1)
        #expect(live.simulator.status(of: "synth")?.isAudible == true)
        live.setSynthLevel(-61, at: 2)
        #expect(live.simulator.status(of: "synth")?.isAudible == false)
        // The same through a frame's update.
        _ = live.update(wall: 0, synthLevelDB: -20, demoPlaying: true)
        #expect(live.simulator.status(of: "synth")?.isAudible == true)
        #expect(live.simulator.status(of: "demo")?.isOn == true)
    }

    @Test func withoutASynthStreamAudioFollowsTheState() throws {
        let live = LiveSession(scenario: try Self.scenario(fixtureText("scenarios/live-no-synth.toml")))
        live.advance(to: 2)
        #expect(live.gates == LiveGates(midiDelivered: true, audioPlaying: true))
    }

    /// A playing scenario owns the configuration and the virtual streams: every key that would change them
    /// answers so and changes nothing; the same keys act in the live setup.
    @Test func aScenarioRefusesEveryConfigurationKey() throws {
        let keys: [LifecycleKey] = [.cycleStyle, .cycleModes, .cycleCategory, .toggleMix, .keepAlive, .video, .location,
                                    .backgroundTask]
        let scripted = LiveSession(scenario: try Self.scenario(fixtureText("scenarios/live-scripted.toml")))
        scripted.advance(to: 1)
        let before = scripted.simulator.configuration
        for key in keys {
            #expect(key.changesConfiguration)
            #expect(scripted.perform(key, at: 1).contains("the scenario sets the configuration"), "\(key)")
        }
        #expect(scripted.simulator.configuration == before)
        let live = LiveSession()
        live.advance(to: 1)
        for key in keys {
            let configuration = live.simulator.configuration
            #expect(!live.perform(key, at: 1).contains("the scenario sets the configuration"), "\(key)")
            #expect(live.simulator.configuration != configuration, "\(key) changed nothing")
        }
        #expect(!LifecycleKey.toggleSynth.changesConfiguration && !LifecycleKey.event(.home).changesConfiguration)
    }
}


@Suite struct LiveSessionMIDIStepTests {
    @Test func midiStepsPlayTheirNoteWhenDeliveredAndAreCountedLostWhenSuspended() throws {
        let scenario = try Scenario.parse(fixtureText("scenarios/midi-steps-play-live.toml"), file: "midi.toml")
        let live = LiveSession(scenario: scenario)
        #expect(live.midiCounts == [MIDICount(stream: "keys")])
        var update = live.update(wall: 0)
        #expect(update.notes.isEmpty)
        update = live.update(wall: 1.0)
        #expect(update.gates.midiDelivered)
        #expect(update.notes == [.on(81)], "a delivered step plays its note")
        #expect(live.update(wall: 1.2).notes.isEmpty, "the note lasts a quarter second")
        #expect(live.update(wall: 1.3).notes == [.off(81)])
        #expect(live.midiCounts == [MIDICount(stream: "keys", delivered: 1, lost: 0)])
        update = live.update(wall: 8.0)
        #expect(live.state == .suspended)
        #expect(!update.gates.midiDelivered, "the gate is closed before the note is sent")
        #expect(update.notes == [.on(81)], "a suspended app's note is sent to be dropped at the engine's gate")
        #expect(live.update(wall: 8.5).notes.isEmpty, "no note off for a note that was lost")
        #expect(live.midiCounts == [MIDICount(stream: "keys", delivered: 1, lost: 1)])
        #expect(live.midiCountsText == "keys 1 delivered, 1 lost")
        #expect(live.update(wall: 10.0).notes == [.on(76)])
        #expect(live.midiCounts == [MIDICount(stream: "keys", delivered: 2, lost: 1)])
    }

    @Test func aStepOnAStoppedStreamIsLostAndNotSent() throws {
        let scenario = try Scenario.parse("""
            title = "off"
            lifecycle = "swiftui"
            [[streams]]
            name = "ble"
            kind = "midi-in"
            playing = false
            [[steps]]
            at = 0.0
            event = "launch"
            [[steps]]
            at = 1.0
            event = "midi:ble"
            note = 64
            """, file: "off.toml")
        let live = LiveSession(scenario: scenario)
        _ = live.update(wall: 0)
        let update = live.update(wall: 1)
        #expect(update.gates.midiDelivered, "the app is active: only the stream is off")
        #expect(update.notes.isEmpty, "the engine's gate is open, so a lost message is not sent")
        #expect(live.midiCounts == [MIDICount(stream: "ble", delivered: 0, lost: 1)])
    }

    @Test func backbeatsOwnAppHasNoScenarioCounters() {
        let live = LiveSession()
        #expect(live.midiCounts.isEmpty)
        #expect(live.midiCountsText == nil)
    }
}
