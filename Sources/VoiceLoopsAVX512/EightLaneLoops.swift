// The voices' per-sample loops eight lanes wide with AVX-512: the sample voices' fast run (docs/soundfont.md,
// "Eight lanes at once with AVX-512") and a kept steady group of built-in voices. This module is compiled
// for AVX-512 CPUs (Package.swift) and holds only these loops and the filter steps they share with DSP. DSP
// calls the loops only after asking the CPU (`backbeat_cpu_runs_avx512`), and otherwise plays the same
// samples four lanes at a time (`fastRun` and `oscillateAndFilter` in DSP, SSE2). Both do the same
// arithmetic in the same order, so their output is the same bit for bit (DSPTests: SampleLaneCacheTests,
// LaneCacheTests, RenderChecksumTests): both take the filter steps below, which are emitted into each caller
// and compiled there (so DSP's four-lane copies are SSE2).

/// The sample voices' low-pass step, four lanes (DSP's `SampleLanes`) or eight (`playWideSampleRun`): the
/// state-variable filter's step (DSP's `svfStep`) with the integrator's sum grouped so that its feedback is
/// shorter: z2' = (z2 + b2 z1) + b3 v3 rather than z2 + (b2 z1 + b3 v3). The state's loop through a sample is
/// then a subtract, a multiply and an add (9 cycles of latency on the machines measured) instead of a
/// subtract, a multiply and two adds: that chain, not the instructions, set the pace of the four-lane loop
/// (28 % of a held chord's time went when the filter was taken out, for 18 % of the loop's instructions).
/// The same operations; the sums round differently in the last bit. Returns twice the low-pass output.
@_alwaysEmitIntoClient @inline(__always)
public func sampleFilterStep<Lanes: SIMD>(_ x: Lanes, z1 s1: inout Lanes, z2 s2: inout Lanes,
                                          b1: Lanes, b2: Lanes, b3: Lanes) -> Lanes where Lanes.Scalar == Float {
    let v3 = x - s2
    let next1 = b1 * s1 + b2 * v3
    let next2 = (s2 + b2 * s1) + b3 * v3
    let out = s2 + next2
    s1 = next1
    s2 = next2
    return out
}

/// The built-in voices' state-variable filter step (DSP's wavetable loops), four lanes or eight
/// (`playWideWavetableRun`). Simper's step rearranged to 9 operations: with v3 = x - z2,
///   z1' = b1 z1 + b2 v3,  u = b2 z1 + b3 v3,  z2' = z2 + u,  output 2 v2 = z2 + z2'.
/// Returns twice the low-pass output v2 (the 1/2 is folded into the levels).
@_alwaysEmitIntoClient @inline(__always)
public func svfStep<Lanes: SIMD>(_ x: Lanes, z1 s1: inout Lanes, z2 s2: inout Lanes,
                                 b1: Lanes, b2: Lanes, b3: Lanes) -> Lanes where Lanes.Scalar == Float {
    let v3 = x - s2
    let next1 = b1 * s1 + b2 * v3
    let u = b2 * s1 + b3 * v3
    let next2 = s2 + u
    let out = s2 + next2
    s1 = next1
    s2 = next2
    return out
}

#if arch(x86_64)
import CVoiceLoops
import _Builtin_intrinsics.intel

/// The state of eight lanes over a fast run: lanes 0-3 are a group's low half, 4-7 its high half, as the
/// lane sums hold them (eight floats per output sample). Only stored properties and an initializer emitted
/// into the caller, so that a CPU without AVX-512 never runs code of this module to build one.
@frozen public struct WideSampleRun {
    /// Each lane's place in its sample in 32.32 fixed point (frame, fraction) and its step per output sample.
    public var phase: SIMD8<UInt64>
    public var increment: SIMD8<UInt64>
    /// Each lane's frame 0 as a 16-bit word index from address 0, less one: the word of its point i - 1.
    public var origin: SIMD8<Int64>
    /// The filter (`sampleFilterStep` in DSP) and the levels, in the units of DSP's `SampleLanes`.
    public var z1: SIMD8<Float>, z2: SIMD8<Float>, b1: SIMD8<Float>, b2: SIMD8<Float>, b3: SIMD8<Float>
    public var left: SIMD8<Float>, right: SIMD8<Float>, stepLeft: SIMD8<Float>, stepRight: SIMD8<Float>

    @_alwaysEmitIntoClient
    public init() {
        phase = SIMD8(); increment = SIMD8(); origin = SIMD8()
        z1 = SIMD8(); z2 = SIMD8(); b1 = SIMD8(); b2 = SIMD8(); b3 = SIMD8()
        left = SIMD8(); right = SIMD8(); stepLeft = SIMD8(); stepRight = SIMD8()
    }
}

/// `body` for each of `count` samples (at least one), with where its eight lane sums are (32 bytes a sample).
@_noLocks @inline(__always)
func eachSample(_ count: Int, _ sums: UnsafeMutableRawPointer, _ body: (UnsafeMutableRawPointer) -> Void) {
    var at = sums
    var n = count
    repeat {
        body(at)
        at += 32
        n &-= 1
    } while n != 0
}

/// One sample of eight lanes' output `out` times their levels added into the lane sums: the left ones at
/// `at`, the right ones `toRight` bytes on.
@_noLocks @inline(__always)
func addIntoSums(_ out: SIMD8<Float>, left: SIMD8<Float>, right: SIMD8<Float>, at: UnsafeMutableRawPointer, toRight: Int) {
    at.storeBytes(of: at.loadUnaligned(as: SIMD8<Float>.self) + out * left, as: SIMD8<Float>.self)
    let atRight = at + toRight
    atRight.storeBytes(of: atRight.loadUnaligned(as: SIMD8<Float>.self) + out * right, as: SIMD8<Float>.self)
}

/// `count` samples of eight lanes with no checks (DSP's `fastSamples` said how many may go so), added into
/// the lane sums from `sums` (eight floats per sample, the right sums `toRight` bytes on). Per sample: each
/// lane's four 16-bit points and its row of four 16-bit weights in two gathers, multiplied and added in
/// pairs (vpmaddwd) and the pairs added, the filter, the levels' ramp, the sums. Thirty-eight instructions
/// for eight voices, where the four-lane loop takes fifty-six for four.
@_noLocks @inline(never)
public func playWideSampleRun(_ run: inout WideSampleRun, rows: UnsafeRawPointer, count: Int,
                              sums: UnsafeMutableRawPointer, toRight: Int) {
    var phase = run.phase
    let increment = run.increment, origin = run.origin
    var z1 = run.z1, z2 = run.z2, left = run.left, right = run.right
    let b1 = run.b1, b2 = run.b2, b3 = run.b3, stepLeft = run.stepLeft, stepRight = run.stepRight
    eachSample(count, sums) { at in
        let points = SIMD8<Int64>(truncatingIfNeeded: phase &>> 32) &+ origin
        let row = SIMD8<Int64>(truncatingIfNeeded: (phase &>> 22) & SIMD8(repeating: 1023)) // InterpolationTable.row
        // Intrinsics are C functions, which the performance checker cannot see into: each is one instruction.
        let x: SIMD8<Float> = _unsafePerformance {
            let pairs = _mm512_madd_epi16(backbeat_gather_words(points), backbeat_gather_rows(row, rows))
            // Each lane's two pair sums are the halves of its 64-bit lane: added, the low half holds the sum.
            let sums = pairs &+ (pairs &>> 32)
            return _mm256_cvtepi32_ps(_mm512_cvtepi64_epi32(sums))
        }
        phase &+= increment
        // DSP's mixSample, operation for operation.
        let out = sampleFilterStep(x, z1: &z1, z2: &z2, b1: b1, b2: b2, b3: b3)
        left += stepLeft
        right += stepRight
        addIntoSums(out, left: left, right: right, at: at, toRight: toRight)
    }
    run.phase = phase
    run.z1 = z1
    run.z2 = z2
    run.left = left
    run.right = right
}
/// Eight built-in voices (a steady group: phase steps, coefficients and levels constant over the slice) as
/// DSP's `oscillateAndFilter` plays each half of them: the phases' own 32-bit steps, the wavetable pairs at
/// their indices (phase >> 21 plus each lane's table offset) in one gather, linear interpolation, the filter,
/// the levels into the lane sums.
@frozen public struct WideWavetableRun {
    public var phase: SIMD8<UInt32>, increment: SIMD8<UInt32>, offsets: SIMD8<UInt32>
    public var z1: SIMD8<Float>, z2: SIMD8<Float>, b1: SIMD8<Float>, b2: SIMD8<Float>, b3: SIMD8<Float>
    public var levelLeft: SIMD8<Float>, levelRight: SIMD8<Float>

    @_alwaysEmitIntoClient
    public init() {
        phase = SIMD8(); increment = SIMD8(); offsets = SIMD8()
        z1 = SIMD8(); z2 = SIMD8(); b1 = SIMD8(); b2 = SIMD8(); b3 = SIMD8()
        levelLeft = SIMD8(); levelRight = SIMD8()
    }
}

/// `count` samples of a `WideWavetableRun` from the table `pairs` (pairs of floats), added into the lane
/// sums from `sums` (eight floats per sample, the right sums `toRight` bytes on): DSP's `voiceStep` and the
/// half-group loop's sums, operation for operation.
@_noLocks @inline(never)
public func playWideWavetableRun(_ run: inout WideWavetableRun, pairs: UnsafeRawPointer, count: Int,
                                 sums: UnsafeMutableRawPointer, toRight: Int) {
    var phase = run.phase
    let increment = run.increment, offsets = run.offsets
    var z1 = run.z1, z2 = run.z2
    let b1 = run.b1, b2 = run.b2, b3 = run.b3, levelLeft = run.levelLeft, levelRight = run.levelRight
    let fractionMask = SIMD8<UInt32>(repeating: (1 << 21) - 1) // DSP's phaseFractionBits
    eachSample(count, sums) { at in
        phase &+= increment
        let index = (phase &>> 21) &+ offsets
        let fraction: SIMD8<Float> = _unsafePerformance {
            _mm256_cvtepi32_ps(unsafeBitCast(phase & fractionMask, to: __m256i.self))
        } * (1.0 / 2_097_152) // DSP's phaseFractionScale
        let (values, deltas): (SIMD8<Float>, SIMD8<Float>) = _unsafePerformance {
            let entries = unsafeBitCast(backbeat_gather_pairs(unsafeBitCast(index, to: __m256i.self), pairs),
                                        to: SIMD8<UInt64>.self)
            // Each entry is a value then its delta (little-endian: the value in the low half).
            return (unsafeBitCast(_mm512_cvtepi64_epi32(unsafeBitCast(entries, to: __m512i.self)), to: SIMD8<Float>.self),
                    unsafeBitCast(_mm512_cvtepi64_epi32(unsafeBitCast(entries &>> 32, to: __m512i.self)), to: SIMD8<Float>.self))
        }
        let out = svfStep(values + fraction * deltas, z1: &z1, z2: &z2, b1: b1, b2: b2, b3: b3)
        addIntoSums(out, left: levelLeft, right: levelRight, at: at, toRight: toRight)
    }
    run.phase = phase
    run.z1 = z1
    run.z2 = z2
}
#endif
