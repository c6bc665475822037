// The read the AVX2 and AVX-512 loops do alike: VoiceLoopsAVX2 and VoiceLoopsAVX512 each compile this file
// (a link, as they do Shared/EightLaneLoops.swift) for their own CPU; VoiceLoops itself excludes it.
#if arch(x86_64)
import _Builtin_intrinsics.intel

/// Sixteen 16-bit words times sixteen weights added in pairs: one vpmaddwd (a C intrinsic, one instruction).
@_noLocks @inline(__always)
func multiplyPairs16(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
    _unsafePerformance {
        unsafeBitCast(_mm256_madd_epi16(unsafeBitCast(a, to: __m256i.self), unsafeBitCast(b, to: __m256i.self)),
                      to: SIMD8<Int32>.self)
    }
}
#endif
