// The vocabulary of the lifecycle rules (docs/lifecycle-rules.md): states, styles, callbacks, streams, events, handler actions, warnings.
// Raw values are the spellings of the scenario format (section 5) and of the timeline (section 6).

/// The process states (docs/lifecycle-rules.md, "States and callbacks").
public enum AppState: String, Sendable, CaseIterable, Equatable {
    case notRunning = "not-running"
    /// Foreground, receiving no events.
    case inactive
    case active
    /// Code runs.
    case background
    /// In memory, runs no code; no callback announces it.
    case suspended
    case terminated

    /// Whether the process executes code in this state (MIDI delivered, audio rendered).
    public var runsCode: Bool { self == .inactive || self == .active || self == .background }
    var isForeground: Bool { self == .inactive || self == .active }
}

/// Which callbacks the app receives (`lifecycle` in a scenario).
public enum LifecycleStyle: String, Sendable, CaseIterable, Equatable {
    /// UIKit without scenes: UIApplicationDelegate.
    case appDelegate = "app-delegate"
    /// UIKit with UISceneDelegate.
    case scenes
    /// SwiftUI `scenePhase`.
    case swiftui
}

/// Every callback a handler can be bound to (`on` in a scenario), spelled as in the timeline.
public enum Callback: String, Sendable, CaseIterable, Equatable {
    case willFinishLaunching, didFinishLaunching
    case applicationDidBecomeActive, applicationWillResignActive
    case applicationDidEnterBackground, applicationWillEnterForeground, applicationWillTerminate
    case sceneWillConnect, sceneWillEnterForeground, sceneDidBecomeActive, sceneWillResignActive, sceneDidEnterBackground
    case scenePhaseActive = "scenePhase.active"
    case scenePhaseInactive = "scenePhase.inactive"
    case scenePhaseBackground = "scenePhase.background"
    /// AVAudioSession interruption, type `began` (raw value 1): the session is already inactive.
    case interruptionBegan = "interruption.began"
    /// AVAudioSession interruption, type `ended` (raw value 0), here always with `shouldResume`.
    case interruptionEnded = "interruption.ended"
    /// The expiration handler of `beginBackgroundTask(expirationHandler:)` (section 2). An addition to
    /// section 5's list so that a scenario can end its task in time.
    case backgroundTaskExpiration = "backgroundTask.expiration"

    /// The app-delegate transition callbacks UIKit never calls when the app uses scenes or SwiftUI.
    public var isAppDelegateTransition: Bool {
        switch self {
        case .applicationWillResignActive, .applicationDidEnterBackground,
             .applicationWillEnterForeground, .applicationDidBecomeActive: return true
        default: return false
        }
    }
    /// UISceneDelegate callbacks: fired only when the app uses UIKit scenes.
    public var isSceneCallback: Bool {
        switch self {
        case .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
             .sceneDidEnterBackground: return true
        default: return false
        }
    }
    /// SwiftUI `scenePhase` values: seen only by a SwiftUI app.
    public var isScenePhase: Bool {
        self == .scenePhaseActive || self == .scenePhaseInactive || self == .scenePhaseBackground
    }
    /// UIApplicationDelegate callbacks a SwiftUI app receives only through a `UIApplicationDelegateAdaptor`.
    public var needsDelegateAdaptorInSwiftUI: Bool {
        self == .willFinishLaunching || self == .didFinishLaunching || self == .applicationWillTerminate
    }
    var isWillResignActive: Bool {
        self == .applicationWillResignActive || self == .sceneWillResignActive || self == .scenePhaseInactive
    }
    var isDidEnterBackground: Bool {
        self == .applicationDidEnterBackground || self == .sceneDidEnterBackground || self == .scenePhaseBackground
    }
}

/// AVAudioSession categories.
public enum SessionCategory: String, Sendable, CaseIterable, Equatable {
    case ambient, soloAmbient, playback, record, playAndRecord, multiRoute
    /// Categories whose playback can keep an app with the `audio` mode running in background.
    public var canPlayInBackground: Bool { self == .playback || self == .playAndRecord || self == .multiRoute }
    /// Categories that record.
    public var canRecord: Bool { self == .record || self == .playAndRecord }
}

/// AVAudioSession.CategoryOptions names accepted in `[session] options`.
public enum SessionOption: String, Sendable, CaseIterable, Equatable {
    case mixWithOthers, duckOthers, interruptSpokenAudioAndMixWithOthers, allowBluetooth, allowBluetoothA2DP,
         allowAirPlay, defaultToSpeaker, overrideMutedMicrophoneInterruption
}

/// UIBackgroundModes values.
public enum BackgroundMode: String, Sendable, CaseIterable, Equatable {
    case audio, location, voip, fetch, processing
    case remoteNotification = "remote-notification"
    case bluetoothCentral = "bluetooth-central"
    case bluetoothPeripheral = "bluetooth-peripheral"
    case externalAccessory = "external-accessory"
    case newsstandContent = "newsstand-content"
    case pushToTalk = "push-to-talk"
    case nearbyInteraction = "nearby-interaction"
}

/// The stream kinds (docs/lifecycle-rules.md, "What keeps an app running").
public enum StreamKind: String, Sendable, CaseIterable, Equatable {
    case audioOutput = "audio-output"
    case audioInput = "audio-input"
    case keepalivePlayer = "keepalive-player"
    case videoPlayer = "video-player"
    case midiIn = "midi-in"
    case midiOut = "midi-out"
    case location, voip, bluetooth
    case backgroundTask = "background-task"

    /// Kinds that play audio (and can keep alive under the `audio` rules).
    public var plays: Bool { self == .audioOutput || self == .keepalivePlayer || self == .videoPlayer }
    /// Kinds that use the audio session.
    public var usesSession: Bool { plays || self == .audioInput }
}

/// What a player plays.
public enum PlayerContent: String, Sendable, CaseIterable, Equatable {
    /// MIDIKit's `AVPlayerItem(url: URL(fileURLWithPath: ""))`: never plays.
    case empty
    /// Ditto's one-sample WAV at volume 0.01: plays, inaudibly.
    case nearSilent = "near-silent"
    case audible
}

/// One virtual stream of the app.
public struct StreamConfig: Sendable, Equatable {
    public var name: String
    public var kind: StreamKind
    /// Players only (`keepalive-player`, `video-player`).
    public var content: PlayerContent?
    /// Initial state: playing / running / recording.
    public var playing: Bool
    /// Whether what it plays can be heard (the live meter level may update it).
    public var audible: Bool
    /// `video-player` only: Picture in Picture allowed (AVPlayerViewController's default is true).
    public var pictureInPicture: Bool

    /// `playing` defaults to false, except for `midi-in` and `midi-out`: a MIDI port exists from launch.
    public init(name: String, kind: StreamKind, content: PlayerContent? = nil, playing: Bool? = nil,
                audible: Bool? = nil, pictureInPicture: Bool = true) {
        self.name = name
        self.kind = kind
        self.content = content
        self.playing = playing ?? Self.playsByDefault(kind)
        self.audible = audible ?? (content.map { $0 == .audible } ?? (kind != .keepalivePlayer))
        self.pictureInPicture = kind == .videoPlayer && pictureInPicture
    }

    /// The initial `playing` when a scenario does not say: true for MIDI ports, false otherwise.
    public static func playsByDefault(_ kind: StreamKind) -> Bool { kind == .midiIn || kind == .midiOut }
}

/// What a handler does (`do` in a scenario).
public enum HandlerAction: Sendable, Equatable, CustomStringConvertible {
    case play(String), stop(String)
    case activateSession, deactivateSession
    case beginBackgroundTask, endBackgroundTask
    case detachVideo(String), attachVideo(String)

    public static let accepted = ["play:S", "stop:S", "activate-session", "deactivate-session",
                                  "begin-background-task", "end-background-task", "detach-video:S", "attach-video:S"]

    public var description: String {
        switch self {
        case .play(let s): "play:\(s)"
        case .stop(let s): "stop:\(s)"
        case .activateSession: "activate-session"
        case .deactivateSession: "deactivate-session"
        case .beginBackgroundTask: "begin-background-task"
        case .endBackgroundTask: "end-background-task"
        case .detachVideo(let s): "detach-video:\(s)"
        case .attachVideo(let s): "attach-video:\(s)"
        }
    }

    /// Parses `play:S` and friends; nil when the action is not one of `accepted`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts.count == 2 ? parts[1] : nil
        switch (parts.first ?? "", name) {
        case ("play", let s?): self = .play(s)
        case ("stop", let s?): self = .stop(s)
        case ("detach-video", let s?): self = .detachVideo(s)
        case ("attach-video", let s?): self = .attachVideo(s)
        case ("activate-session", nil): self = .activateSession
        case ("deactivate-session", nil): self = .deactivateSession
        case ("begin-background-task", nil): self = .beginBackgroundTask
        case ("end-background-task", nil): self = .endBackgroundTask
        default: return nil
        }
    }

    var stream: String? {
        switch self {
        case .play(let s), .stop(let s), .detachVideo(let s), .attachVideo(let s): s
        default: nil
        }
    }
}

/// A handler: actions run, in order, when the callback fires.
public struct Handler: Sendable, Equatable {
    public var on: Callback
    public var actions: [HandlerAction]
    public init(on: Callback, actions: [HandlerAction]) { self.on = on; self.actions = actions }
}

/// User and system events (section 1), plus the stream events of section 5 and wake-ups of section 2.
public enum LifecycleEvent: Sendable, Equatable, CustomStringConvertible {
    case launch, home, switchApp, lock
    case appSwitcher, controlCenter, notificationCenter, systemAlert, dismissOverlay
    case callIncoming, callDeclined, callAnswered, callEnded
    case pipStart, foreground, terminate
    case streamStart(String), streamStop(String)
    /// A MIDI message arrives on a `midi-in` stream, or the app sends one on a `midi-out` stream.
    case midi(String)
    /// A Bluetooth LE event wakes the app (section 2: about 10 s).
    case bleEvent(String)
    /// A silent push wakes the app (section 2: about 10 s).
    case silentPush
    /// Another app starts non-mixable playback while this app is in background (an interruption for a
    /// session without `mixWithOthers`).
    case otherAudioStart
    /// That other app stops: the interruption ends with `shouldResume`.
    case otherAudioStop

    static let simple: [(String, LifecycleEvent)] = [
        ("launch", .launch), ("home", .home), ("switch-app", .switchApp), ("lock", .lock),
        ("app-switcher", .appSwitcher), ("control-center", .controlCenter),
        ("notification-center", .notificationCenter), ("system-alert", .systemAlert),
        ("dismiss-overlay", .dismissOverlay), ("call-incoming", .callIncoming), ("call-declined", .callDeclined),
        ("call-answered", .callAnswered), ("call-ended", .callEnded), ("pip-start", .pipStart),
        ("foreground", .foreground), ("terminate", .terminate), ("silent-push", .silentPush),
        ("other-audio-start", .otherAudioStart), ("other-audio-stop", .otherAudioStop),
    ]
    /// Every accepted spelling, for error messages.
    public static let accepted = simple.map(\.0) + ["stream-start:S", "stream-stop:S", "midi:S", "ble-event:S"]

    public init?(parsing text: String) {
        if let hit = Self.simple.first(where: { $0.0 == text }) { self = hit.1; return }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        switch parts[0] {
        case "stream-start": self = .streamStart(parts[1])
        case "stream-stop": self = .streamStop(parts[1])
        case "midi": self = .midi(parts[1])
        case "ble-event": self = .bleEvent(parts[1])
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .streamStart(let s): return "stream-start:\(s)"
        case .streamStop(let s): return "stream-stop:\(s)"
        case .midi(let s): return "midi:\(s)"
        case .bleEvent(let s): return "ble-event:\(s)"
        default: return Self.simple.first(where: { $0.1 == self })!.0
        }
    }

    var stream: String? {
        switch self {
        case .streamStart(let s), .streamStop(let s), .midi(let s), .bleEvent(let s): s
        default: nil
        }
    }
}

/// The warning codes (docs/lifecycle-rules.md, "Warnings"; part of the contract).
public enum WarningCode: String, Sendable, CaseIterable, Equatable, Comparable {
    case silentKeepalive = "silent-keepalive"
    case keepaliveNeverPlays = "keepalive-never-plays"
    case resumeOnBegan = "resume-on-began"
    case notCalledWithScenes = "not-called-with-scenes"
    case keepaliveOnResignActive = "keepalive-on-resign-active"
    case cannotInterruptOthers = "cannot-interrupt-others"
    case categoryCannotBackground = "category-cannot-background"
    case missingBackgroundMode = "missing-background-mode"
    case videoAutopaused = "video-autopaused"
    case pipDetachConflict = "pip-detach-conflict"
    case handlerNeverCalled = "handler-never-called"
    case backgroundTaskExpired = "background-task-expired"

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// One line on what the code means.
    public var explanation: String {
        switch self {
        case .silentKeepalive:
            "only inaudible streams keep the app alive: alive, but App Review 2.5.4 wants audible content, not silence"
        case .keepaliveNeverPlays: "the keep-alive player's content cannot play (empty), so it keeps nothing alive"
        case .resumeOnBegan:
            "playback resumed on interruption began: the session is inactive then, nothing resumes, and nothing restarts after ended"
        case .notCalledWithScenes: "an app-delegate transition callback is never called when the app uses scenes or SwiftUI"
        case .keepaliveOnResignActive:
            "keep-alive started on willResignActive, which also fires for Control Center, alerts and the app switcher"
        case .cannotInterruptOthers: "a non-mixable session cannot be activated in background (cannotInterruptOthers)"
        case .categoryCannotBackground: "audio plays in background with a category that cannot (ambient, soloAmbient)"
        case .missingBackgroundMode: "a stream needs a background mode the app does not declare"
        case .videoAutopaused: "a video player attached to its layer is paused on background"
        case .pipDetachConflict:
            "the video is detached on didEnterBackground while PiP is possible: the handler cannot tell Home or Lock from PiP, and during PiP the detach crashes the app (Mux)"
        case .handlerNeverCalled: "a handler is bound to a callback this app's lifecycle style never fires: it never runs"
        case .backgroundTaskExpired: "a background task reached its budget without being ended: terminated (0x8badf00d)"
        }
    }
}

/// A raised warning: the code, the stream concerned if any, and a one-line explanation.
public struct LifecycleWarning: Sendable, Equatable {
    public var code: WarningCode
    public var stream: String?
    public var message: String
}
