/// A tempo estimate from MIDI clock (24 per quarter note): BPM and the jitter of the clock intervals.
public struct TempoReadout: Equatable, Sendable {
    public var bpm: Double
    /// Standard deviation of the clock intervals, milliseconds.
    public var jitterMilliseconds: Double
}

/// Estimates tempo from clock message times. The MIDI module's estimator can replace this one.
public protocol TempoEstimating {
    mutating func clock(atSeconds time: Double)
    /// nil when no clock arrived for a while or too few to tell.
    func readout(now: Double) -> TempoReadout?
}

/// Mean and spread of the last 48 clock intervals (two beats); forgets after a 1 s gap.
public struct SimpleClockTempo: TempoEstimating {
    private var intervals: [Double] = []
    private var last: Double?
    public init() {}

    public mutating func clock(atSeconds time: Double) {
        if let last {
            let interval = time - last
            if interval > 1 || interval <= 0 { intervals.removeAll() } else { intervals.append(interval) }
            if intervals.count > 48 { intervals.removeFirst(intervals.count - 48) }
        }
        last = time
    }

    public func readout(now: Double) -> TempoReadout? {
        guard let last, now - last < 1, intervals.count >= 6 else { return nil }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        guard mean > 0 else { return nil }
        let variance = intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(intervals.count)
        return TempoReadout(bpm: 60 / (mean * 24), jitterMilliseconds: variance.squareRoot() * 1000)
    }
}
