// The background modes an app declares in its Info.plist (UIBackgroundModes), each with what Apple says it
// grants and what the simulator does with it (docs/lifecycle-rules.md, "Every background mode").

/// UIBackgroundModes values: every value Apple defines, each the case's name in kebab-case.
public enum BackgroundMode: Sendable, CaseIterable, Equatable, RawRepresentable {
    case audio, location, voip, fetch, processing, remoteNotification, bluetoothCentral, bluetoothPeripheral
    case externalAccessory, newsstandContent, pushToTalk, nearbyInteraction, networkAuthentication

    /// The Info.plist value: the case's name with each capital letter written as "-" and the letter in lower
    /// case (`remoteNotification`: "remote-notification"), as all of Apple's values are spelled.
    /// Spelled out rather than made from `"\(self)"`: `==` and `contains` go through `rawValue`, and the live
    /// panel asks every frame (reflection there cost the idle workstation a third of its UI thread).
    public var rawValue: String {
        switch self {
        case .audio: "audio"
        case .location: "location"
        case .voip: "voip"
        case .fetch: "fetch"
        case .processing: "processing"
        case .remoteNotification: "remote-notification"
        case .bluetoothCentral: "bluetooth-central"
        case .bluetoothPeripheral: "bluetooth-peripheral"
        case .externalAccessory: "external-accessory"
        case .newsstandContent: "newsstand-content"
        case .pushToTalk: "push-to-talk"
        case .nearbyInteraction: "nearby-interaction"
        case .networkAuthentication: "network-authentication"
        }
    }

    /// The mode whose Info.plist value is `rawValue`, or nil for a value Apple does not define.
    public init?(rawValue: String) {
        guard let mode = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = mode
    }

    /// What Apple's documentation says the mode grants.
    public var grants: String {
        switch self {
        case .audio: "playing or recording audio, AirPlay and Picture in Picture keep the app running"
        case .location: "standard location updates keep the app running; significant-change and region monitoring wake or launch it"
        case .voip:
            "PushKit VoIP pushes wake or launch the app to receive a call; the push handler must report the call to CallKit (iOS 13 on) or the app is terminated; sockets keep nothing alive"
        case .pushToTalk:
            "a push-to-talk push wakes or launches the app; the system activates its audio session to play the incoming transmission"
        case .bluetoothCentral, .bluetoothPeripheral: "Core Bluetooth events wake the app for about 10 s"
        case .externalAccessory: "an MFi accessory's events wake the app, as Bluetooth events do"
        case .fetch: "the system launches or wakes the app now and then (it chooses when) to fetch content, up to 30 s"
        case .remoteNotification:
            "a silent push (content-available) wakes or launches the app, up to 30 s; throttled by the system; not delivered after the user force quit the app"
        case .processing:
            "BGProcessingTask runs deferrable work when the device is idle; needs BGTaskSchedulerPermittedIdentifiers"
        case .nearbyInteraction: "Nearby Interaction sessions with an accessory continue in background (iOS 16 on)"
        case .networkAuthentication: "a hotspot helper is launched to authenticate on Wi-Fi networks"
        case .newsstandContent: "Newsstand was discontinued with iOS 9; the mode has no effect on current iOS"
        }
    }

    /// The simulator's event for the mode's wake-ups, if it has one.
    public var wakeEvent: String? {
        switch self {
        case .voip: "voip-push"
        case .pushToTalk: "ptt-push"
        case .bluetoothCentral, .bluetoothPeripheral: "ble-event:S"
        case .externalAccessory: "accessory-event:S"
        case .fetch: "background-fetch"
        case .remoteNotification: "silent-push"
        case .processing: "processing-start"
        default: nil
        }
    }

    /// Whether the simulator has a rule for the mode (else `lifecycle check` says "not modelled").
    public var isModelled: Bool { simulatorRule != nil }

    /// What the simulator does for the mode; nil: not modelled.
    public var simulatorRule: String? {
        switch self {
        case .audio: "audio-output, audio-input, keepalive-player and detached or PiP video-player streams keep the app alive while they play (category playback, playAndRecord or multiRoute, session active)"
        case .location: "a location stream keeps the app alive while standard updates run (significant-change only wakes)"
        case .bluetoothCentral, .bluetoothPeripheral:
            "ble-event:S wakes a suspended app for about 10 s; a further event restarts the window; a terminated app is not woken"
        case .remoteNotification:
            "silent-push wakes a suspended app, or launches a not-running one into background: about 10 s, up to 30 s with a didReceiveRemoteNotification handler (complete ends it); a force-quit (terminated) app is not woken"
        case .voip:
            "voip-push fires pushkit.incoming: with report-call the call rings and CallKit keeps the app alive (alive_by callkit) until it is declined or ends; without it the app is terminated (voip-push-not-reported)"
        case .pushToTalk:
            "ptt-push wakes or launches the app: alive while the transmission plays (alive_by push-to-talk, about 10 s, assumed), then suspended"
        case .externalAccessory:
            "accessory-event:S wakes a suspended app for about 10 s, as ble-event does; a terminated app is not woken"
        case .fetch:
            "background-fetch wakes or launches the app and fires performFetch: up to 30 s, complete ends the window at once"
        case .processing:
            "processing-start fires processingTask: alive (alive_by processing-task) until end-processing-task or its processing_budget (assumed 180 s: Apple documents none), then processingTask.expiration and suspended"
        case .nearbyInteraction, .networkAuthentication, .newsstandContent: nil
        }
    }

    /// One line for `lifecycle check`: the rule, or "not modelled: " and what Apple says the mode grants.
    public var checkRule: String {
        simulatorRule ?? "not modelled: \(grants)"
    }
}
