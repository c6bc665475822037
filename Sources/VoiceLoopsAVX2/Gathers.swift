// The reads of the eight-lane loops (EightLaneLoops.swift) with AVX2 (CVoiceLoops): lane by lane, two lanes
// to a register, since vpgatherqq was slower than these loads on the AMD EPYC measured.
import VoiceLoops

#if arch(x86_64)
import CVoiceLoops

/// Eight lanes' interpolated values: points and table rows multiplied and added in pairs (vpmaddwd), the
/// pairs added and the eight sums packed into one register (`backbeat_avx2_interpolation`).
@_noLocks @inline(__always)
func interpolation(points: SIMD8<Int64>, rows: UnsafeRawPointer, row: SIMD8<Int64>) -> SIMD8<Float> {
    _unsafePerformance {
        backbeat_avx2_interpolation(points.lowHalf, points.highHalf, row.lowHalf, row.highHalf, rows)
    }
}

/// Eight lanes' wavetable pairs, split into values and deltas (`backbeat_avx2_pairs`).
@_noLocks @inline(__always)
func tablePairs(_ pairs: UnsafeRawPointer, _ index: SIMD8<UInt32>) -> (values: SIMD8<Float>, deltas: SIMD8<Float>) {
    _unsafePerformance {
        var values = SIMD8<Float>(), deltas = SIMD8<Float>()
        backbeat_avx2_pairs(unsafeBitCast(index, to: SIMD4<Int64>.self), pairs, &values, &deltas)
        return (values, deltas)
    }
}
#endif
