// LIFECYCLE.md section 1: every row of the table, for each style.
import Testing
@testable import Lifecycle

struct CallbackRow: Sendable, CustomTestStringConvertible {
    var event: LifecycleEvent
    var before: [LifecycleEvent]
    /// Expected callbacks per style; nil: the table shows "—" (unknown rule).
    var appDelegate: [String]?
    var scenes: [String]?
    var swiftui: [String]?
    var state: AppState
    var testDescription: String { "\(event) after \(before.map(\.description))" }
}

let callbackRows: [CallbackRow] = {
    let resignAD = ["applicationWillResignActive"], resignS = ["sceneWillResignActive"], resignUI = ["scenePhase.inactive"]
    let activeAD = ["applicationDidBecomeActive"], activeS = ["sceneDidBecomeActive"], activeUI = ["scenePhase.active"]
    let homeAD = ["applicationWillResignActive", "applicationDidEnterBackground"]
    let homeS = ["sceneWillResignActive", "sceneDidEnterBackground"]
    let homeUI = ["scenePhase.inactive", "scenePhase.background"]
    var rows = [CallbackRow(event: .launch, before: [],
                            appDelegate: ["willFinishLaunching", "didFinishLaunching", "applicationDidBecomeActive"],
                            scenes: ["didFinishLaunching", "sceneWillConnect", "sceneWillEnterForeground", "sceneDidBecomeActive"],
                            swiftui: ["scenePhase.active"], state: .active)]
    for e in [LifecycleEvent.home, .switchApp, .lock, .pipStart] {
        rows.append(CallbackRow(event: e, before: [.launch], appDelegate: homeAD, scenes: homeS, swiftui: homeUI, state: .background))
    }
    for e in [LifecycleEvent.appSwitcher, .controlCenter, .notificationCenter, .systemAlert, .callIncoming] {
        rows.append(CallbackRow(event: e, before: [.launch], appDelegate: resignAD, scenes: resignS, swiftui: resignUI, state: .inactive))
    }
    rows.append(CallbackRow(event: .dismissOverlay, before: [.launch, .controlCenter], appDelegate: activeAD, scenes: activeS, swiftui: activeUI, state: .active))
    rows.append(CallbackRow(event: .callDeclined, before: [.launch, .callIncoming], appDelegate: activeAD, scenes: activeS, swiftui: activeUI, state: .active))
    rows.append(CallbackRow(event: .callAnswered, before: [.launch, .callIncoming],
                            appDelegate: ["applicationDidEnterBackground"], scenes: ["sceneDidEnterBackground"],
                            swiftui: ["scenePhase.background"], state: .background))
    rows.append(CallbackRow(event: .foreground, before: [.launch, .home],
                            appDelegate: ["applicationWillEnterForeground", "applicationDidBecomeActive"],
                            scenes: ["sceneWillEnterForeground", "sceneDidBecomeActive"],
                            swiftui: ["scenePhase.inactive", "scenePhase.active"], state: .active))
    rows.append(CallbackRow(event: .terminate, before: [.launch, .home],
                            appDelegate: ["applicationWillTerminate"], scenes: ["applicationWillTerminate"], swiftui: nil, state: .terminated))
    return rows
}()

@Test("section 1 rows", arguments: callbackRows, LifecycleStyle.allCases)
func callbackTable(row: CallbackRow, style: LifecycleStyle) {
    var sim = makeSimulator(style)
    for e in row.before { sim.run(e) }
    let stateBefore = sim.state
    let entry = sim.run(row.event)
    let expected = switch style { case .appDelegate: row.appDelegate; case .scenes: row.scenes; case .swiftui: row.swiftui }
    if let expected {
        #expect(entry.callbacks == expected)
        #expect(entry.state == row.state)
        #expect(entry.unknownRule == nil)
    } else {
        #expect(entry.callbacks.isEmpty)
        #expect(entry.unknownRule?.hasPrefix("unknown rule: ") == true)
        #expect(entry.state == stateBefore, "nothing guessed")
    }
}

@Test("call-ended: interruption ended with shouldResume; swiftui shows —", arguments: LifecycleStyle.allCases)
func callEnded(style: LifecycleStyle) {
    var sim = makeSimulator(style, modes: [.audio], category: .playback,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)])
    sim.run(.launch, .callIncoming)
    let answered = sim.run(.callAnswered)
    #expect(!answered.callbacks.contains("interruption.ended"), "no ended until the call ends")
    let ended = sim.run(.callEnded)
    if style == .swiftui {
        #expect(ended.unknownRule?.contains("call-ended under swiftui") == true)
    } else {
        #expect(ended.callbacks == ["interruption.ended"])
        #expect(ended.state == .background)
    }
}

@Test("terminate while suspended: no callback (force quit); swiftui shows —", arguments: LifecycleStyle.allCases)
func terminateSuspended(style: LifecycleStyle) {
    var sim = makeSimulator(style)
    sim.run(.launch, .home)
    _ = sim.advance(to: sim.now + 10)
    #expect(sim.state == .suspended)
    let entry = sim.run(.terminate)
    if style == .swiftui {
        #expect(entry.unknownRule != nil)
        #expect(sim.state == .suspended)
    } else {
        #expect(entry.callbacks.isEmpty)
        #expect(sim.state == .terminated)
        #expect(entry.reason?.contains("no callback") == true)
    }
}

@Test func terminateInForegroundIsAnUnknownRule() {
    var sim = makeSimulator(.scenes)
    let entry = sim.run(.launch, .terminate)
    #expect(entry.unknownRule?.hasPrefix("unknown rule: terminate while in the foreground") == true)
    #expect(sim.state == .active)
}

@Test("call-incoming: interruption began for a playing session", arguments: LifecycleStyle.allCases)
func callIncomingInterrupts(style: LifecycleStyle) {
    var sim = makeSimulator(style, modes: [.audio], category: .playback,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)])
    sim.run(.launch)
    let incoming = sim.run(.callIncoming)
    #expect(incoming.callbacks.last == "interruption.began")
    #expect(sim.status(of: "synth")?.isOn == false, "players are paused")
    let declined = sim.run(.callDeclined)
    #expect(declined.callbacks.last == "interruption.ended")
}

@Test("scenes and SwiftUI never call the app-delegate transitions", arguments: [LifecycleStyle.scenes, .swiftui])
func appDelegateTransitionsNeverCalled(style: LifecycleStyle) {
    var sim = makeSimulator(style)
    var all: [String] = []
    for e in [LifecycleEvent.launch, .controlCenter, .dismissOverlay, .home, .foreground, .lock] {
        all += sim.run(e).callbacks
    }
    let forbidden = Callback.allCases.filter(\.isAppDelegateTransition).map(\.rawValue)
    #expect(all.allSatisfy { !forbidden.contains($0) })
}

@Test func overlaysDoNotBackground() {
    var sim = makeSimulator(.appDelegate)
    sim.run(.launch)
    for e in [LifecycleEvent.appSwitcher, .controlCenter, .notificationCenter, .systemAlert] {
        sim.run(e)
        #expect(sim.state == .inactive)
        _ = sim.advance(to: sim.now + 60)
        #expect(sim.state == .inactive, "not backgrounded: never suspended")
        sim.run(.dismissOverlay)
        #expect(sim.state == .active)
    }
}

@Test func suspensionHasNoCallback() {
    var sim = makeSimulator(.appDelegate)
    sim.run(.launch, .home)
    let entries = sim.advance(to: 100)
    #expect(entries.count == 1)
    #expect(entries[0].state == .suspended && entries[0].callbacks.isEmpty && entries[0].event == nil)
}

@Test func lockHomeAndPiPFireTheSameCallback() {
    for e in [LifecycleEvent.home, .lock, .pipStart] {
        var sim = makeSimulator(.scenes)
        #expect(sim.run(.launch, e).callbacks == ["sceneWillResignActive", "sceneDidEnterBackground"])
    }
}
