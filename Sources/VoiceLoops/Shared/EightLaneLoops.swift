// The voices' per-sample loops eight lanes wide: a run of sample voices (docs/soundfont.md, "Eight lanes at
// once"), a kept steady group of built-in voices, and two such groups in one loop. This file is written once and compiled three times,
// through a link to it in VoiceLoopsPortable (any CPU), VoiceLoopsAVX2 and VoiceLoopsAVX512, each compiled
// for its CPU (Package.swift); VoiceLoops itself leaves this folder out. Each module brings its own `interpolation` and `tablePairs` (Gathers.swift):
// the reads of the lanes' points and table entries, gathers where the CPU has them. DSP asks the CPU which
// modules it may call (`VoiceLoopPath`). Everything else is the same code, so the samples are the same bit
// for bit on every path (DSPTests: VoiceLoopPathTests, RenderChecksumTests).
import VoiceLoops // the lanes' state and the filter steps, compiled here for this module's CPU
#if arch(x86_64)
import _Builtin_intrinsics.intel // pmaddwd (`multiplyPairs`)
#endif

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

@_noLocks @inline(__always)
func multiplyPairs16(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
    SIMD8(lowHalf: multiplyPairs(a.lowHalf, b.lowHalf), highHalf: multiplyPairs(a.highHalf, b.highHalf))
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

/// Eight lanes' windowed-sinc sums (DSP's `SampleInterpolation.sinc`, its kernels `SincKernels`): lane l's
/// `blocks[l]` runs of sixteen 16-bit sample words from the byte address `words[l]`, each run times as many
/// 16-bit weights from the byte address `weights[l]`, multiplied and added in pairs (`multiplyPairs16`, each
/// module's own: one instruction with AVX2) and the lane's sums added (`sincRow`). Integer arithmetic, exact in 32 bits (the kernels' weights are bounded for that), so that
/// every path and any order of the additions gives the same sums; converted to Float and doubled at the end
/// (16-bit words, weights in units of 2^-14: sums in units of 2^-29, wanted in the cubic's 2^-30). A lane with no runs reads nothing and
/// sums 0.
@_noLocks @inline(never)
public func sincSums(words: SIMD8<Int>, weights: SIMD8<Int>, blocks: SIMD8<Int>) -> SIMD8<Float> {
    // Each lane's sum in a scalar, the eight put together at the end: a lane written into a vector on the
    // stack and the vector read back stalls on every lane.
    @inline(__always) func lane(_ l: Int) -> Int32 {
        let n = blocks[l]
        guard n > 0 else { return 0 }
        return sincRow(UnsafeRawPointer(bitPattern: words[l]).unsafelyUnwrapped,
                       UnsafeRawPointer(bitPattern: weights[l]).unsafelyUnwrapped, n)
    }
    let sums = SIMD8<Int32>(lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), lane(6), lane(7))
    return SIMD8<Float>(sums) * 2
}

/// `blocks` (at least one) runs of sixteen 16-bit words from `words` times sixteen 16-bit weights from
/// `weights`, all the products added: exact in 32 bits.
@_noLocks @inline(__always)
func sincRow(_ words: UnsafeRawPointer, _ weights: UnsafeRawPointer, _ blocks: Int) -> Int32 {
    var p = words, w = weights, n = blocks
    var total = SIMD8<Int32>()
    repeat {
        total &+= multiplyPairs16(p.loadUnaligned(as: SIMD16<Int16>.self), w.loadUnaligned(as: SIMD16<Int16>.self))
        p += 32
        w += 32
        n &-= 1
    } while n != 0
    let four = total.lowHalf &+ total.highHalf
    return (four[0] &+ four[1]) &+ (four[2] &+ four[3])
}

/// Eight 16-bit words times eight 16-bit weights, the products added in pairs: (a0 b0 + a1 b1, ...). One
/// instruction on x86-64 (pmaddwd, a C intrinsic: the performance checker cannot see into it).
@_noLocks @inline(__always)
func multiplyPairs(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
    #if arch(x86_64)
    return _unsafePerformance {
        unsafeBitCast(_mm_madd_epi16(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)),
                      to: SIMD4<Int32>.self)
    }
    #else
    let x = SIMD8<Int32>(Int32(a[0]), Int32(a[1]), Int32(a[2]), Int32(a[3]), Int32(a[4]), Int32(a[5]), Int32(a[6]), Int32(a[7]))
    let y = SIMD8<Int32>(Int32(b[0]), Int32(b[1]), Int32(b[2]), Int32(b[3]), Int32(b[4]), Int32(b[5]), Int32(b[6]), Int32(b[7]))
    let products = x &* y
    return SIMD4(products[0], products[2], products[4], products[6]) &+ SIMD4(products[1], products[3], products[5], products[7])
    #endif
}

/// `count` samples of eight lanes read with the windowed sinc and no checks (DSP's `sincFastSamples` said how
/// many may go so: every lane's kernel inside what it may read as it is), added into the lane sums from `sums`
/// as `playWideSampleRun` adds them. Per lane: its kernel's `taps` (0 for a silent lane, which reads nothing)
/// and the byte address of its class's table `tables`; per sample each lane's row (the top 10 bits of its
/// fraction) and its frames from `taps / 2 - 1` before its position, summed exactly (`sincSums`' lanes), then
/// the filter, the levels' ramp and the sums, operation for operation as DSP's `mixSample`.
@_noLocks @inline(never)
public func playSincRun(_ run: inout WideSampleRun, taps: SIMD8<Int>, tables: SIMD8<Int>, count: Int,
                        sums: UnsafeMutableRawPointer, toRight: Int) {
    var phase = run.phase
    let increment = run.increment
    // Each lane's first frame's word index less its position (origin is the word of point i - 1).
    let before = run.origin &+ 1 &- SIMD8<Int64>(truncatingIfNeeded: taps &>> 1) &+ 1
    var z1 = run.z1, z2 = run.z2, left = run.left, right = run.right
    let b1 = run.b1, b2 = run.b2, b3 = run.b3, stepLeft = run.stepLeft, stepRight = run.stepRight
    let rowBytes = taps &* 2
    eachSample(count, sums) { at in
        let now = phase
        @inline(__always) func lane(_ l: Int) -> Int32 {
            let n = taps[l] &>> 4
            guard n > 0 else { return 0 }
            let p = now[l]
            let first = Int(truncatingIfNeeded: Int64(truncatingIfNeeded: p &>> 32) &+ before[l])
            let w = UnsafeRawPointer(bitPattern: tables[l] &+ rowBytes[l] &* Int(truncatingIfNeeded: (p &>> 22) & 1023)).unsafelyUnwrapped
            return sincRow(UnsafeRawPointer(bitPattern: first &* 2).unsafelyUnwrapped, w, n)
        }
        let x = SIMD8<Float>(SIMD8<Int32>(lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), lane(6), lane(7))) * 2
        phase &+= increment
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
