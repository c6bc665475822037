// What the simulator returns: one line of the timeline, and the status of each stream.

/// One line of the timeline: what happened at `time` and the situation afterwards.
public struct TimelineEntry: Sendable, Equatable {
    public var time: Double
    /// The event spelled as in a scenario, or nil when time alone caused the change.
    public var event: String?
    /// Callbacks fired, in order, with the style's names.
    public var callbacks: [String]
    public var state: AppState
    /// Streams keeping the process alive (sorted; empty unless in background).
    public var aliveBy: [String]
    /// Why the state changed (present only when it did).
    public var reason: String?
    /// Warnings raised at this moment.
    public var warnings: [LifecycleWarning]
    /// For `midi:S` events: whether the message reached the app.
    public var delivered: Bool?
    /// Set when the simulator has no rule for what happened: nothing was guessed.
    public var unknownRule: String?
    /// Remarks for the readable table (events without effect, failed actions).
    public var notes: [String]
    /// The scenario's `say`, for demos.
    public var narration: String?
    /// Every stream's status after this moment, in configuration order (for drawings of the timeline).
    public var streams: [StreamStatus] = []
    /// For a scenario's `midi:S` step: its `note` (nil: the default, 60). Not part of the JSON timeline.
    public var note: Int? = nil
}

/// The status of one stream, for the live panel.
public struct StreamStatus: Sendable, Equatable {
    public var name: String
    public var kind: StreamKind
    /// Switched on by the app (playing, recording, updating, task begun).
    public var isOn: Bool
    /// Really running now: on, the process runs code and, for audio, the session lets it play.
    public var isRunning: Bool
    /// Whether it keeps (or, in foreground, would keep) the process running in background.
    public var keepsAlive: Bool
    public var isAudible: Bool
    /// Why it keeps alive or not, in words.
    public var why: String
    /// Set when the system, not the app, stopped it: an interruption began (the session's players are
    /// paused: the live panel silences the synth), the app entered background without the `audio` mode,
    /// a video auto-paused, the app was terminated. Cleared when the app starts it again.
    public var pausedBy: String?
}
