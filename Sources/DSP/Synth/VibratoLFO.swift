// The built-in voice's vibrato LFO, the counterpart of the sample voices' SampleLFO: one channel's 5.5 Hz
// sine, read from the shared sine table with linear interpolation; `process` makes one sample.

/// One channel's vibrato LFO for a slice: its phase (0..<1, kept in `ChannelControlState.lfoPhase` between
/// slices), the phase step per sample and the sine table it reads.
struct VibratoLFO {
    var phase: Float
    let increment: Float
    let sine: UnsafePointer<Float>

    @_noLocks @inline(__always)
    init(phase: Float, increment: Float, sine: UnsafePointer<Float>) {
        self.phase = phase
        self.increment = increment
        self.sine = sine
    }

    /// One sample: the phase moves on and the sine at it.
    @_noLocks @inline(__always)
    mutating func process() -> Float {
        phase += increment
        if phase >= 1 { phase -= 1 }
        let x = phase * wavetableSize
        let i = Int(x)
        return sine[i] + (x - Float(i)) * (sine[i + 1] - sine[i])
    }

    /// Moves `frames` samples on without reading the sine: without vibrato the LFO keeps its pace.
    @_noLocks @inline(__always)
    mutating func skip(_ frames: Int) {
        phase += Float(frames) * increment
        phase -= Float(Int(phase))
    }
}
