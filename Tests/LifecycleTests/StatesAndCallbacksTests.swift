// docs/lifecycle-rules.md, "States and callbacks": every row of the table, for each style.
import Testing
@testable import Lifecycle

struct CallbackRow: Sendable, CustomTestStringConvertible {
    func callbacks(_ style: LifecycleStyle) -> [String]? {
        switch style { case .appDelegate: appDelegate; case .scenes: scenes; case .swiftui: swiftui }
    }
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
    // `terminate` has its own tests below: its state depends on the style (a 5 s applicationWillTerminate
    // window for UIKit in background, at once for SwiftUI).
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

// Issue 11 changed these: interruptions are AVAudioSession notifications for every style (SwiftUI too, where
// call-ended used to be an unknown rule), and `terminate` is a rule in every state and style.
@Test("call-ended: interruption ended with shouldResume, for every style", arguments: LifecycleStyle.allCases)
func callEnded(style: LifecycleStyle) {
    var sim = makeSimulator(style, modes: [.audio], category: .playback,
                            streams: [StreamConfig(name: "synth", kind: .audioOutput, playing: true)])
    sim.run(.launch, .callIncoming)
    let answered = sim.run(.callAnswered)
    #expect(!answered.callbacks.contains("interruption.ended"), "no ended until the call ends")
    _ = sim.advance(to: sim.now + 3)
    #expect(sim.state == .background, "still inside the grace period")
    let ended = sim.run(.callEnded)
    #expect(ended.callbacks == ["interruption.ended"])
    #expect(ended.unknownRule == nil)
    #expect(ended.state == .background)
}

@Test("terminate while suspended: force quit, no callback, for every style", arguments: LifecycleStyle.allCases)
func terminateSuspended(style: LifecycleStyle) {
    var sim = makeSimulator(style)
    sim.run(.launch, .home)
    _ = sim.advance(to: sim.now + 10)
    #expect(sim.state == .suspended)
    let entry = sim.run(.terminate)
    #expect(entry.callbacks.isEmpty)
    #expect(entry.unknownRule == nil)
    #expect(sim.state == .terminated)
    #expect(entry.reason?.contains("no callback") == true)
}

@Test("terminate in background: applicationWillTerminate, terminated about 5 s later (UIKit); SwiftUI at once, no callback",
      arguments: LifecycleStyle.allCases)
func terminateInBackground(style: LifecycleStyle) {
    var sim = makeSimulator(style)
    sim.run(.launch, .home)
    let entry = sim.run(.terminate)
    #expect(entry.unknownRule == nil)
    if style == .swiftui {
        #expect(entry.callbacks.isEmpty)
        #expect(entry.state == .terminated)
        #expect(entry.reason?.contains("no scenePhase callback") == true)
        #expect(sim.nextDeadline == nil)
    } else {
        #expect(entry.callbacks == ["applicationWillTerminate"])
        #expect(entry.state == .background, "applicationWillTerminate runs")
        #expect(sim.isTerminating)
        #expect(sim.nextDeadline == sim.now + 5)
        let later = sim.advance(to: sim.now + 5)
        #expect(later.last?.state == .terminated)
        #expect(later.last?.reason?.contains("after applicationWillTerminate") == true)
    }
}

@Test("terminate in the foreground: applicationWillTerminate for UIKit, none for SwiftUI; terminated",
      arguments: LifecycleStyle.allCases)
func terminateInForeground(style: LifecycleStyle) {
    var sim = makeSimulator(style)
    let entry = sim.run(.launch, .terminate)
    #expect(entry.unknownRule == nil)
    #expect(entry.callbacks == (style == .swiftui ? [] : ["applicationWillTerminate"]))
    #expect(sim.state == .terminated)
    #expect(entry.reason?.contains("force quit") == true)
}

@Test("relaunch after termination", arguments: LifecycleStyle.allCases)
func relaunchAfterTerminate(style: LifecycleStyle) {
    var sim = makeSimulator(style, streams: [StreamConfig(name: "keys", kind: .midiIn)])
    sim.run(.launch, .terminate)
    #expect(sim.state == .terminated)
    #expect(sim.apply(.midi("keys"), at: sim.now + 1).last?.delivered == false)
    let relaunch = sim.run(.launch)
    #expect(relaunch.state == .active)
    #expect(relaunch.reason == "relaunched in the foreground")
    #expect(relaunch.callbacks == callbackRows[0].callbacks(style))
    #expect(sim.apply(.midi("keys"), at: sim.now + 1).last?.delivered == true, "the MIDI port exists again from launch")
}

@Test func swiftUIAdaptorGetsLaunchAndTerminateDelegateCallbacks() {
    var sim = LifecycleSimulator(configuration: LifecycleConfiguration(style: .swiftui, appDelegateAdaptor: true))
    #expect(sim.run(.launch).callbacks == ["willFinishLaunching", "didFinishLaunching", "scenePhase.active"])
    #expect(sim.run(.home).callbacks == ["scenePhase.inactive", "scenePhase.background"])
    #expect(sim.run(.terminate).callbacks == ["applicationWillTerminate"])
    #expect(sim.state == .background)
    _ = sim.advance(to: sim.now + 5)
    #expect(sim.state == .terminated)
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
