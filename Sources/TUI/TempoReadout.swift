import MIDI

/// The monitor's tempo line: BPM and the jitter of the clock intervals, from `MIDI.ClockTempo`.
public struct TempoReadout: Equatable, Sendable {
    public var bpm: Double
    /// Standard deviation of the clock intervals, milliseconds.
    public var jitterMilliseconds: Double

    public init(bpm: Double, jitterMilliseconds: Double) { self.bpm = bpm; self.jitterMilliseconds = jitterMilliseconds }

    /// nil until the clock gives a tempo (it forgets it after a gap: `ClockTempo.expire(now:)`).
    public init?(_ tempo: ClockTempo) {
        guard let bpm = tempo.bpm, tempo.intervalCount >= 6 else { return nil }
        self.init(bpm: bpm, jitterMilliseconds: tempo.jitterMilliseconds ?? 0)
    }
}
