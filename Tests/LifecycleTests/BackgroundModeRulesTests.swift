// docs/lifecycle-rules.md, "Every background mode": each rule of 3b, and the warnings it raises.
import Testing
@testable import Lifecycle

/// Launched, sent home and left until suspended (6 s later).
func suspendedApp(_ style: LifecycleStyle = .appDelegate, modes: [BackgroundMode], handlers: [Handler] = [],
                  streams: [StreamConfig] = []) -> LifecycleSimulator {
    var sim = makeSimulator(style, modes: modes, streams: streams, handlers: handlers)
    sim.run(.launch, .home)
    _ = sim.advance(to: sim.now + 6)
    precondition(sim.state == .suspended)
    return sim
}

@Test func voipPushReportedKeepsTheAppAliveWhileTheCallRings() {
    var sim = suspendedApp(modes: [.voip], handlers: [Handler(on: .pushkitIncoming, actions: [.reportCall])])
    let e = sim.run(.voipPush)
    #expect(e.callbacks == ["pushkit.incoming"])
    #expect(e.delivered == true)
    #expect(sim.state == .background)
    #expect(sim.aliveBy == ["callkit"])
    _ = sim.advance(to: sim.now + 60)
    #expect(sim.state == .background, "alive as long as the call rings")
    sim.run(.callAnswered)
    sim.run(.callEnded)
    #expect(sim.aliveBy.isEmpty)
    _ = sim.advance(to: sim.now + 6)
    #expect(sim.state == .suspended)
    #expect(!sim.codes.contains(.voipPushNotReported))
}

@Test func voipPushNotReportedTerminates() {
    var sim = suspendedApp(modes: [.voip], handlers: [Handler(on: .pushkitIncoming, actions: [])])
    let e = sim.run(.voipPush)
    #expect(sim.state == .terminated)
    #expect(e.warnings.map(\.code) == [.voipPushNotReported])
    #expect(e.reason?.contains("CallKit") == true)
}

@Test func voipPushWithoutTheModeIsNotDelivered() {
    var sim = suspendedApp(modes: [], handlers: [Handler(on: .pushkitIncoming, actions: [.reportCall])])
    let e = sim.run(.voipPush)
    #expect(e.delivered == false)
    #expect(sim.state == .suspended)
    #expect(e.notes.contains { $0.contains("no voip background mode") })
}

@Test func pushToTalkIsAliveWhileTheTransmissionPlays() {
    var sim = suspendedApp(modes: [.pushToTalk], streams: [StreamConfig(name: "keys", kind: .midiIn)])
    sim.run(.pttPush)
    #expect(sim.aliveBy == ["push-to-talk"])
    #expect(sim.delivers(midiOn: "keys"))
    _ = sim.advance(to: sim.now + LifecycleSimulator.transmissionDuration - 0.5)
    #expect(sim.state == .background)
    let end = sim.advance(to: sim.now + 1)
    #expect(sim.state == .suspended)
    #expect(end.last?.reason?.contains("transmission ended") == true)
}

@Test func accessoryEventWakesLikeBluetooth() {
    var sim = suspendedApp(modes: [.externalAccessory], streams: [StreamConfig(name: "pedal", kind: .accessory)])
    sim.run(.accessoryEvent("pedal"))
    #expect(sim.state == .background)
    #expect(sim.aliveBy.isEmpty, "an accessory keeps nothing alive")
    _ = sim.advance(to: sim.now + LifecycleSimulator.wakeDuration + 0.1)
    #expect(sim.state == .suspended)
    var without = suspendedApp(modes: [.bluetoothCentral], streams: [StreamConfig(name: "pedal", kind: .accessory)])
    #expect(without.run(.accessoryEvent("pedal")).delivered == false)
}

@Test func backgroundFetchRunsUpTo30sAndCompleteEndsIt() {
    var plain = suspendedApp(modes: [.fetch])
    plain.run(.backgroundFetch)
    _ = plain.advance(to: plain.now + 29)
    #expect(plain.state == .background)
    _ = plain.advance(to: plain.now + 2)
    #expect(plain.state == .suspended)

    var completing = suspendedApp(modes: [.fetch], handlers: [Handler(on: .performFetch, actions: [.complete])])
    let e = completing.run(.backgroundFetch)
    #expect(e.callbacks == ["performFetch"])
    #expect(completing.state == .suspended, "complete ends the window at once")
}

@Test func silentPushHandledRunsUpTo30sAndLaunchesANotRunningApp() {
    var handled = suspendedApp(modes: [.remoteNotification], handlers: [Handler(on: .didReceiveRemoteNotification, actions: [])])
    handled.run(.silentPush)
    _ = handled.advance(to: handled.now + 20)
    #expect(handled.state == .background, "handled: up to 30 s, not 10")

    var notRunning = makeSimulator(.scenes, modes: [.remoteNotification])
    let e = notRunning.apply(.silentPush, at: 1).last!
    #expect(notRunning.state == .background, "launched into background")
    #expect(e.callbacks == ["didFinishLaunching", "didReceiveRemoteNotification"], "no scene connects")
    #expect(e.reason?.contains("launched into background") == true)
    var swiftui = makeSimulator(.swiftui, modes: [.remoteNotification])
    #expect(swiftui.apply(.silentPush, at: 1).last!.callbacks.isEmpty, "no scenePhase becomes active, and without an adaptor no delegate hears the push")
    #expect(swiftui.state == .background)
}

@Test func silentPushDoesNotRelaunchAForceQuitApp() {
    var sim = suspendedApp(modes: [.remoteNotification])
    sim.run(.terminate)
    #expect(sim.run(.silentPush).delivered == false)
    #expect(sim.state == .terminated)
}

@Test func didReceiveRemoteNotificationNeedsTheAdaptorInSwiftUI() {
    let sim = makeSimulator(.swiftui, modes: [.remoteNotification], handlers: [Handler(on: .didReceiveRemoteNotification, actions: [.complete])])
    #expect(sim.codes.contains(.handlerNeverCalled))
}

@Test func processingTaskRunsToItsAssumedBudget() {
    var config = LifecycleConfiguration(backgroundModes: [.processing], handlers: [Handler(on: .processingTaskExpiration, actions: [])])
    config.processingBudget = 60
    var sim = LifecycleSimulator(configuration: config)
    sim.run(.launch, .home)
    _ = sim.advance(to: sim.now + 6)
    let start = sim.run(.processingStart)
    #expect(start.callbacks == ["processingTask"])
    #expect(sim.aliveBy == ["processing-task"])
    _ = sim.advance(to: sim.now + 59)
    #expect(sim.state == .background)
    let end = sim.advance(to: sim.now + 2)
    #expect(end.last?.callbacks == ["processingTask.expiration"])
    #expect(sim.state == .suspended)
    #expect(end.last?.reason?.contains("assumed") == true)

    var ending = suspendedApp(modes: [.processing], handlers: [Handler(on: .processingTask, actions: [.endProcessingTask])])
    ending.run(.processingStart)
    #expect(ending.state == .suspended, "end-processing-task: suspended at once")
}

@Test func newsstandRaisesDeprecatedMode() {
    let sim = makeSimulator(modes: [.newsstandContent])
    #expect(sim.codes.contains(.deprecatedMode))
}

// Issue 36, rules 3b: a mode with no rule is said to be "not modelled" by the simulator too, not only by
// `lifecycle check`: the timeline's first line notes it with what Apple says it grants.
@Test func aModeNotModelledIsSaidOnTheFirstLineOfTheTimeline() throws {
    let text = """
    title = "nearby"
    lifecycle = "swiftui"
    background_modes = ["audio", "nearby-interaction"]
    [[steps]]
    at = 0
    event = "launch"
    [[steps]]
    at = 1
    event = "home"
    """
    let run = try Scenario.parse(text, file: "nearby.toml").run()
    let entries = run.lines.compactMap { if case .entry(let e) = $0 { e } else { nil } }
    let said = "nearby-interaction is not modelled: Apple says Nearby Interaction sessions with an accessory continue in background (iOS 16 on); no rule for it is simulated"
    #expect(entries.first?.event == "launch")
    #expect(entries.first?.notes == [said], "\(entries.first?.notes ?? [])")
    #expect(entries.dropFirst().allSatisfy { !$0.notes.contains(said) }, "said once")
    #expect(TimelineFormat.table(run, colour: false).contains("note: " + said))
    // Declared later (the live panel's key): said then, on that line; modelled modes and newsstand say nothing.
    var sim = makeSimulator(modes: [.audio])
    let set = sim.setBackgroundModes([.audio, .networkAuthentication], at: 0)
    #expect(set.last?.notes.first?.hasPrefix("network-authentication is not modelled: Apple says a hotspot helper") == true, "\(set)")
    var quiet = makeSimulator(modes: [.audio, .newsstandContent, .fetch])
    #expect(quiet.run(.launch).notes.isEmpty)
}

@Test func scenarioReadsTheNewVocabulary() throws {
    let text = """
    title = "x"
    lifecycle = "app-delegate"
    processing_budget = 90.0
    background_modes = ["processing", "external-accessory", "voip"]
    [[streams]]
    name = "pedal"
    kind = "accessory"
    [[streams]]
    name = "keys"
    kind = "midi-in"
    [[handlers]]
    on = "pushkit.incoming"
    do = ["report-call"]
    [[handlers]]
    on = "processingTask"
    do = ["end-processing-task"]
    [[steps]]
    at = 0.0
    event = "accessory-event:pedal"
    [[steps]]
    at = 1.0
    event = "midi:keys"
    note = 64
    [[expect]]
    at = 2.0
    alive_by = ["callkit"]
    """
    let scenario = try Scenario.parse(text, file: "new.toml")
    #expect(scenario.configuration.processingBudget == 90)
    #expect(scenario.steps[1].note == 64)
    #expect(throws: ScenarioError.self) {
        try Scenario.parse(text.replacingOccurrences(of: "note = 64", with: "note = 200"), file: "bad.toml")
    }
}
