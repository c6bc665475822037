// The per-sample half of the meters, for the real-time callback: sample peak, sum of squares, ITU-R BS.1770
// K-weighted sum of squares and 4x oversampled true peak of each period. The UI-side `MeterState` does the
// ballistics, windows and gating from these figures, so the UI never reads audio.

/// Computes `PeriodMeasure`s of a stereo stream. `init` and `prepare` allocate or may be slow: call them
/// before the real-time thread runs (again to change the rate, while it does not). `process` is `@_noLocks`,
/// for one real-time thread; it keeps filter and oversampler state from period to period.
public final class LoudnessProcessor: @unchecked Sendable {
    /// 48-tap, 4-phase interpolation FIR of BS.1770-4 Annex 2 (12 taps per phase).
    static let truePeakTaps: [[Double]] = [
        [0.0017089843750, 0.0109863281250, -0.0196533203125, 0.0332031250000, -0.0594482421875, 0.1373291015625,
         0.9721679687500, -0.1022949218750, 0.0476074218750, -0.0266113281250, 0.0148925781250, -0.0083007812500],
        [-0.0291748046875, 0.0292968750000, -0.0517578125000, 0.0891113281250, -0.1665039062500, 0.4650878906250,
         0.7797851562500, -0.2003173828125, 0.1015625000000, -0.0582275390625, 0.0330810546875, -0.0189208984375],
        [-0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625000000, -0.2003173828125, 0.7797851562500,
         0.4650878906250, -0.1665039062500, 0.0891113281250, -0.0517578125000, 0.0292968750000, -0.0291748046875],
        [-0.0083007812500, 0.0148925781250, -0.0266113281250, 0.0476074218750, -0.1022949218750, 0.9721679687500,
         0.1373291015625, -0.0594482421875, 0.0332031250000, -0.0196533203125, 0.0109863281250, 0.0017089843750],
    ]

    public private(set) var sampleRate: Double = 48_000
    /// 10 coefficients (pre-filter b0 b1 b2 a1 a2, high-pass b0 b1 b2 a1 a2) then 8 filter states (per
    /// channel: the two direct-form-II-transposed states of each stage).
    private let filter: FixedArray<Double>
    /// 48 taps, phase-major: taps[phase * 12 + k] multiplies x[n - k].
    private let taps: FixedArray<Float>
    /// Per channel, the last 12 input samples twice over (positions i and i + 12), newest first from `head`,
    /// so each phase reads 12 contiguous samples without wrapping.
    private let history: FixedArray<Float>
    private let head: FixedArray<Int>

    public init(sampleRate: Double = 48_000) {
        filter = FixedArray(18, 0.0)
        taps = FixedArray(count: 48) { i in Float(Self.truePeakTaps[i / 12][i % 12]) }
        history = FixedArray(48, Float(0))
        head = FixedArray(1, 0)
        prepare(sampleRate: sampleRate)
    }

    /// Designs the K-weighting for `sampleRate` and clears all state.
    public func prepare(sampleRate: Double) {
        self.sampleRate = sampleRate
        let pre = KWeighting.preFilter(sampleRate: sampleRate), rlb = KWeighting.rlbHighPass(sampleRate: sampleRate)
        for (i, c) in [pre.b0, pre.b1, pre.b2, pre.a1, pre.a2, rlb.b0, rlb.b1, rlb.b2, rlb.a1, rlb.a2].enumerated() {
            filter[i] = c
        }
        reset()
    }

    /// Clears the filter and oversampler state (not real-time: use between streams).
    public func reset() {
        (filter.baseAddress + 10).update(repeating: 0, count: 8)
        history.baseAddress.update(repeating: 0, count: 48)
        head[0] = 0
    }

    /// Measures one period of `frames` samples per channel.
    @_noLocks
    public func process(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) -> PeriodMeasure {
        let a = measureChannel(left, frames: frames, state: filter.baseAddress + 10, history: history.baseAddress)
        let b = measureChannel(right, frames: frames, state: filter.baseAddress + 14, history: history.baseAddress + 24)
        // Both channels advanced the same number of samples; one shared write position.
        head[0] = ((head[0] - frames) % 12 + 12) % 12
        return PeriodMeasure(frames: frames, peakLeft: a.peak, peakRight: b.peak, sumSquaresLeft: a.sum,
                             sumSquaresRight: b.sum, kSumSquaresLeft: a.kSum, kSumSquaresRight: b.kSum,
                             truePeakLeft: a.truePeak, truePeakRight: b.truePeak)
    }

    @_noLocks
    private func measureChannel(_ x: UnsafePointer<Float>, frames: Int, state: UnsafeMutablePointer<Double>,
                                history: UnsafeMutablePointer<Float>) -> (peak: Float, sum: Float, kSum: Float, truePeak: Float) {
        let f = filter.baseAddress
        let (pb0, pb1, pb2, pa1, pa2) = (f[0], f[1], f[2], f[3], f[4])
        let (hb0, hb1, hb2, ha1, ha2) = (f[5], f[6], f[7], f[8], f[9])
        var (p1, p2, h1, h2) = (state[0], state[1], state[2], state[3])
        var peak: Float = 0, truePeak: Float = 0
        var sum = 0.0, kSum = 0.0
        var position = head[0]
        for i in 0..<frames {
            let sample = x[i]
            let s = Double(sample)
            peak = max(peak, abs(sample))
            sum += s * s
            // Direct form II transposed, in Double: the 38 Hz high-pass needs the precision.
            let y1 = pb0 * s + p1
            p1 = pb1 * s - pa1 * y1 + p2
            p2 = pb2 * s - pa2 * y1
            let y2 = hb0 * y1 + h1
            h1 = hb1 * y1 - ha1 * y2 + h2
            h2 = hb2 * y1 - ha2 * y2
            kSum += y2 * y2

            // Newest sample first at `position`, also mirrored 12 further on.
            position = position == 0 ? 11 : position - 1
            history[position] = sample
            history[position + 12] = sample
            let recent = history + position
            var phase = 0
            while phase < 4 {
                let t = taps.baseAddress + phase * 12
                var acc: Float = 0
                var k = 0
                while k < 12 { acc += t[k] * recent[k]; k += 1 }
                truePeak = max(truePeak, abs(acc))
                phase += 1
            }
        }
        // Tiny values would go denormal and slow the filter down in silence.
        if abs(p1) < 1e-30 { p1 = 0 }
        if abs(p2) < 1e-30 { p2 = 0 }
        if abs(h1) < 1e-30 { h1 = 0 }
        if abs(h2) < 1e-30 { h2 = 0 }
        (state[0], state[1], state[2], state[3]) = (p1, p2, h1, h2)
        return (peak, Float(sum), Float(kSum), max(truePeak, peak))
    }
}
