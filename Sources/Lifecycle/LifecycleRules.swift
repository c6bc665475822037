// The lifecycle rules as tables and pure functions of the configuration: which callbacks each style fires
// for each transition, which handlers can never run, what keeps a backgrounded app alive. The simulator
// (LifecycleSimulator.swift) applies them; docs/lifecycle-rules.md states them with their sources.

/// The rules the simulator applies. Nothing here holds state: each answer depends only on its arguments.
enum LifecycleRules {
    /// A change of the app's state that fires callbacks (which ones depends on the style).
    enum Transition { case launch, launchInBackground, resign, enterBackground, becomeActive, willEnterForeground, terminate }

    /// The callbacks an app configured as `configuration` receives, in order, for `transition`.
    static func callbacks(_ transition: Transition, in configuration: LifecycleConfiguration) -> [Callback] {
        switch (configuration.style, transition) {
        case (.appDelegate, .launch): [.willFinishLaunching, .didFinishLaunching, .applicationDidBecomeActive]
        // Launched into background (a push or a fetch): no scene connects, no scenePhase becomes active.
        case (.appDelegate, .launchInBackground), (.scenes, .launchInBackground): [.didFinishLaunching]
        case (.swiftui, .launchInBackground): configuration.appDelegateAdaptor ? [.didFinishLaunching] : []
        case (.appDelegate, .resign): [.applicationWillResignActive]
        case (.appDelegate, .enterBackground): [.applicationDidEnterBackground]
        case (.appDelegate, .becomeActive): [.applicationDidBecomeActive]
        case (.appDelegate, .willEnterForeground): [.applicationWillEnterForeground]
        case (.appDelegate, .terminate), (.scenes, .terminate): [.applicationWillTerminate]
        case (.scenes, .launch): [.didFinishLaunching, .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive]
        case (.scenes, .resign): [.sceneWillResignActive]
        case (.scenes, .enterBackground): [.sceneDidEnterBackground]
        case (.scenes, .becomeActive): [.sceneDidBecomeActive]
        case (.scenes, .willEnterForeground): [.sceneWillEnterForeground]
        case (.swiftui, .launch):
            (configuration.appDelegateAdaptor ? [.willFinishLaunching, .didFinishLaunching] : []) + [.scenePhaseActive]
        case (.swiftui, .becomeActive): [.scenePhaseActive]
        case (.swiftui, .resign), (.swiftui, .willEnterForeground): [.scenePhaseInactive]
        case (.swiftui, .enterBackground): [.scenePhaseBackground]
        // No scenePhase callback; the adaptor's delegate still gets applicationWillTerminate.
        case (.swiftui, .terminate): configuration.appDelegateAdaptor ? [.applicationWillTerminate] : []
        }
    }


    /// Why a handler bound to `cb` never runs in an app configured as `c`, with the code to raise; nil when
    /// the style fires it. The four app-delegate transition callbacks keep their own code,
    /// `not-called-with-scenes`; every other unreachable callback is `handler-never-called`: one code per cause.
    static func unreachable(_ cb: Callback, in c: LifecycleConfiguration) -> (WarningCode, String)? {
        let style = c.style.rawValue
        if cb.isAppDelegateTransition && c.style != .appDelegate {
            return (.notCalledWithScenes, "\(cb.rawValue) is never called with \(style): its handler never runs")
        }
        if cb.isSceneCallback && c.style != .scenes {
            return (.handlerNeverCalled, "\(cb.rawValue) is a UISceneDelegate callback, never fired in a \(style) app: its handler never runs")
        }
        if cb.isScenePhase && c.style != .swiftui {
            return (.handlerNeverCalled, "\(cb.rawValue) is a SwiftUI scenePhase value, never seen by a UIKit \(style) app: its handler never runs")
        }
        if cb.needsDelegateAdaptorInSwiftUI && c.style == .swiftui && !c.appDelegateAdaptor {
            return (.handlerNeverCalled, "\(cb.rawValue) reaches a SwiftUI app only through a UIApplicationDelegateAdaptor, which this app does not declare (app_delegate_adaptor): its handler never runs")
        }
        return nil
    }

    /// Whether a handler action starts something that can keep the app alive (a session player, the
    /// session itself, a background task): starting one on willResignActive is warned about.
    static func startsKeepAlive(_ action: HandlerAction, in configuration: LifecycleConfiguration) -> Bool {
        switch action {
        case .play(let s): configuration.streams.first { $0.name == s }?.kind.usesSession ?? false
        case .activateSession, .beginBackgroundTask: true
        default: false
        }
    }

    /// Whether stream `s` keeps a backgrounded app running, and why (or why not), in words.
    static func keepsAlive(_ s: StreamConfig, _ r: LifecycleSimulator.Runtime, in configuration: LifecycleConfiguration,
                           sessionActive: Bool, pipActive: Bool) -> (Bool, String) {
        func has(_ mode: BackgroundMode) -> Bool { configuration.backgroundModes.contains(mode) }
        let category = configuration.category
        switch s.kind {
        case .midiIn, .midiOut:
            return (false, "there is no MIDI background mode: MIDI stops when the app is suspended")
        case .voip:
            return (false, "VoIP sockets no longer keep apps alive; PushKit wakes the app for a call")
        case .bluetooth:
            return (false, "bluetooth-central/-peripheral only wake the app for about 10 s per event")
        case .accessory:
            return (false, "external-accessory only wakes the app for about 10 s per accessory event")
        case .location:
            if !r.on { return (false, "location updates are off") }
            if !has(.location) { return (false, "needs the location background mode") }
            return (true, "standard location updates with the location mode")
        case .backgroundTask:
            if !r.on { return (false, "no background task running") }
            return (true, "background task, until ended or its \(Int(configuration.backgroundTaskBudget)) s budget (observed) ends")
        case .audioInput:
            if !r.on { return (false, "not recording") }
            if !has(.audio) { return (false, "needs the audio background mode") }
            if !category.canRecord { return (false, "category \(category.rawValue) cannot record") }
            if !sessionActive { return (false, "the audio session is inactive") }
            return (true, "recording with the audio mode and category \(category.rawValue)")
        case .audioOutput, .keepalivePlayer, .videoPlayer:
            if s.content == .empty { return (false, "content empty: never plays, keeps nothing alive") }
            if !r.on { return (false, r.pausedBy.map { "paused: \($0)" } ?? "not playing") }
            if s.kind == .videoPlayer && r.attached && !(pipActive && s.pictureInPicture) {
                return (false, "attached to its layer: auto-paused on background")
            }
            if !has(.audio) { return (false, "needs the audio background mode") }
            if !category.canPlayInBackground {
                return (false, "category \(category.rawValue) cannot play in background")
            }
            if !sessionActive { return (false, "the audio session is inactive") }
            let how = s.kind == .videoPlayer ? (r.attached ? "in PiP" : "detached from its layer") : "playing"
            return (true, "\(how) with the audio mode and category \(category.rawValue)"
                        + (r.audible ? "" : " (inaudible: review risk)"))
        }
    }
}
