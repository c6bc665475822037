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

/// `count` samples of a run of sample voices, each sample's eight inputs `input(phase)` from the lanes' phases
/// before their step, then DSP's `mixSample`, operation for operation: the filter, the levels' ramp, the lane
/// sums from `sums` (eight floats per sample, the right sums `toRight` bytes on). The run's state is read once
/// and written back at the end.
@_noLocks @inline(__always)
func playSampleLanes(_ run: inout WideSampleRun, count: Int, sums: UnsafeMutableRawPointer, toRight: Int,
                     _ input: (SIMD8<UInt64>) -> SIMD8<Float>) {
    var phase = run.phase
    let increment = run.increment
    var z1 = run.z1, z2 = run.z2, left = run.left, right = run.right
    let b1 = run.b1, b2 = run.b2, b3 = run.b3, stepLeft = run.stepLeft, stepRight = run.stepRight
    eachSample(count, sums) { at in
        let x = input(phase)
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

/// `count` samples of eight lanes with no checks (DSP's `fastSamples` said how many may go so), added into
/// the lane sums from `sums` (eight floats per sample, the right sums `toRight` bytes on). Per sample: each
/// lane's four 16-bit points and its row of four 16-bit weights (`interpolation`), then `playSampleLanes`.
@_noLocks @inline(never)
public func playWideSampleRun(_ run: inout WideSampleRun, rows: UnsafeRawPointer, count: Int,
                              sums: UnsafeMutableRawPointer, toRight: Int) {
    let origin = run.origin
    playSampleLanes(&run, count: count, sums: sums, toRight: toRight) { phase in
        let points = SIMD8<Int64>(truncatingIfNeeded: phase &>> 32) &+ origin
        let row = SIMD8<Int64>(truncatingIfNeeded: (phase &>> 22) & SIMD8(repeating: 1023)) // InterpolationTable.row
        return interpolation(points: points, rows: rows, row: row)
    }
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
/// `blocks[l]` runs of sixteen 16-bit sample words from the byte address `words[l]`, each run times the sixteen
/// high and then the sixteen low 16-bit parts of its weights from the byte address `weights[l]` (`sincRow`).
/// Integer arithmetic, exact (the kernels' weights are bounded for that), so that every path and any order of
/// the additions gives the same sums; converted to Float once at the end, in the cubic's units (words times
/// weights in units of 2^-22: 2^-37, wanted in 2^-30). A lane with no runs reads nothing and sums 0.
@_noLocks @inline(never)
public func sincSums(words: SIMD8<Int>, weights: SIMD8<Int>, blocks: SIMD8<Int>) -> SIMD8<Float> {
    // Each lane's sum in a scalar, the eight put together at the end: a lane written into a vector on the
    // stack and the vector read back stalls on every lane.
    @inline(__always) func lane(_ l: Int) -> Int64 {
        let n = blocks[l]
        guard n > 0 else { return 0 }
        return sincRow(UnsafeRawPointer(bitPattern: words[l]).unsafelyUnwrapped,
                       UnsafeRawPointer(bitPattern: weights[l]).unsafelyUnwrapped, n)
    }
    return sincUnits(SIMD8(lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), lane(6), lane(7)))
}

/// Eight exact sinc sums (units of 2^-37) as the cubic's sums (2^-30): one rounding, the same on every path.
@_noLocks @inline(__always)
func sincUnits(_ sums: SIMD8<Int64>) -> SIMD8<Float> {
    SIMD8<Float>(sums) * (1.0 / 128)
}

/// `blocks` (at least one) runs of sixteen 16-bit words from `words` times a row's sixteen high parts and
/// sixteen low parts of weights from `weights` (`SincKernels`), all the products added: each part's sum exact
/// in 32 bits, then high x 2^8 + low.
@_noLocks @inline(__always)
func sincRow(_ words: UnsafeRawPointer, _ weights: UnsafeRawPointer, _ blocks: Int) -> Int64 {
    var p = words, w = weights, n = blocks
    var high = SIMD8<Int32>(), low = SIMD8<Int32>()
    repeat {
        let x = p.loadUnaligned(as: SIMD16<Int16>.self)
        high &+= multiplyPairs16(x, w.loadUnaligned(as: SIMD16<Int16>.self))
        low &+= multiplyPairs16(x, (w + 32).loadUnaligned(as: SIMD16<Int16>.self))
        p += 32
        w += 64
        n &-= 1
    } while n != 0
    return Int64(laneTotal(high)) &<< 8 &+ Int64(laneTotal(low))
}

/// The eight lanes of `x` added, in a fixed order.
@_noLocks @inline(__always)
func laneTotal(_ x: SIMD8<Int32>) -> Int32 {
    let four = x.lowHalf &+ x.highHalf
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
/// and the byte address of its class's table `tables`; per sample each lane's row (the top 11 bits of its
/// fraction, `SincKernels.row`) and its frames from `taps / 2 - 1` before its position, summed exactly
/// (`sincSums`' lanes), then `playSampleLanes`.
@_noLocks @inline(never)
public func playSincRun(_ run: inout WideSampleRun, taps: SIMD8<Int>, tables: SIMD8<Int>, count: Int,
                        sums: UnsafeMutableRawPointer, toRight: Int) {
    // Each lane's first frame's word index less its position (origin is the word of point i - 1).
    let before = run.origin &+ 1 &- SIMD8<Int64>(truncatingIfNeeded: taps &>> 1) &+ 1
    let rowBytes = taps &* 4 // two 16-bit parts a tap
    playSampleLanes(&run, count: count, sums: sums, toRight: toRight) { now in
        @inline(__always) func lane(_ l: Int) -> Int64 {
            let n = taps[l] &>> 4
            guard n > 0 else { return 0 }
            let p = now[l]
            let first = Int(truncatingIfNeeded: Int64(truncatingIfNeeded: p &>> 32) &+ before[l])
            let w = UnsafeRawPointer(bitPattern: tables[l] &+ rowBytes[l] &* Int(truncatingIfNeeded: (p &>> 21) & 2047)).unsafelyUnwrapped
            return sincRow(UnsafeRawPointer(bitPattern: first &* 2).unsafelyUnwrapped, w, n)
        }
        return sincUnits(SIMD8(lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), lane(6), lane(7)))
    }
}
