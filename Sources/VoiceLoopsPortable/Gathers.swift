// The reads of the eight-lane loops (EightLaneLoops.swift) for any CPU: lane by lane, since SSE2 and NEON
// have no gather.
import VoiceLoops

/// Eight lanes' interpolated values (`portableInterpolation`).
@_noLocks @inline(__always)
func interpolation(points: SIMD8<Int64>, rows: UnsafeRawPointer, row: SIMD8<Int64>) -> SIMD8<Float> {
    portableInterpolation(points: points, rows: rows, row: row)
}

/// Eight lanes' wavetable pairs (`portablePairs`).
@_noLocks @inline(__always)
func tablePairs(_ pairs: UnsafeRawPointer, _ index: SIMD8<UInt32>) -> (values: SIMD8<Float>, deltas: SIMD8<Float>) {
    portablePairs(pairs, index)
}
