/// Tempo of an incoming MIDI clock (F8, 24 ticks per quarter note) over a sliding window of ticks, with the
/// jitter of the tick intervals. A value fed with tick times in seconds, so tests advance it by hand.
///
/// Start (FA) begins a new measurement; stop (FC) keeps the tempo (senders go on ticking while stopped);
/// continue (FB) and any gap longer than `gapSeconds` between ticks restart the window, so the pause never
/// counts as an interval.
public struct ClockTempo: Sendable, Equatable {
    public static let ticksPerQuarterNote = 24

    /// Intervals averaged (96: four beats).
    public let windowTicks: Int
    /// A longer silence between ticks is a gap, not a slow tempo (0.5 s: below 5 BPM).
    public let gapSeconds: Double
    /// Transport state from start/stop/continue (true until a stop: many senders never send start).
    public private(set) var isRunning = true

    /// Tick times, newest at `(next - 1) % capacity`; `count` of them valid.
    private var times: [Double]
    private var next = 0
    private var count = 0

    public init(windowTicks: Int = 96, gapSeconds: Double = 0.5) {
        self.windowTicks = max(1, windowTicks)
        self.gapSeconds = gapSeconds
        times = Array(repeating: 0, count: self.windowTicks + 1)
    }

    /// Feeds a message seen at `seconds`: clock, start, continue and stop matter, the rest is ignored.
    public mutating func receive(_ message: ShortMessage, at seconds: Double) {
        switch message.status {
        case SystemStatus.timingClock: tick(at: seconds)
        case SystemStatus.start: start()
        case SystemStatus.continue: resume()
        case SystemStatus.stop: stop()
        default: break
        }
    }

    public mutating func tick(at seconds: Double) {
        if count > 0, let last = lastTick, seconds - last > gapSeconds || seconds < last { reset() }
        times[next] = seconds
        next = (next + 1) % times.count
        count = min(count + 1, times.count)
    }

    /// Start: a new song from the top; the tempo is measured afresh.
    public mutating func start() {
        reset()
        isRunning = true
    }

    /// Continue: ticks resume after a pause, which must not count as an interval.
    public mutating func resume() {
        reset()
        isRunning = true
    }

    public mutating func stop() { isRunning = false }

    /// Forgets the tempo when no tick came for longer than a gap (call with the current time).
    public mutating func expire(now seconds: Double) {
        if let last = lastTick, seconds - last > gapSeconds { reset() }
    }

    public mutating func reset() {
        next = 0
        count = 0
    }

    public var lastTick: Double? { count > 0 ? times[(next + times.count - 1) % times.count] : nil }

    /// Intervals in the window.
    public var intervalCount: Int { max(0, count - 1) }

    /// Quarter notes per minute over the window; nil before two ticks. The tick interval is the slope of
    /// the least-squares line through the window's tick times (tick number against time), not the span
    /// between its first and last tick: ticks that arrive quantised to audio periods (a sender's, or
    /// Backbeat's own demo, 5.3 ms at 256 frames) move the span's ends by up to a period each, which over a
    /// beat is a 1 % error; the fit averages every tick's error out (about 0.1 % over a beat).
    public var bpm: Double? {
        guard count >= 2 else { return nil }
        let first = (next + times.count - count) % times.count
        let n = Double(count)
        let meanIndex = (n - 1) / 2
        var meanTime = 0.0
        for k in 0..<count { meanTime += times[(first + k) % times.count] - times[first] }
        meanTime /= n
        var covariance = 0.0, variance = 0.0
        for k in 0..<count {
            let di = Double(k) - meanIndex
            covariance += di * (times[(first + k) % times.count] - times[first] - meanTime)
            variance += di * di
        }
        let interval = covariance / variance
        guard interval > 0, interval.isFinite else { return nil }
        return 60 / (Double(Self.ticksPerQuarterNote) * interval)
    }

    /// Standard deviation of the tick intervals in the window, in milliseconds; nil before three ticks.
    public var jitterMilliseconds: Double? {
        guard count >= 3 else { return nil }
        var intervals: [Double] = []
        intervals.reserveCapacity(count - 1)
        var index = (next + times.count - count) % times.count
        for _ in 0..<(count - 1) {
            let following = (index + 1) % times.count
            intervals.append(times[following] - times[index])
            index = following
        }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        let variance = intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(intervals.count)
        return variance.squareRoot() * 1000
    }
}
