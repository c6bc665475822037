/// Stereo output of `frames` frames filled a period at a time, as an audio thread fills its buffers:
/// `render(start, count, left, right)` writes frames `start ..< start + count` at `left` and `right` (the last
/// period may be short).
public func renderInPeriods(frames: Int, period: Int,
                            _ render: (_ start: Int, _ count: Int, UnsafeMutablePointer<Float>,
                                       UnsafeMutablePointer<Float>) -> Void) -> (left: [Float], right: [Float]) {
    var left = [Float](repeating: 0, count: frames), right = left
    var start = 0
    while start < frames {
        let count = min(period, frames - start)
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in render(start, count, l.baseAddress! + start, r.baseAddress! + start) }
        }
        start += count
    }
    return (left, right)
}
