// What the song player and its loops read from the engine.

extension Engine {
    /// Voices sounding at the end of the last period (a relaxed read of the callback's counter).
    public var voicesSounding: Int { context.counters.activeVoices.load(ordering: .relaxed) }

    /// Song player events the callback applied after their frame had passed, since the engine was made.
    public var playerLateEvents: Int { context.counters.playerLate.load(ordering: .relaxed) }

    /// Frames of the last period the backend ran (0 before the first): a read without side effects, unlike
    /// `status()`, which also starts a new maximum callback load.
    public var lastPeriodFrames: Int { context.counters.periodFrames.load(ordering: .relaxed) }
}
