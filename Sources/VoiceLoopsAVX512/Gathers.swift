// The reads of the eight-lane loops (EightLaneLoops.swift) with AVX-512: one gather of eight lanes each.
import VoiceLoops

#if arch(x86_64)
import CVoiceLoops
import _Builtin_intrinsics.intel

/// Eight lanes' interpolated values: their points and their table rows in two gathers, multiplied and added
/// in pairs (vpmaddwd), the pairs added. Intrinsics are C functions, which the performance checker cannot see
/// into: each is one instruction.
@_noLocks @inline(__always)
func interpolation(points: SIMD8<Int64>, rows: UnsafeRawPointer, row: SIMD8<Int64>) -> SIMD8<Float> {
    _unsafePerformance {
        let pairs = _mm512_madd_epi16(backbeat_gather_words(points), backbeat_gather_rows(row, rows))
        // Each lane's two pair sums are the halves of its 64-bit lane: added, the low half holds the sum.
        let sums = pairs &+ (pairs &>> 32)
        return _mm256_cvtepi32_ps(_mm512_cvtepi64_epi32(sums))
    }
}

/// Eight lanes' wavetable pairs in one gather, split into values and deltas.
@_noLocks @inline(__always)
func tablePairs(_ pairs: UnsafeRawPointer, _ index: SIMD8<UInt32>) -> (values: SIMD8<Float>, deltas: SIMD8<Float>) {
    _unsafePerformance {
        let entries = unsafeBitCast(backbeat_gather_pairs(unsafeBitCast(index, to: __m256i.self), pairs),
                                    to: SIMD8<UInt64>.self)
        // Each entry is a value then its delta (little-endian: the value in the low half).
        return (unsafeBitCast(_mm512_cvtepi64_epi32(unsafeBitCast(entries, to: __m512i.self)), to: SIMD8<Float>.self),
                unsafeBitCast(_mm512_cvtepi64_epi32(unsafeBitCast(entries &>> 32, to: __m512i.self)), to: SIMD8<Float>.self))
    }
}
#endif
