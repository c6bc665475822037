// Issue 11: the simulator tells the whole story: a run plays on after its last step, interruptions for every
// style and from other apps' audio, audio stopped without the audio mode, players paused on began, warnings
// once per line, handler-never-called, the PiP crash, wakes, MIDI out.
import Foundation
import TestSupport
import Testing
@testable import Lifecycle

func entries(_ run: ScenarioRun) -> [TimelineEntry] {
    run.lines.compactMap { if case .entry(let e) = $0 { e } else { nil } }
}

let playback = (modes: [BackgroundMode.audio], category: SessionCategory.playback)

// MARK: - Playing on after the last step

var homeLast: String { get throws { try fixtureText("scenarios/home-last.toml") } }

@Test func runPlaysOnUntilNothingIsScheduled() throws {
    let run = try Scenario.parse(homeLast, file: "h.toml").run()
    let last = try #require(entries(run).last)
    #expect(last.time == 35, "the 30 s task budget runs out after the last step")
    #expect(last.state == .terminated)
    #expect(last.callbacks == ["backgroundTask.expiration"])
    #expect(run.simulator.nextDeadline == nil)
}

@Test func suspensionAfterTheLastStepIsALine() throws {
    let text = "lifecycle = \"swiftui\"\n[[steps]]\nat = 0\nevent = \"launch\"\n[[steps]]\nat = 2\nevent = \"home\"\n"
    let lines = entries(try Scenario.parse(text, file: "s.toml").run())
    #expect(lines.map(\.state) == [.active, .background, .suspended])
    #expect(lines.last?.time == 7)
}

@Test func untilStopsEarlier() throws {
    let run = try Scenario.parse(homeLast + "\n", file: "h.toml").run()
    var scenario = try Scenario.parse(homeLast, file: "h.toml")
    scenario.until = 20
    let early = scenario.run()
    #expect(entries(early).last?.state == .background)
    #expect(early.simulator.now == 20)
    #expect(entries(run).count == entries(early).count + 1)
}

@Test func untilParsedAndExpectationsAfterTheLastStepEvaluated() throws {
    let text = try "until = 60.0\n" + homeLast + "\n[[expect]]\nat = 50\nstate = \"terminated\"\nwarnings = [\"background-task-expired\"]\n"
    let scenario = try Scenario.parse(text, file: "u.toml")
    #expect(scenario.until == 60)
    let run = scenario.run()
    #expect(run.passed, "\(run.failures.map(\.detail))")
    #expect(run.simulator.now == 60, "until later than the last change: the clock runs to it")
    var player = ScenarioPlayer(scenario)
    #expect(player.endTime == 60)
    _ = player.advance(to: 10)
}

@Test func endTimeWithoutUntilIsTheLastScheduledChange() throws {
    var player = ScenarioPlayer(try Scenario.parse(homeLast, file: "h.toml"))
    #expect(player.endTime == nil)
    _ = player.advance(to: 6)
    #expect(player.isFinished)
    #expect(player.endTime == 35)
}

// MARK: - Interruptions

@Test("call interruption: began pauses every player, with the reason in the public status", arguments: LifecycleStyle.allCases)
func callPausesPlayers(style: LifecycleStyle) {
    var sim = makeSimulator(style, modes: playback.modes, category: playback.category, active: true, streams: [
        StreamConfig(name: "synth", kind: .audioOutput, playing: true),
        StreamConfig(name: "loop", kind: .keepalivePlayer, content: .nearSilent, playing: true),
    ])
    sim.run(.launch)
    let began = sim.run(.callIncoming)
    #expect(began.callbacks.last == "interruption.began")
    #expect(sim.isInterrupted)
    for name in ["synth", "loop"] {
        let status = sim.status(of: name)
        #expect(status?.isOn == false && status?.isRunning == false)
        #expect(status?.pausedBy?.contains("interruption began") == true)
    }
    let entryStatus = began.streams.first { $0.name == "synth" }
    #expect(entryStatus?.pausedBy != nil, "the timeline line carries the statuses too")
    #expect(sim.run(.callDeclined).callbacks.last == "interruption.ended")
    #expect(!sim.isInterrupted)
}

@Test func noInterruptionForAnInactiveSession() {
    var sim = makeSimulator(.swiftui, modes: playback.modes, category: playback.category, active: false)
    sim.run(.launch)
    #expect(!sim.run(.callIncoming).callbacks.contains("interruption.began"))
}

func otherAudioSimulator(mix: Bool) -> LifecycleSimulator {
    var sim = makeSimulator(.scenes, modes: playback.modes, category: playback.category, options: mix ? [.mixWithOthers] : [],
                            active: true, streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)],
                            handlers: [Handler(on: .interruptionEnded, actions: [.activateSession, .play("synth")])])
    sim.run(.launch, .home)
    return sim
}

@Test func otherAudioInterruptsANonMixableSessionInBackground() {
    var sim = otherAudioSimulator(mix: false)
    #expect(sim.aliveBy == ["synth"])
    let began = sim.run(.otherAudioStart)
    #expect(began.callbacks == ["interruption.began"])
    #expect(sim.status(of: "synth")?.pausedBy?.contains("another app") == true)
    #expect(began.aliveBy == [])
    let ended = sim.run(.otherAudioStop)
    #expect(ended.callbacks == ["interruption.ended"], "with shouldResume")
    #expect(ended.aliveBy == ["synth"], "the handler resumed it")
}

@Test func otherAudioDoesNotInterruptAMixingSession() {
    var sim = otherAudioSimulator(mix: true)
    let start = sim.run(.otherAudioStart)
    #expect(start.callbacks.isEmpty)
    #expect(start.notes.contains { $0.contains("mixWithOthers") })
    #expect(sim.aliveBy == ["synth"])
    #expect(sim.run(.otherAudioStop).callbacks.isEmpty)
}

@Test func otherAudioDoesNotInterruptTheForegroundApp() {
    var sim = makeSimulator(modes: playback.modes, category: playback.category, active: true,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)])
    sim.run(.launch)
    #expect(sim.run(.otherAudioStart).callbacks.isEmpty)
    #expect(sim.status(of: "synth")?.isRunning == true)
}

@Test func eventSpellings() {
    #expect(LifecycleEvent(parsing: "other-audio-start") == .otherAudioStart)
    #expect(LifecycleEvent.otherAudioStop.description == "other-audio-stop")
    #expect(LifecycleEvent.accepted.contains("other-audio-start"))
}

// MARK: - Audio without the audio background mode

@Test func audioWithoutTheAudioModeStopsAtDidEnterBackground() {
    var sim = makeSimulator(.swiftui, category: .playback, active: true,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)])
    sim.run(.launch)
    #expect(sim.status(of: "synth")?.isRunning == true)
    let home = sim.run(.home)
    let status = sim.status(of: "synth")
    #expect(status?.isOn == false)
    #expect(status?.pausedBy?.contains("without the audio background mode") == true)
    #expect(status?.why.contains("paused") == true)
    #expect(home.notes.contains { $0.contains("synth paused") })
    #expect(home.warnings.map(\.code) == [.missingBackgroundMode])
    let later = sim.advance(to: sim.now + 5)
    #expect(later.last?.state == .suspended, "it does not keep the app alive")
    sim.run(.foreground)
    #expect(sim.status(of: "synth")?.isOn == false, "the app must start it again")
    sim.run(.streamStart("synth"))
    #expect(sim.status(of: "synth")?.pausedBy == nil)
}

@Test func audioCannotStartInBackgroundWithoutTheMode() {
    var sim = makeSimulator(category: .playback, options: [.mixWithOthers], streams: [StreamConfig(name: "synth", kind: .audioOutput)],
                            handlers: [Handler(on: .applicationDidEnterBackground, actions: [.play("synth")])])
    let home = sim.run(.launch, .home)
    #expect(sim.status(of: "synth")?.isOn == false)
    #expect(home.warnings.map(\.code) == [.missingBackgroundMode])
}

// MARK: - Warnings

@Test func eachCodeOncePerLineAndSorted() {
    var sim = makeSimulator(modes: [], category: .ambient, active: true, streams: [
        StreamConfig(name: "a", kind: .audioOutput, playing: true), StreamConfig(name: "b", kind: .audioOutput, playing: true),
        StreamConfig(name: "v", kind: .videoPlayer, content: .audible, playing: true),
    ])
    let home = sim.run(.launch, .home)
    let codes = home.warnings.map(\.code)
    #expect(codes == [.categoryCannotBackground, .missingBackgroundMode, .videoAutopaused])
    let missing = home.warnings.first { $0.code == .missingBackgroundMode }
    #expect(missing?.message.contains("a stopped") == true && missing?.message.contains("b stopped") == true, "both causes told")
    #expect(missing?.stream == nil)
    let json = TimelineFormat.json(.entry(home))
    #expect(json.contains(#""warnings":["category-cannot-background","missing-background-mode","video-autopaused"]"#))
}

struct NeverCalledCase: Sendable, CustomTestStringConvertible {
    var style: LifecycleStyle
    var on: Callback
    var adaptor = false
    var codes: [WarningCode]
    var testDescription: String { "\(on.rawValue) in \(style.rawValue)\(adaptor ? " with adaptor" : "")" }
}

let neverCalledCases: [NeverCalledCase] = [
    .init(style: .appDelegate, on: .sceneDidEnterBackground, codes: [.handlerNeverCalled]),
    .init(style: .swiftui, on: .sceneWillResignActive, codes: [.handlerNeverCalled]),
    .init(style: .appDelegate, on: .scenePhaseBackground, codes: [.handlerNeverCalled]),
    .init(style: .scenes, on: .scenePhaseActive, codes: [.handlerNeverCalled]),
    .init(style: .swiftui, on: .didFinishLaunching, codes: [.handlerNeverCalled]),
    .init(style: .swiftui, on: .applicationWillTerminate, codes: [.handlerNeverCalled]),
    .init(style: .swiftui, on: .applicationWillTerminate, adaptor: true, codes: []),
    .init(style: .swiftui, on: .didFinishLaunching, adaptor: true, codes: []),
    .init(style: .swiftui, on: .applicationDidEnterBackground, codes: [.notCalledWithScenes]),
    .init(style: .swiftui, on: .applicationDidEnterBackground, adaptor: true, codes: [.notCalledWithScenes]),
    .init(style: .scenes, on: .applicationWillResignActive, codes: [.notCalledWithScenes]),
    .init(style: .scenes, on: .sceneDidEnterBackground, codes: []),
    .init(style: .scenes, on: .applicationWillTerminate, codes: []),
    .init(style: .appDelegate, on: .applicationDidEnterBackground, codes: []),
    .init(style: .swiftui, on: .interruptionBegan, codes: []),
]

@Test("handler-never-called and not-called-with-scenes: one code per cause", arguments: neverCalledCases)
func neverCalled(c: NeverCalledCase) {
    let sim = LifecycleSimulator(configuration: LifecycleConfiguration(
        style: c.style, handlers: [Handler(on: c.on, actions: [.beginBackgroundTask])], appDelegateAdaptor: c.adaptor))
    #expect(sim.raisedWarnings.map(\.code) == c.codes)
    #expect(sim.raisedWarnings.allSatisfy { $0.message.contains(c.on.rawValue) })
}

@Test func neverCalledHandlerReallyNeverRuns() {
    var sim = makeSimulator(.appDelegate, handlers: [Handler(on: .sceneDidEnterBackground, actions: [.beginBackgroundTask])])
    sim.run(.launch, .home)
    _ = sim.advance(to: 100)
    #expect(sim.state == .suspended, "the task never began")
}

// MARK: - PiP crash

@Test func detachOnPiPStartCrashesTheApp() {
    var sim = situation(raising: .pipDetachConflict)
    #expect(sim.state == .terminated)
    let entry = sim.raisedWarnings.first { $0.code == .pipDetachConflict }
    #expect(entry?.message.contains("crashes") == true)
    var again = makeSimulator(.scenes, modes: [.audio], category: .playback,
                              streams: [StreamConfig(name: "v", kind: .videoPlayer, content: .audible, playing: true)],
                              handlers: [Handler(on: .sceneDidEnterBackground, actions: [.detachVideo("v"), .beginBackgroundTask])])
    let crash = again.run(.launch, .pipStart)
    #expect(crash.state == .terminated)
    #expect(crash.reason?.contains("crashed") == true && crash.reason?.contains("Picture in Picture") == true)
    #expect(again.status(of: "background-task")?.isOn == false, "nothing after the crash runs")
    #expect(again.nextDeadline == nil)
    sim.run(.launch)
    #expect(sim.state == .active)
}

@Test func detachOnHomeWarnsButDoesNotCrash() {
    var sim = makeSimulator(.scenes, modes: [.audio], category: .playback,
                            streams: [StreamConfig(name: "v", kind: .videoPlayer, content: .audible, playing: true)],
                            handlers: [Handler(on: .sceneDidEnterBackground, actions: [.detachVideo("v")])])
    let home = sim.run(.launch, .home)
    #expect(home.warnings.map(\.code) == [.pipDetachConflict])
    #expect(home.state == .background)
    #expect(sim.aliveBy == ["v"])
}

// MARK: - Wakes

@Test("a terminated app is not woken", arguments: [LifecycleEvent.silentPush, .bleEvent("ble")])
func terminatedAppNotWoken(event: LifecycleEvent) {
    var sim = makeSimulator(modes: [.remoteNotification, .bluetoothCentral], streams: [StreamConfig(name: "ble", kind: .bluetooth)])
    sim.run(.launch, .home)
    _ = sim.advance(to: sim.now + 10)
    sim.run(.terminate)
    let e = sim.run(event)
    #expect(e.state == .terminated)
    #expect(e.delivered == false)
    #expect(e.notes.contains { $0.contains("not delivered") && $0.contains("only launch") })
    #expect(TimelineFormat.json(.entry(e)).contains(#""delivered":false"#))
}

@Test func aSecondWakeEventRestartsTheWindow() {
    var sim = makeSimulator(modes: [.bluetoothCentral], streams: [StreamConfig(name: "ble", kind: .bluetooth)])
    _ = sim.apply(.launch, at: 0)
    _ = sim.apply(.home, at: 1)
    _ = sim.advance(to: 20)
    #expect(sim.apply(.bleEvent("ble"), at: 20).last?.delivered == true)
    let second = sim.apply(.bleEvent("ble"), at: 27).last
    #expect(second?.notes.contains { $0.contains("restarts") } == true)
    sim.expectSuspension(at: 37, stillInBackgroundAt: 36.9)
}

// MARK: - MIDI out

@Test func midiOutSendsAndPortsPlayByDefault() throws {
    let text = "lifecycle = \"swiftui\"\n[[streams]]\nname = \"out\"\nkind = \"midi-out\"\n[[steps]]\nat = 0\nevent = \"launch\"\n"
        + "[[steps]]\nat = 1\nevent = \"midi:out\"\n[[steps]]\nat = 2\nevent = \"home\"\n[[steps]]\nat = 10\nevent = \"midi:out\"\n"
    let scenario = try Scenario.parse(text, file: "m.toml")
    #expect(scenario.configuration.streams[0].playing)
    let delivered = entries(scenario.run()).compactMap(\.delivered)
    #expect(delivered == [true, false], "sent while running, lost once suspended")
    let off = try Scenario.parse(text.replacingOccurrences(of: "kind = \"midi-out\"\n", with: "kind = \"midi-out\"\nplaying = false\n"), file: "m.toml")
    #expect(off.configuration.streams[0].playing == false)
    #expect(StreamConfig(name: "k", kind: .midiIn).playing)
    #expect(!StreamConfig(name: "s", kind: .audioOutput).playing)
}
