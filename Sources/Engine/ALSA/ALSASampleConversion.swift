// The ALSA PCM thread's share of the real-time path: converting the synth's float planes to the device's
// interleaved format. @_noLocks, in a file of its own (no framework imports) like the JACK callback.

/// Float planes to interleaved float32 frames (the render path: checked lock- and allocation-free).
@_noLocks
func interleaveFloat32(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int,
                       into output: UnsafeMutablePointer<Float>) {
    for i in 0..<frames {
        output[2 * i] = left[i]
        output[2 * i + 1] = right[i]
    }
}

/// Float planes to interleaved signed 16-bit frames, clipped to full scale and rounded.
@_noLocks
func interleaveS16(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int,
                   into output: UnsafeMutablePointer<Int16>) {
    for i in 0..<frames {
        output[2 * i] = s16Sample(left[i])
        output[2 * i + 1] = s16Sample(right[i])
    }
}

@_noLocks @inline(__always)
func s16Sample(_ x: Float) -> Int16 {
    let clipped = x.isNaN ? 0 : min(max(x, -1), 1)
    // Rounded half away from zero (Float.rounded() takes a rounding-rule type: not allowed here).
    return Int16(clipped * 32767 + (clipped < 0 ? -0.5 : 0.5))
}
