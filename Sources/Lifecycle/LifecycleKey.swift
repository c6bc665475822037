/// What a key of the live lifecycle panel asks `LiveSession.perform(_:wall:)` to do. The workstation maps
/// terminal keys to these; the session decides what they mean for the simulated app.
public enum LifecycleKey: Equatable, Sendable {
    /// A user or system event of rules §1 (home, lock, foreground, a call...).
    case event(LifecycleEvent)
    /// Another app's non-mixable audio starts, or stops if it plays (`other-audio-start` / `other-audio-stop`).
    case otherAppAudio
    case cycleStyle, cycleModes, cycleCategory, toggleMix
    /// Virtual streams: keep-alive player (off, empty, near-silent), video player (off, attached, detached),
    /// standard location updates, a background task.
    case keepAlive, video, location, backgroundTask
    /// Backbeat's synth stops or starts playing, as the app's own code would (`stream-stop:synth` /
    /// `stream-start:synth`): the one key between the default setup, which can never be suspended while the
    /// synth plays, and a suspension.
    case toggleSynth
    /// The simulated clock: pause or resume, jump to the next thing that happens, slower or faster.
    case pause, step, slower, faster

    /// Keys that change the app's configuration or its virtual streams: a scenario owns those, so while one
    /// plays only events, the synth and the clock keys act.
    public var changesConfiguration: Bool {
        switch self {
        case .cycleStyle, .cycleModes, .cycleCategory, .toggleMix, .keepAlive, .video, .location, .backgroundTask: true
        case .event, .otherAppAudio, .toggleSynth, .pause, .step, .slower, .faster: false
        }
    }
}
