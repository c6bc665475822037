// The warnings the simulator raises; their codes are part of the timeline contract (docs/scenarios.md).

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
    case voipPushNotReported = "voip-push-not-reported"
    case deprecatedMode = "deprecated-mode"
    case missingTaskIdentifiers = "missing-task-identifiers"
    case missingUsageDescription = "missing-usage-description"
    case unknownBackgroundMode = "unknown-background-mode"

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
        case .voipPushNotReported: "a VoIP push arrived and no handler reported a call to CallKit: terminated"
        case .deprecatedMode: "a background mode iOS no longer honours (newsstand-content)"
        case .missingTaskIdentifiers:
            "processing is declared but the Info.plist has no BGTaskSchedulerPermittedIdentifiers: registering a task fails at run time"
        case .missingUsageDescription: "a declared mode needs a purpose string the Info.plist lacks: the app is killed when it first uses the API"
        case .unknownBackgroundMode: "a UIBackgroundModes value that is not one Apple defines"
        }
    }
}

/// A raised warning: the code, the stream concerned if any, and a one-line explanation.
public struct LifecycleWarning: Sendable, Equatable {
    public var code: WarningCode
    public var stream: String?
    public var message: String
}
