// The UI-side half of the meters: ballistics, windows and loudness gating, computed from the per-period
// figures the real-time callback measured (`PeriodMeasure`). Pure values: the UI feeds blocks and advances
// time by hand, tests do the same with synthetic blocks.

/// Stereo level and loudness meters for one stream of `PeriodMeasure`s.
///
/// Feed every block with `consume(_:sampleRate:)` (attack, windows, gating: audio time comes from the
/// blocks' frame counts), call `advance(seconds:)` with the wall-clock time between UI frames (peak fall
/// and hold), read `readout`.
public struct MeterState: Sendable {
    /// What a meter panel shows. Levels in dBFS (dBTP for true peak, LUFS for loudness); `-infinity` for silence.
    public struct Readout: Sendable, Equatable {
        public struct Channel: Sendable, Equatable {
            /// Peak with instant attack, falling 20 dB in 1.5 s.
            public var peakDB: Double
            /// RMS over the last 300 ms of audio (a full-scale sine reads -3 dB).
            public var rmsDB: Double
            /// The highest peak of the last 2 s.
            public var holdDB: Double
            /// A sample reached 0 dBFS since the last `resetClip`.
            public var clipped: Bool
            /// The highest 4x oversampled peak since the last `resetLoudness`.
            public var truePeakDB: Double
        }
        public var left: Channel
        public var right: Channel
        /// BS.1770 / EBU R128 loudness of the last 400 ms and 3 s.
        public var momentaryLUFS: Double
        public var shortTermLUFS: Double
        /// Gated loudness since the last `resetLoudness` (absolute gate -70 LUFS, relative gate -10 LU).
        public var integratedLUFS: Double
        /// The higher of the channels' true peaks.
        public var truePeakDB: Double
        /// Seconds of audio measured since the last `resetLoudness`.
        public var measuredSeconds: Double
        /// Left, right.
        public var channels: [Channel] { [left, right] }
    }

    public static let peakFallDecibelsPerSecond = 20.0 / 1.5
    public static let peakHoldSeconds = 2.0
    public static let rmsWindowSeconds = 0.3
    /// Below this a falling peak reads as silence.
    public static let floorDB = -144.0

    private var left = PeakBallistics()
    private var right = PeakBallistics()
    /// 10 ms slots of sums of squares, 30 of them: the 300 ms RMS window.
    private var rms = SlotWindow(slotSeconds: 0.01, slotCount: 30, sampleRate: 48_000)
    private var loudness = LoudnessMeter(sampleRate: 48_000)
    public private(set) var sampleRate: Double = 48_000

    public init(sampleRate: Double = 48_000) { reset(sampleRate: sampleRate) }

    /// Takes one period's figures. A new sample rate restarts the windows and the integrated loudness.
    public mutating func consume(_ block: PeriodMeasure, sampleRate: Double) {
        if sampleRate != self.sampleRate && sampleRate > 0 { reset(sampleRate: sampleRate) }
        left.hit(block.peakLeft, truePeak: block.truePeakLeft)
        right.hit(block.peakRight, truePeak: block.truePeakRight)
        rms.add(frames: Double(block.frames), sums: SIMD2(Double(block.sumSquaresLeft), Double(block.sumSquaresRight)))
        loudness.add(frames: Double(block.frames), kSums: SIMD2(Double(block.kSumSquaresLeft), Double(block.kSumSquaresRight)))
    }

    /// Lets `seconds` of wall-clock time pass: peaks fall, holds expire.
    public mutating func advance(seconds: Double) {
        guard seconds > 0 else { return }
        left.advance(seconds)
        right.advance(seconds)
    }

    /// The same with a monotonic clock reading in seconds: the first call only sets the origin.
    public mutating func advance(to now: Double) {
        if let last = lastAdvance { advance(seconds: now - last) }
        lastAdvance = now
    }
    private var lastAdvance: Double?

    /// Switches the clip lamps off.
    public mutating func resetClip() {
        left.clipped = false
        right.clipped = false
    }

    /// Starts a new integrated-loudness and true-peak measurement.
    public mutating func resetLoudness() {
        loudness.resetIntegrated()
        left.truePeak = 0
        right.truePeak = 0
    }

    /// Everything, back to silence.
    public mutating func reset(sampleRate: Double) {
        self.sampleRate = sampleRate
        left = PeakBallistics()
        right = PeakBallistics()
        rms = SlotWindow(slotSeconds: 0.01, slotCount: 30, sampleRate: sampleRate)
        loudness = LoudnessMeter(sampleRate: sampleRate)
    }

    public var readout: Readout {
        let power = rms.meanSquares(lastSlots: 30)
        return Readout(
            left: left.readout(rmsDB: MeterMath.decibels(power: power.x)),
            right: right.readout(rmsDB: MeterMath.decibels(power: power.y)),
            momentaryLUFS: loudness.momentaryLUFS,
            shortTermLUFS: loudness.shortTermLUFS,
            integratedLUFS: loudness.integratedLUFS,
            truePeakDB: MeterMath.decibels(amplitude: Double(max(left.truePeak, right.truePeak))),
            measuredSeconds: loudness.measuredSeconds)
    }
}

/// One channel's peak needle, hold marker, clip lamp and true-peak maximum.
struct PeakBallistics: Sendable {
    var peakDB = -Double.infinity
    var holdDB = -Double.infinity
    var holdAge = 0.0
    var clipped = false
    var truePeak: Float = 0

    mutating func hit(_ peak: Float, truePeak: Float) {
        let db = MeterMath.decibels(amplitude: Double(peak))
        if db > peakDB { peakDB = db }
        if db >= holdDB && db > -Double.infinity { holdDB = db; holdAge = 0 }
        if peak >= 1 { clipped = true }
        self.truePeak = max(self.truePeak, truePeak)
    }

    mutating func advance(_ seconds: Double) {
        peakDB -= MeterState.peakFallDecibelsPerSecond * seconds
        if peakDB < MeterState.floorDB { peakDB = -.infinity }
        holdAge += seconds
        // An expired hold follows the falling peak until a higher one comes.
        if holdAge >= MeterState.peakHoldSeconds { holdDB = peakDB }
    }

    func readout(rmsDB: Double) -> MeterState.Readout.Channel {
        MeterState.Readout.Channel(peakDB: peakDB, rmsDB: rmsDB, holdDB: holdDB, clipped: clipped,
                             truePeakDB: MeterMath.decibels(amplitude: Double(truePeak)))
    }
}

/// Stereo sums over fixed slots of audio time (the last `slotCount` kept). A block that straddles a slot
/// boundary is split in proportion to its frames: periods rarely divide 10 or 100 ms.
struct SlotWindow: Sendable {
    let slotFrames: Double
    let slotCount: Int
    private var slots: [SIMD2<Double>]
    private var next = 0
    /// Completed slots kept (at most `slotCount`).
    private(set) var filled = 0
    private var partial = SIMD2<Double>(0, 0)
    private var partialFrames = 0.0

    init(slotSeconds: Double, slotCount: Int, sampleRate: Double) {
        slotFrames = max(1, slotSeconds * sampleRate)
        self.slotCount = slotCount
        slots = Array(repeating: SIMD2(0, 0), count: slotCount)
    }

    /// Adds a block; returns how many slots it completed (`add` callers that need each slot use `take`).
    @discardableResult
    mutating func add(frames: Double, sums: SIMD2<Double>) -> Int {
        var frames = frames, sums = sums, completed = 0
        while take(frames: &frames, sums: &sums) { completed += 1 }
        return completed
    }

    /// Moves the block's frames into the current slot; true when that completed a slot (call again with what
    /// is left), false when the block is used up.
    mutating func take(frames: inout Double, sums: inout SIMD2<Double>) -> Bool {
        guard frames > 0 else { return false }
        let room = slotFrames - partialFrames
        if frames < room {
            partial += sums
            partialFrames += frames
            frames = 0
            return false
        }
        let part = sums * (room / frames)
        sums -= part
        frames -= room
        slots[next] = partial + part
        next = (next + 1) % slotCount
        filled = min(filled + 1, slotCount)
        partial = SIMD2(0, 0)
        partialFrames = 0
        return true
    }

    /// Sum of the last `count` completed slots (fewer when fewer exist) and how many that was.
    func sum(lastSlots count: Int) -> (sums: SIMD2<Double>, slots: Int) {
        let n = min(count, filled)
        var total = SIMD2<Double>(0, 0)
        var index = next
        for _ in 0..<n {
            index = (index + slotCount - 1) % slotCount
            total += slots[index]
        }
        return (total, n)
    }

    /// Mean square per channel over the last `count` slots (zero when none completed yet).
    func meanSquares(lastSlots count: Int) -> SIMD2<Double> {
        let (sums, n) = sum(lastSlots: count)
        return n > 0 ? sums / (Double(n) * slotFrames) : SIMD2(0, 0)
    }
}

/// Math without Foundation (DSP imports none): accurate double-precision log, powers and trigonometry for
/// readouts and filter designs. Not for the real-time path.
public enum MeterMath {
    /// 20 log10(amplitude); -infinity for 0.
    public static func decibels(amplitude: Double) -> Double { amplitude > 0 ? 20 * log10(amplitude) : -.infinity }
    /// 10 log10(power); -infinity for 0.
    public static func decibels(power: Double) -> Double { power > 0 ? 10 * log10(power) : -.infinity }

    /// Natural logarithm (x > 0) to double precision: exponent from the bits, mantissa in [0.707, 1.414)
    /// through the atanh series.
    public static func ln(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        var exponent = Double(x.exponent)
        var m = x.significand  // 1 <= m < 2
        if m > 1.414_213_562_373_095 { m /= 2; exponent += 1 }
        let u = (m - 1) / (m + 1), u2 = u * u
        var term = u, sum = 0.0, k = 1.0
        for _ in 0..<16 {
            sum += term / k
            term *= u2
            k += 2
        }
        return 2 * sum + exponent * 0.693_147_180_559_945_3
    }

    public static func log10(_ x: Double) -> Double { ln(x) * 0.434_294_481_903_251_8 }
    public static func power10(_ x: Double) -> Double { FastMath.exp2(x * 3.321_928_094_887_362_3) }
    /// base^exponent for base > 0.
    public static func power(_ base: Double, _ exponent: Double) -> Double {
        FastMath.exp2(exponent * ln(base) * 1.442_695_040_888_963_4)
    }
    public static func sin(_ x: Double) -> Double { FastMath.sin(x) }
    public static func cos(_ x: Double) -> Double { FastMath.cos(x) }
    public static func tan(_ x: Double) -> Double { FastMath.sin(x) / FastMath.cos(x) }
}
