// The background modes an app declares in its Info.plist (UIBackgroundModes).

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
