/// The figures of one period of stereo audio, computed where every sample is seen.
public struct PeriodMeasure: Sendable, BitwiseCopyable, Equatable {
    public var frames: Int
    /// Largest absolute sample value.
    public var peakLeft: Float
    public var peakRight: Float
    /// Sum of the squared samples.
    public var sumSquaresLeft: Float
    public var sumSquaresRight: Float
    /// Sum of the squared K-weighted samples (BS.1770 pre-filter + RLB high-pass).
    public var kSumSquaresLeft: Float
    public var kSumSquaresRight: Float
    /// Largest absolute value of the 4x oversampled signal (BS.1770-4 Annex 2), never below the sample peak.
    public var truePeakLeft: Float
    public var truePeakRight: Float

    @_noLocks
    public init(frames: Int, peakLeft: Float, peakRight: Float, sumSquaresLeft: Float, sumSquaresRight: Float,
                kSumSquaresLeft: Float = 0, kSumSquaresRight: Float = 0, truePeakLeft: Float = 0, truePeakRight: Float = 0) {
        self.frames = frames
        self.peakLeft = peakLeft
        self.peakRight = peakRight
        self.sumSquaresLeft = sumSquaresLeft
        self.sumSquaresRight = sumSquaresRight
        self.kSumSquaresLeft = kSumSquaresLeft
        self.kSumSquaresRight = kSumSquaresRight
        self.truePeakLeft = truePeakLeft
        self.truePeakRight = truePeakRight
    }
}
