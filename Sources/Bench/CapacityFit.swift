import Foundation

/// The voices a synth can hold in real time, from what its process thread costs per period at a few held
/// voice counts: a least-squares line cost(voices) = a + b·voices through the measured points, and the
/// voices at which that line reaches a fraction (80 %) of the period's duration. Pure: no measuring here.
public struct CapacityFit: Sendable, Equatable {
    /// One measurement: `voices` held, the thread's CPU time per period in ns.
    public struct Point: Sendable, Equatable {
        public var voices: Double
        public var nanoseconds: Double
    }

    /// What the fit says the capacity is.
    public enum Capacity: Sendable, Equatable {
        /// The voices at which the fitted cost reaches the budget (rounded down; 0 when the cost without
        /// voices is already over it).
        case voices(Int)
        /// The cost does not grow with voices: the points bound nothing. The text says why.
        case unbounded(String)
        /// No line could be fitted (too few points, bad input). The text says what was wrong.
        case unknown(String)
    }

    public let points: [Point]
    /// Cost per period with no voices (a) and per voice (b), in ns; nil when no line could be fitted.
    public let intercept: Double?
    public let slope: Double?
    /// The share of the period the line may reach, in ns (`fraction` of the period's duration).
    public let budgetNanoseconds: Double
    public let capacity: Capacity

    /// Fits `points` for a period of `periodFrames` at `sampleRate`, the budget being `fraction` of it.
    public init(points: [Point], periodFrames: Int, sampleRate: Int, fraction: Double = 0.8) {
        self.points = points
        budgetNanoseconds = periodFrames > 0 && sampleRate > 0 ? fraction * Double(periodFrames) / Double(sampleRate) * 1e9 : 0
        guard periodFrames > 0, sampleRate > 0, fraction > 0, fraction.isFinite else {
            (intercept, slope) = (nil, nil)
            capacity = .unknown("no period to fit against (\(periodFrames) frames at \(sampleRate) Hz, fraction \(fraction))")
            return
        }
        if let bad = points.first(where: { !$0.voices.isFinite || !$0.nanoseconds.isFinite || $0.voices < 0 || $0.nanoseconds < 0 }) {
            (intercept, slope) = (nil, nil)
            capacity = .unknown("a point is not a finite non-negative measurement (voices \(bad.voices), \(bad.nanoseconds) ns)")
            return
        }
        let count = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.voices } / max(count, 1)
        let meanY = points.reduce(0) { $0 + $1.nanoseconds } / max(count, 1)
        let sxx = points.reduce(0) { $0 + ($1.voices - meanX) * ($1.voices - meanX) }
        let sxy = points.reduce(0) { $0 + ($1.voices - meanX) * ($1.nanoseconds - meanY) }
        guard points.count >= 2, sxx > 0 else {
            (intercept, slope) = (nil, nil)
            let distinct = Set(points.map(\.voices)).count
            capacity = .unknown("a line needs points at two or more voice counts; got \(points.count) point\(points.count == 1 ? "" : "s") at \(distinct) voice count\(distinct == 1 ? "" : "s")")
            return
        }
        let b = sxy / sxx
        let a = meanY - b * meanX
        (intercept, slope) = (a, b)
        if !(b > 0) {
            capacity = .unbounded(String(format: "unbounded: the cost does not grow with voices (b = %.3f ns/voice)", b))
        } else {
            let voices = (budgetNanoseconds - a) / b
            capacity = .voices(voices <= 0 ? 0 : voices >= Double(Int.max / 2) ? Int.max / 2 : Int(voices.rounded(.down)))
        }
    }

    /// The capacity in voices, when the fit gives one.
    public var voices: Int? {
        if case let .voices(count) = capacity { return count }
        return nil
    }

    /// E.g. "4876 voices (fit a=3.1 µs + b=10.2 ns/voice; points 0:3.0µs 256:5.6µs ...)".
    public var description: String {
        let shown = points.map { String(format: "%.0f:%.1fµs", $0.voices, $0.nanoseconds / 1000) }.joined(separator: " ")
        let line = intercept.flatMap { a in slope.map { b in String(format: "fit a=%.1f µs + b=%.2f ns/voice", a / 1000, b) } }
        let detail = [line, "points " + (shown.isEmpty ? "none" : shown)].compactMap { $0 }.joined(separator: "; ")
        switch capacity {
        case let .voices(count): return "\(count) voices (\(detail))"
        case let .unbounded(why): return "\(why) (\(detail))"
        case let .unknown(why): return "no capacity: \(why) (\(detail))"
        }
    }
}
