// The reads of the eight-lane loops (EightLaneLoops.swift) with AVX2 (CVoiceLoops): lane by lane, two lanes
// to a register, since vpgatherqq was slower than these loads on the AMD EPYC measured.
import VoiceLoops

#if arch(x86_64)
import CVoiceLoops
import _Builtin_intrinsics.intel

/// Sixteen 16-bit words times sixteen weights added in pairs: one vpmaddwd (a C intrinsic, one instruction).
@_noLocks @inline(__always)
func multiplyPairs16(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
    _unsafePerformance {
        unsafeBitCast(_mm256_madd_epi16(unsafeBitCast(a, to: __m256i.self), unsafeBitCast(b, to: __m256i.self)),
                      to: SIMD8<Int32>.self)
    }
}

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
