// The user and system events a scenario or the live panel applies to the simulated app. Section numbers
// are those of docs/lifecycle-rules.md (written §N).

/// User and system events (rules §1), plus the stream events of rules §5 and wake-ups of rules §2.
public enum LifecycleEvent: Sendable, Equatable, CustomStringConvertible {
    case launch, home, switchApp, lock
    case appSwitcher, controlCenter, notificationCenter, systemAlert, dismissOverlay
    case callIncoming, callDeclined, callAnswered, callEnded
    case pipStart, foreground, terminate
    case streamStart(String), streamStop(String)
    /// A MIDI message arrives on a `midi-in` stream, or the app sends one on a `midi-out` stream.
    case midi(String)
    /// A Bluetooth LE event wakes the app (rules §2: about 10 s).
    case bleEvent(String)
    /// A silent push wakes the app (rules §2: about 10 s).
    case silentPush
    /// Another app starts non-mixable playback while this app is in background (an interruption for a
    /// session without `mixWithOthers`).
    case otherAudioStart
    /// That other app stops: the interruption ends with `shouldResume`.
    case otherAudioStop
    /// A PushKit VoIP push (`voip` mode): the handler on `pushkit.incoming` must `report-call`.
    case voipPush
    /// A push-to-talk push (`push-to-talk` mode): alive while the transmission plays (about 10 s).
    case pttPush
    /// The system's background fetch (`fetch` mode): handler on `performFetch`, up to 30 s.
    case backgroundFetch
    /// A BGProcessingTask starts (`processing` mode): handler on `processingTask`.
    case processingStart
    /// An MFi accessory's event (`external-accessory` mode): as a Bluetooth LE event.
    case accessoryEvent(String)

    static let simple: [(String, LifecycleEvent)] = [
        ("launch", .launch), ("home", .home), ("switch-app", .switchApp), ("lock", .lock),
        ("app-switcher", .appSwitcher), ("control-center", .controlCenter),
        ("notification-center", .notificationCenter), ("system-alert", .systemAlert),
        ("dismiss-overlay", .dismissOverlay), ("call-incoming", .callIncoming), ("call-declined", .callDeclined),
        ("call-answered", .callAnswered), ("call-ended", .callEnded), ("pip-start", .pipStart),
        ("foreground", .foreground), ("terminate", .terminate), ("silent-push", .silentPush),
        ("other-audio-start", .otherAudioStart), ("other-audio-stop", .otherAudioStop),
        ("voip-push", .voipPush), ("ptt-push", .pttPush), ("background-fetch", .backgroundFetch),
        ("processing-start", .processingStart),
    ]
    /// Every accepted spelling, for error messages.
    public static let accepted = simple.map(\.0) + ["stream-start:S", "stream-stop:S", "midi:S", "ble-event:S", "accessory-event:S"]

    public init?(parsing text: String) {
        if let hit = Self.simple.first(where: { $0.0 == text }) { self = hit.1; return }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        switch parts[0] {
        case "stream-start": self = .streamStart(parts[1])
        case "stream-stop": self = .streamStop(parts[1])
        case "midi": self = .midi(parts[1])
        case "ble-event": self = .bleEvent(parts[1])
        case "accessory-event": self = .accessoryEvent(parts[1])
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .streamStart(let s): return "stream-start:\(s)"
        case .streamStop(let s): return "stream-stop:\(s)"
        case .midi(let s): return "midi:\(s)"
        case .bleEvent(let s): return "ble-event:\(s)"
        case .accessoryEvent(let s): return "accessory-event:\(s)"
        default: return Self.simple.first(where: { $0.1 == self })!.0
        }
    }

    var stream: String? {
        switch self {
        case .streamStart(let s), .streamStop(let s), .midi(let s), .bleEvent(let s), .accessoryEvent(let s): s
        default: nil
        }
    }

    /// Events that wake (or launch) the app in background for a window (docs/lifecycle-rules.md, 3b).
    var isWake: Bool { !wakeModes.isEmpty }

    /// The background modes one of which the app must declare for the event to be delivered.
    var wakeModes: [BackgroundMode] {
        switch self {
        case .bleEvent: [.bluetoothCentral, .bluetoothPeripheral]
        case .accessoryEvent: [.externalAccessory]
        case .silentPush: [.remoteNotification]
        case .voipPush: [.voip]
        case .pttPush: [.pushToTalk]
        case .backgroundFetch: [.fetch]
        case .processingStart: [.processing]
        default: []
        }
    }

    /// Whether the event launches a not-running app into background (a terminated one is never relaunched).
    var launchesApp: Bool {
        switch self {
        case .silentPush, .voipPush, .pttPush, .backgroundFetch, .processingStart: true
        default: false
        }
    }

    /// The handler callback the event fires, if any.
    var wakeCallback: Callback? {
        switch self {
        case .voipPush: .pushkitIncoming
        case .backgroundFetch: .performFetch
        case .silentPush: .didReceiveRemoteNotification
        case .processingStart: .processingTask
        default: nil
        }
    }
}
