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
            /// Peak with instant attack, falling 20 dB in 1.7 s (IEC 60268-10 Type I return time).
            public var peakDB: Double
            /// RMS over the last 300 ms of audio (a full-scale sine reads -3 dB): the 300 ms integration time
            /// of a VU meter (IEC 60268-17), rising and falling with the window.
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

    /// The peak needle's fall: 20 dB in 1.7 s, the return time of IEC 60268-10's Type I peak programme meter
    /// (the EBU/Nordic class; DIN 45406's 1.5 s is close), about 11.8 dB per second.
    public static let peakFallDecibelsPerSecond = 20.0 / 1.7
    public static let peakHoldSeconds = 2.0
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
