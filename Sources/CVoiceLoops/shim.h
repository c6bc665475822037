// What the voices' AVX2 and AVX-512 loops (Sources/VoiceLoopsAVX2, Sources/VoiceLoopsAVX512) need from C: the
// gathers, which C offers only as macros (Swift imports functions, not macros), and whether this CPU and its
// OS run each instruction set at all (asked once, by DSP, before either module is ever called).
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

/// The AVX2 loop's interpolation of eight lanes (lanes 0-3 from the `Low` indices, 4-7 from `High`): each
/// lane's four 16-bit points at the 16-bit word index `words` and its row of four 16-bit weights at `row` in
/// `rows`, multiplied and added in pairs (vpmaddwd), each lane's two pair sums added, the eight sums packed
/// into one register as floats. Integer arithmetic, exact: the same values as the other paths. The reads go
/// lane by lane, one 8-byte load each, two lanes side by side in a register: AVX2's vpgatherqq was slower
/// than these loads on the AMD EPYC measured (README, Measured).
static inline __attribute__((always_inline, target("avx2,fma"))) __m256 backbeat_avx2_interpolation(
    __m256i wordsLow, __m256i wordsHigh, __m256i rowLow, __m256i rowHigh, const void *rows) {
    long long w[8] __attribute__((aligned(32))), r[8] __attribute__((aligned(32)));
    _mm256_store_si256((__m256i *)w, wordsLow);
    _mm256_store_si256((__m256i *)(w + 4), wordsHigh);
    _mm256_store_si256((__m256i *)r, rowLow);
    _mm256_store_si256((__m256i *)(r + 4), rowHigh);
    const char *table = (const char *)rows;
#define BACKBEAT_TWO(p, q) _mm_castpd_si128(_mm_loadh_pd(_mm_load_sd((const double *)(p)), (const double *)(q)))
    __m256i points0 = _mm256_inserti128_si256(_mm256_castsi128_si256(BACKBEAT_TWO(w[0] * 2, w[1] * 2)), BACKBEAT_TWO(w[2] * 2, w[3] * 2), 1);
    __m256i points1 = _mm256_inserti128_si256(_mm256_castsi128_si256(BACKBEAT_TWO(w[4] * 2, w[5] * 2)), BACKBEAT_TWO(w[6] * 2, w[7] * 2), 1);
    __m256i weights0 = _mm256_inserti128_si256(_mm256_castsi128_si256(BACKBEAT_TWO(table + r[0] * 8, table + r[1] * 8)),
                                               BACKBEAT_TWO(table + r[2] * 8, table + r[3] * 8), 1);
    __m256i weights1 = _mm256_inserti128_si256(_mm256_castsi128_si256(BACKBEAT_TWO(table + r[4] * 8, table + r[5] * 8)),
                                               BACKBEAT_TWO(table + r[6] * 8, table + r[7] * 8), 1);
#undef BACKBEAT_TWO
    __m256 low = _mm256_castsi256_ps(_mm256_madd_epi16(points0, weights0));
    __m256 high = _mm256_castsi256_ps(_mm256_madd_epi16(points1, weights1));
    __m256i sums = _mm256_add_epi32(_mm256_castps_si256(_mm256_shuffle_ps(low, high, 0x88)),
                                    _mm256_castps_si256(_mm256_shuffle_ps(low, high, 0xDD)));
    return _mm256_cvtepi32_ps(_mm256_permute4x64_epi64(sums, 0xD8));
}

/// The AVX2 loop's wavetable reads: eight lanes' entries (value, delta) at the 32-bit indices `index` in
/// `pairs` in two gathers of four 8-byte entries, their values and deltas taken apart into `values` and
/// `deltas` (out-parameters: Swift does not import a C function returning a struct of vectors).
static inline __attribute__((always_inline, target("avx2,fma"))) void backbeat_avx2_pairs(
    __m256i index, const void *pairs, void *values, void *deltas) {
    unsigned int i[8] __attribute__((aligned(32)));
    _mm256_store_si256((__m256i *)i, index);
    const double *entries = (const double *)pairs;
#define BACKBEAT_TWO(p, q) _mm_loadh_pd(_mm_load_sd(entries + (p)), entries + (q))
    __m256 low = _mm256_castpd_ps(_mm256_insertf128_pd(_mm256_castpd128_pd256(BACKBEAT_TWO(i[0], i[1])), BACKBEAT_TWO(i[2], i[3]), 1));
    __m256 high = _mm256_castpd_ps(_mm256_insertf128_pd(_mm256_castpd128_pd256(BACKBEAT_TWO(i[4], i[5])), BACKBEAT_TWO(i[6], i[7]), 1));
#undef BACKBEAT_TWO
    // v0 d0 v1 d1 | v2 d2 v3 d3 and v4 d4 v5 d5 | v6 d6 v7 d7: even words are values, odd ones deltas.
    __m256 even = _mm256_shuffle_ps(low, high, 0x88); // v0 v1 v4 v5 | v2 v3 v6 v7
    __m256 odd = _mm256_shuffle_ps(low, high, 0xDD);
    _mm256_storeu_ps((float *)values, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(even), 0xD8)));
    _mm256_storeu_ps((float *)deltas, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(odd), 0xD8)));
}

/// Whether the CPU has what `-target-cpu haswell` lets the compiler use (AVX, AVX2, FMA, F16C, MOVBE, BMI1,
/// BMI2, LZCNT) and the OS saves the YMM registers (XCR0: SSE and AVX state).
static inline int backbeat_cpu_runs_avx2(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    unsigned int leaf1 = bit_OSXSAVE | bit_AVX | bit_FMA | bit_F16C | bit_MOVBE;
    if ((c & leaf1) != leaf1) return 0;
    unsigned int low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 0x6) != 0x6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    unsigned int leaf7 = bit_AVX2 | bit_BMI | bit_BMI2;
    if ((b & leaf7) != leaf7) return 0;
    if (!__get_cpuid(0x80000001, &a, &b, &c, &d)) return 0;
    return (c & bit_LZCNT) != 0;
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
static inline int backbeat_cpu_runs_avx2(void) { return 0; }
static inline int backbeat_cpu_runs_avx512(void) { return 0; }
#endif
#endif
