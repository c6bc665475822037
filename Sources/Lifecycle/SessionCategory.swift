// The audio session as configured: its category and options.

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
