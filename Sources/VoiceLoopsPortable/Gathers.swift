// The reads of the eight-lane loops (EightLaneLoops.swift) for any CPU on x86-64, where SSE2 has no gather
// (elsewhere the shared file's portable reads).
#if arch(x86_64)
import VoiceLoops
import _Builtin_intrinsics.intel

/// Eight lanes' interpolated values as DSP's four-lane `fourPoints` reads them: each lane's points and row as
/// one 8-byte load each, two lanes side by side in a register, multiplied and added in pairs (pmaddwd, a C
/// intrinsic: one instruction, which the performance checker cannot see into), each lane's two pair sums
/// added. The same integers as `portableInterpolation`.
@_noLocks @inline(__always)
func interpolation(points: SIMD8<Int64>, rows: UnsafeRawPointer, row: SIMD8<Int64>) -> SIMD8<Float> {
    @inline(__always) func words(_ l: Int) -> Double {
        UnsafeRawPointer(bitPattern: Int(points[l]) &* 2).unsafelyUnwrapped.loadUnaligned(as: Double.self)
    }
    @inline(__always) func weights(_ l: Int) -> Double { rows.load(fromByteOffset: Int(row[l]) &* 8, as: Double.self) }
    @inline(__always) func pairs(_ a: Int) -> SIMD4<Int32> {
        let xs = unsafeBitCast(SIMD2(words(a), words(a &+ 1)), to: __m128i.self)
        let ws = unsafeBitCast(SIMD2(weights(a), weights(a &+ 1)), to: __m128i.self)
        return _unsafePerformance { unsafeBitCast(_mm_madd_epi16(xs, ws), to: SIMD4<Int32>.self) }
    }
    let ab = pairs(0), cd = pairs(2), ef = pairs(4), gh = pairs(6)
    let low = SIMD4(ab[0], ab[2], cd[0], cd[2]) &+ SIMD4(ab[1], ab[3], cd[1], cd[3])
    let high = SIMD4(ef[0], ef[2], gh[0], gh[2]) &+ SIMD4(ef[1], ef[3], gh[1], gh[3])
    return SIMD8<Float>(SIMD8(lowHalf: low, highHalf: high))
}

/// Sixteen 16-bit words times sixteen weights added in pairs: two pmaddwd.
@_noLocks @inline(__always)
func multiplyPairs16(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
    SIMD8(lowHalf: multiplyPairs(a.lowHalf, b.lowHalf), highHalf: multiplyPairs(a.highHalf, b.highHalf))
}

/// Eight lanes' wavetable pairs (`portablePairs`).
@_noLocks @inline(__always)
func tablePairs(_ pairs: UnsafeRawPointer, _ index: SIMD8<UInt32>) -> (values: SIMD8<Float>, deltas: SIMD8<Float>) {
    portablePairs(pairs, index)
}
#endif
