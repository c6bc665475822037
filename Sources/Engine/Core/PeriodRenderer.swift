// The sample-accurate split of one period, written once: the JACK callback, the ALSA PCM thread (through
// `RealtimeContext`) and the offline renderer all render through it, so offline output matches live output
// sample for sample. Real-time safe (`@_noLocks`, checked by the release build).
import DSP

/// One period's output buffers and how far they are rendered. An event at frame k is applied after
/// rendering up to k (`render(upTo:)`), so it changes the sound at frame k; `finish` renders the rest.
/// The synth is called with at most `chunk` frames at a time (what it was prepared for).
public struct PeriodRenderer: BitwiseCopyable {
    public let left: UnsafeMutablePointer<Float>
    public let right: UnsafeMutablePointer<Float>
    public let frames: Int
    public let chunk: Int
    /// Frames rendered so far, 0...frames.
    public private(set) var rendered = 0

    @_noLocks
    public init(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int, chunk: Int) {
        self.left = left
        self.right = right
        self.frames = frames
        self.chunk = max(1, chunk)
    }

    /// Renders frames [rendered, frame) (clamped to the period; an earlier frame renders nothing).
    @_noLocks
    public mutating func render(upTo frame: Int, _ synth: Unmanaged<Synth>) {
        let end = min(frame, frames)
        while rendered < end {
            let count = min(end - rendered, chunk)
            let at = rendered
            synth._withUnsafeGuaranteedRef { $0.render(left: left + at, right: right + at, frames: count) }
            rendered += count
        }
    }

    /// Renders the rest of the period.
    @_noLocks
    public mutating func finish(_ synth: Unmanaged<Synth>) { render(upTo: frames, synth) }
}
