// The app's streams: their kinds, what a player plays, and a stream as configured.

/// The stream kinds (docs/lifecycle-rules.md, "What keeps an app running").
public enum StreamKind: String, Sendable, CaseIterable, Equatable {
    case audioOutput = "audio-output"
    case audioInput = "audio-input"
    case keepalivePlayer = "keepalive-player"
    case videoPlayer = "video-player"
    case midiIn = "midi-in"
    case midiOut = "midi-out"
    case location, voip, bluetooth
    /// An MFi accessory (ExternalAccessory): woken for about 10 s per `accessory-event:S`, never kept alive.
    case accessory
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
