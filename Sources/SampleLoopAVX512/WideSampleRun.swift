// The sample voices' fast run eight lanes wide with AVX-512 (docs/soundfont.md, "Eight lanes at once with
// AVX-512"). This module is compiled for AVX-512 CPUs (Package.swift) and holds only this loop and the
// filter step it shares with DSP. DSP calls the loop only after asking the CPU (`backbeat_cpu_runs_avx512`),
// and otherwise plays the same samples four lanes at a time (`fastRun` in DSP, SSE2). Both do the same
// arithmetic in the same order, so their output is the same bit for bit (DSPTests: SampleLaneCacheTests):
// both take the filter step below, which is emitted into each caller and compiled there (so DSP's
// four-lane copy is SSE2).

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

#if arch(x86_64)
import CSampleLoop
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
    var at = sums
    var n = count
    repeat {
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
        at.storeBytes(of: at.loadUnaligned(as: SIMD8<Float>.self) + out * left, as: SIMD8<Float>.self)
        let atRight = at + toRight
        atRight.storeBytes(of: atRight.loadUnaligned(as: SIMD8<Float>.self) + out * right, as: SIMD8<Float>.self)
        at += 32
        n &-= 1
    } while n != 0
    run.phase = phase
    run.z1 = z1
    run.z2 = z2
    run.left = left
    run.right = right
}
#endif
