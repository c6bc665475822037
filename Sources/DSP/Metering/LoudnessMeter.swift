// ITU-R BS.1770-4 / EBU R128 loudness from K-weighted sums of squares: momentary (400 ms), short-term (3 s)
// and gated integrated loudness. Channel weights are 1 for left and right.

/// Loudness of a stereo stream, fed with the K-weighted sums of squares of its periods.
///
/// Audio time is cut into 100 ms slots. Momentary loudness is the mean of the last 4 slots, short-term of
/// the last 30; every completed slot also closes a 400 ms gating block (4 slots: 75 % overlap), which
/// takes part in the integrated loudness when above the absolute gate (-70 LUFS), and then only when
/// above the relative gate (the absolute-gated mean minus 10 LU).
public struct LoudnessMeter: Sendable {
    /// L = -0.691 + 10 log10(sum of the channels' mean squares).
    public static let offset = -0.691
    public static let absoluteGateLUFS = -70.0
    public static let relativeGateLU = -10.0

    private var window: SlotWindow
    /// Powers (sum over channels of mean squares) of the gating blocks above the absolute gate.
    private var gatedBlocks: [Double] = []
    private var gatedSum = 0.0
    private var totalFrames = 0.0
    private let sampleRate: Double

    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        window = SlotWindow(slotSeconds: 0.1, slotCount: 30, sampleRate: sampleRate)
    }

    /// Adds one period: `frames` frames whose K-weighted squares sum to `kSums` (left, right).
    public mutating func add(frames: Double, kSums: SIMD2<Double>) {
        var frames = frames, sums = kSums
        totalFrames += frames
        while window.take(frames: &frames, sums: &sums) {
            let (block, slots) = window.sum(lastSlots: 4)
            guard slots == 4 else { continue }
            let power = (block.x + block.y) / (4 * window.slotFrames)
            if Self.loudness(power: power) > Self.absoluteGateLUFS {
                gatedBlocks.append(power)
                gatedSum += power
            }
        }
    }

    /// Starts a new integrated measurement (momentary and short-term windows keep running).
    public mutating func resetIntegrated() {
        gatedBlocks.removeAll(keepingCapacity: true)
        gatedSum = 0
        totalFrames = 0
    }

    public var momentaryLUFS: Double { windowLoudness(slots: 4) }
    public var shortTermLUFS: Double { windowLoudness(slots: 30) }
    public var measuredSeconds: Double { totalFrames / sampleRate }

    public var integratedLUFS: Double {
        guard !gatedBlocks.isEmpty else { return -.infinity }
        let relativeGate = gatedSum / Double(gatedBlocks.count) * MeterMath.power10(Self.relativeGateLU / 10)
        var sum = 0.0, count = 0
        for power in gatedBlocks where power > relativeGate {
            sum += power
            count += 1
        }
        return count > 0 ? Self.loudness(power: sum / Double(count)) : -.infinity
    }

    /// Before a window has filled, the loudness of what there is.
    private func windowLoudness(slots: Int) -> Double {
        let (sums, n) = window.sum(lastSlots: slots)
        guard n > 0 else { return -.infinity }
        return Self.loudness(power: (sums.x + sums.y) / (Double(n) * window.slotFrames))
    }

    public static func loudness(power: Double) -> Double {
        power > 0 ? offset + 10 * MeterMath.log10(power) : -.infinity
    }
}
