// The voices' per-sample loops eight lanes wide: a run of sample voices (docs/soundfont.md, "Eight lanes at
// once"), a kept steady group of built-in voices, and two such groups in one loop. This file is written once and compiled three times,
// through a link to it in VoiceLoopsPortable (any CPU), VoiceLoopsAVX2 and VoiceLoopsAVX512, each compiled
// for its CPU (Package.swift); VoiceLoops itself leaves this folder out. Each module brings its own `interpolation` and `tablePairs` (Gathers.swift):
// the reads of the lanes' points and table entries, gathers where the CPU has them. DSP asks the CPU which
// modules it may call (`VoiceLoopPath`). Everything else is the same code, so the samples are the same bit
// for bit on every path (DSPTests: VoiceLoopPathTests, RenderChecksumTests).
import VoiceLoops // the lanes' state and the filter steps, compiled here for this module's CPU

#if !arch(x86_64)
// Off x86-64 every module reads its lanes one by one; on x86-64 each module's Gathers.swift says how.
@_noLocks @inline(__always)
func interpolation(points: SIMD8<Int64>, rows: UnsafeRawPointer, row: SIMD8<Int64>) -> SIMD8<Float> {
    portableInterpolation(points: points, rows: rows, row: row)
}

@_noLocks @inline(__always)
func tablePairs(_ pairs: UnsafeRawPointer, _ index: SIMD8<UInt32>) -> (values: SIMD8<Float>, deltas: SIMD8<Float>) {
    portablePairs(pairs, index)
}
#endif

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
/// lane's four 16-bit points and its row of four 16-bit weights (`interpolation`), the filter, the levels'
/// ramp, the sums.
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
        let x = interpolation(points: points, rows: rows, row: row)
        phase &+= increment
        // DSP's mixSample, operation for operation.
        let out = svfStep(x, z1: &z1, z2: &z2, b1: b1, b2: b2, b3: b3)
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

/// `count` samples of a `WideWavetableRun` from the table `pairs` (pairs of floats), added into the lane
/// sums from `sums` (eight floats per sample, the right sums `toRight` bytes on): DSP's `voiceStep` and the
/// half-group loop's sums, operation for operation. Per sample: the phases' own 32-bit steps, the wavetable
/// pairs at their indices (phase >> 21 plus each lane's table offset), linear interpolation, the filter, the
/// levels into the lane sums.
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
        let fraction = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: phase & fractionMask)) * (1.0 / 2_097_152) // DSP's phaseFractionScale
        let (values, deltas) = tablePairs(pairs, index)
        let out = svfStep(values + fraction * deltas, z1: &z1, z2: &z2, b1: b1, b2: b2, b3: b3)
        addIntoSums(out, left: levelLeft, right: levelRight, at: at, toRight: toRight)
    }
    run.phase = phase
    run.z1 = z1
    run.z2 = z2
}

/// Two kept groups' wavetable runs in one loop, `first` then `second` into the same lane sums: the same samples
/// as `playWideWavetableRun` on `first` and then on `second`, bit for bit (each sum gets `first`'s sample and
/// then `second`'s added, as two runs one after the other add them). Each group's filter is a chain of dependent
/// operations from one sample to the next, which bounds a run of one group; the other group's work fills the
/// time that chain waits.
@_noLocks @inline(never)
public func playWideWavetableRuns(_ first: inout WideWavetableRun, _ second: inout WideWavetableRun,
                                  pairs: UnsafeRawPointer, count: Int, sums: UnsafeMutableRawPointer, toRight: Int) {
    var phaseA = first.phase, phaseB = second.phase
    var z1A = first.z1, z2A = first.z2, z1B = second.z1, z2B = second.z2
    let a = first, b = second
    let fractionMask = SIMD8<UInt32>(repeating: (1 << 21) - 1) // DSP's phaseFractionBits
    @inline(__always) func input(_ phase: SIMD8<UInt32>, _ offsets: SIMD8<UInt32>) -> SIMD8<Float> {
        let fraction = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: phase & fractionMask)) * (1.0 / 2_097_152) // DSP's phaseFractionScale
        let (values, deltas) = tablePairs(pairs, (phase &>> 21) &+ offsets)
        return values + fraction * deltas
    }
    eachSample(count, sums) { at in
        phaseA &+= a.increment
        phaseB &+= b.increment
        let outA = svfStep(input(phaseA, a.offsets), z1: &z1A, z2: &z2A, b1: a.b1, b2: a.b2, b3: a.b3)
        let outB = svfStep(input(phaseB, b.offsets), z1: &z1B, z2: &z2B, b1: b.b1, b2: b.b2, b3: b.b3)
        let atRight = at + toRight
        at.storeBytes(of: (at.loadUnaligned(as: SIMD8<Float>.self) + outA * a.levelLeft) + outB * b.levelLeft,
                      as: SIMD8<Float>.self)
        atRight.storeBytes(of: (atRight.loadUnaligned(as: SIMD8<Float>.self) + outA * a.levelRight) + outB * b.levelRight,
                           as: SIMD8<Float>.self)
    }
    first.phase = phaseA; first.z1 = z1A; first.z2 = z2A
    second.phase = phaseB; second.z1 = z1B; second.z2 = z2B
}
