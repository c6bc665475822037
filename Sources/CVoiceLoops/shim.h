// The two things the AVX-512 sample loop (Sources/VoiceLoopsAVX512) needs from C: the gathers, which C
// offers only as macros (Swift imports functions, not macros), and whether this CPU and its OS run AVX-512
// at all (asked once, by DSP, before that loop is ever called).
#ifndef BACKBEAT_VOICE_LOOPS_SHIM_H
#define BACKBEAT_VOICE_LOOPS_SHIM_H
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// Eight 8-byte reads at the 16-bit word indices `index` (addresses twice the indices): each lane's four
/// sample points.
static inline __attribute__((always_inline, target("avx512f"))) __m512i backbeat_gather_words(__m512i index) {
    return _mm512_i64gather_epi64(index, (const void *)0, 2);
}

/// Eight 8-byte rows of `rows` at `index`: each lane's four interpolation weights.
static inline __attribute__((always_inline, target("avx512f"))) __m512i backbeat_gather_rows(__m512i index,
                                                                                            const void *rows) {
    return _mm512_i64gather_epi64(index, rows, 8);
}

/// Eight 8-byte entries of `pairs` at the 32-bit indices `index`: each built-in voice's wavetable pair
/// (value, delta).
static inline __attribute__((always_inline, target("avx512f"))) __m512i backbeat_gather_pairs(__m256i index,
                                                                                             const void *pairs) {
    return _mm512_i32gather_epi64(index, pairs, 8);
}

/// Whether the CPU has AVX-512 F, CD, BW, DQ and VL (what `-target-cpu skylake-avx512` lets the compiler
/// use) and the OS saves the registers they use (XCR0: SSE, AVX, opmask, the upper ZMM halves, ZMM16-31).
static inline int backbeat_cpu_runs_avx512(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 0;
    unsigned int low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 0xE6) != 0xE6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    unsigned int needed = bit_AVX512F | bit_AVX512CD | bit_AVX512BW | bit_AVX512DQ | bit_AVX512VL;
    return (b & needed) == needed;
}
#else
static inline int backbeat_cpu_runs_avx512(void) { return 0; }
#endif
#endif
