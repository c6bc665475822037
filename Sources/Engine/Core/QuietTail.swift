// Where an offline render's tail ends: a release or reverb tail extends the render only while it is audible.

/// The periods after the end of a render's input whose peak is below `threshold` (-90 dBFS), held back
/// instead of written: if the output rises above it again (a voice with a delayed attack), they are written
/// first, unchanged; once `window` (one second) of them has passed the tail is over and they are dropped, so
/// the render ends with the last audible period. A tail that fades slowly ends where it goes below -90 dBFS,
/// not where the last voice's envelope or the reverb's feedback reaches zero.
struct QuietTail {
    /// -90 dBFS: below 16-bit dither, far below anything a listener hears after a note.
    static var threshold: Float { 0.000_031_622_776 }

    private var left: [Float] = [], right: [Float] = []
    private let window: Int

    init(periodFrames: Int, sampleRate: Double) {
        window = max(OfflineRenderer.frames(in: 1, sampleRate: sampleRate), periodFrames)
    }

    /// True when a second of held periods has passed below the threshold.
    var isOver: Bool { left.count >= window }

    /// The held frames start at the input's end (End-of-Track): when they are dropped, so is the padding, and
    /// the render ends exactly there.
    private(set) var fromEnd = false

    /// Whether the peak of the period is below the threshold.
    func isQuiet(_ periodLeft: UnsafeMutableBufferPointer<Float>, _ periodRight: UnsafeMutableBufferPointer<Float>) -> Bool {
        max(periodLeft.reduce(0) { max($0, abs($1)) }, periodRight.reduce(0) { max($0, abs($1)) }) < Self.threshold
    }

    /// Holds the period when its peak is below the threshold (true); false when it is audible. `atEnd`: the
    /// period starts at the input's end.
    mutating func hold(_ periodLeft: UnsafeMutableBufferPointer<Float>,
                       _ periodRight: UnsafeMutableBufferPointer<Float>, atEnd: Bool = false) -> Bool {
        guard isQuiet(periodLeft, periodRight) else { return false }
        if left.isEmpty { fromEnd = atEnd }
        left += periodLeft
        right += periodRight
        return true
    }

    /// Writes the held periods (the tail sounded again) and forgets them.
    mutating func flush(into sink: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>) throws -> Void) rethrows {
        guard !left.isEmpty else { return }
        try left.withUnsafeBufferPointer { l in try right.withUnsafeBufferPointer { r in try sink(l, r) } }
        left.removeAll(keepingCapacity: true)
        right.removeAll(keepingCapacity: true)
        fromEnd = false
    }
}
