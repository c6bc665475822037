import VoiceLoops // WideSampleRun, the fast runs' lanes

// The sample voices' loop with the sinc interpolation (`SampleInterpolation.sinc`). While every lane's kernel
// lies inside what it may read as it is (from `firstIndex` to `fastLimit + 3`, the last frame before its
// loop's end or the data's, and before a non-looping sample's end: `sincFastSamples`), the group's eight lanes
// go through one call of the loops compiled for the CPU (`playSincRun`: each lane's kernel row, by its step's
// class and its fraction, times the frames under it, then the filter, ramps and sums). Else one careful
// sample: each lane's frames in place or gathered frame by frame into a scratch row (past the loop's end
// continued from its start, before an unrolled copy from the font's data, silent past a non-looping sample's
// end), the eight lanes' sums in one call (`sincSums`), then the cubic's own filter, level ramp and careful
// move through the sample and its loop (`mixSample`, `advanceCarefully`). Both give the same integers to the
// same sums and the same float operations after them, so where a careful sample falls changes nothing, and
// every path plays the same samples bit for bit.

/// The sinc's per-group scratch: one row of `SincKernels.maxTaps` frames per lane, for careful reads.
typealias SincScratch = UnsafeMutablePointer<Int16>

/// Both halves of a group (`low`, and `high` when `wide`) over `count` samples from `start`, into the lane
/// sums `left`/`right` (`left[2 n + half]`), read with the sinc.
@_noLocks @inline(never)
func playSamplesSinc(_ path: VoiceLoopPath, _ low: inout SampleLanes, _ high: inout SampleLanes, wide: Bool,
                     _ sample: SampleData, _ kernels: SincKernels, scratch: SincScratch, from start: Int, count: Int,
                     left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    // Each lane's class for the block (its step is the block's): its taps and its table.
    let lowClasses = SincClasses(low, kernels), highClasses = SincClasses(high, kernels)
    let wideSamples = sample.lowBytes != nil
    let base = Int(bitPattern: sample.data) >> 1 // the data's address in 16-bit words
    let toRight = (right - left) &* MemoryLayout<HalfLanes>.stride
    // A silent lane reads nothing in a fast run (no taps), nor does the high half of a group of four or fewer.
    @inline(__always) func runTaps(_ lanes: borrowing SampleLanes, _ classes: SincClasses) -> SIMD4<Int> {
        let alive = lanes.alive
        return SIMD4(alive[0] != 0 ? classes.taps[0] : 0, alive[1] != 0 ? classes.taps[1] : 0,
                     alive[2] != 0 ? classes.taps[2] : 0, alive[3] != 0 ? classes.taps[3] : 0)
    }
    var n = start
    let end = start &+ count
    while n < end {
        // As long as every lane's kernel lies inside what it may read as it is: a fast run, eight lanes at once.
        let run = wideSamples ? 0 : min(low.sincFastSamples(lowClasses, atMost: end &- n),
                                        wide ? high.sincFastSamples(highClasses, atMost: end &- n) : end &- n)
        if run > 0 {
            var fast = WideSampleRun()
            fast.take(low, lanes: 0, base: base)
            fast.take(high, lanes: 4, base: base)
            let taps = SIMD8(lowHalf: runTaps(low, lowClasses), highHalf: wide ? runTaps(high, highClasses) : SIMD4())
            playSincRun(on: path, &fast, taps: taps, tables: SIMD8(lowHalf: lowClasses.table, highHalf: highClasses.table),
                        count: run, sums: UnsafeMutableRawPointer(left + 2 &* n), toRight: toRight)
            fast.give(&low, lanes: 0)
            fast.give(&high, lanes: 4)
            n &+= run
            if n == end { break }
        }
        let a = sincReads(low, lowClasses, sample, scratch: scratch)
        var x: SIMD8<Float>
        if wide {
            let b = sincReads(high, highClasses, sample, scratch: scratch + 4 &* SincKernels.maxTaps)
            x = wideSamples ? SIMD8(lowHalf: a.x, highHalf: b.x)
                : sincSums(on: path, words: SIMD8(lowHalf: a.words, highHalf: b.words),
                           weights: SIMD8(lowHalf: a.weights, highHalf: b.weights),
                           blocks: SIMD8(lowHalf: a.blocks, highHalf: b.blocks))
        } else {
            x = wideSamples ? SIMD8(lowHalf: a.x, highHalf: SIMD4())
                : sincSums(on: path, words: SIMD8(lowHalf: a.words, highHalf: SIMD4()),
                           weights: SIMD8(lowHalf: a.weights, highHalf: SIMD4()),
                           blocks: SIMD8(lowHalf: a.blocks, highHalf: SIMD4()))
        }
        mixSample(&low, x.lowHalf, at: n, sumLeft: left, sumRight: right, filtered: true)
        low.advanceCarefully()
        if wide {
            mixSample(&high, x.highHalf, at: n, sumLeft: left + 1, sumRight: right + 1, filtered: true)
            high.advanceCarefully()
        }
        n &+= 1
    }
}

extension SampleLanes {
    /// Samples all four lanes can play from here with every kernel read in place (`playSincRun`): every
    /// position reached, up to and including the one after the last sample played, has its kernel's frames
    /// from `firstIndex` to `fastLimit + 3` and before a non-looping sample's end (so no lane wraps or ends in
    /// the run). A silent lane does not count. Zero when a lane is not there yet.
    @_noLocks @inline(__always)
    func sincFastSamples(_ classes: SincClasses, atMost limit: Int) -> Int {
        var run = UInt64(limit)
        for k in 0..<4 where alive[k] != 0 {
            let half = classes.taps[k] >> 1
            let p = Int(position[k])
            let lowest = Int(firstIndex[k]) &+ half &- 1
            let last = min(Int(fastLimit[k]) &+ 3, Int(stopAt[k]) &- 1) &- half // the last position read in place
            guard p >= lowest && p <= last else { return 0 }
            let increment = UInt64(UInt32(bitPattern: whole[k])) << 32 | UInt64(part[k])
            guard increment != 0 else { continue }
            let phase = UInt64(UInt32(bitPattern: position[k])) << 32 | UInt64(fraction[k])
            let room = (UInt64(last &+ 1) << 32) &- 1 &- phase
            if increment &* run > room { run = room / increment }
        }
        return Int(run)
    }
}

/// Four lanes' kernel classes over a block: each one's taps and the byte address of its class's table.
struct SincClasses {
    var taps = SIMD4<Int>(), table = SIMD4<Int>()

    @_noLocks @inline(__always)
    init(_ lanes: borrowing SampleLanes, _ kernels: SincKernels) {
        let address = Int(bitPattern: kernels.weights)
        for k in 0..<4 {
            let c = SincKernels.classOf(whole: lanes.whole[k], part: lanes.part[k])
            taps[k] = Int(kernels.taps[c])
            table[k] = address &+ 2 &* Int(kernels.starts[c])
        }
    }
}

/// What `sincSums` reads for four lanes at their positions now (`sincRead` for each; four scalars put
/// together at the end, since a lane written into a vector on the stack stalls the read of the vector).
@_noLocks @inline(__always)
func sincReads(_ lanes: borrowing SampleLanes, _ classes: SincClasses, _ sample: SampleData, scratch: SincScratch)
    -> (words: SIMD4<Int>, weights: SIMD4<Int>, blocks: SIMD4<Int>, x: SIMD4<Float>) {
    let a = sincRead(lanes, 0, classes, sample, scratch: scratch), b = sincRead(lanes, 1, classes, sample, scratch: scratch)
    let c = sincRead(lanes, 2, classes, sample, scratch: scratch), d = sincRead(lanes, 3, classes, sample, scratch: scratch)
    return (SIMD4(a.words, b.words, c.words, d.words), SIMD4(a.weights, b.weights, c.weights, d.weights),
            SIMD4(a.blocks, b.blocks, c.blocks, d.blocks), SIMD4(a.x, b.x, c.x, d.x))
}

/// What `sincSums` reads for lane `k` at its position now: a sounding lane's frames (in place, or copied
/// into its row of `scratch` by `sincFrame`), its kernel row and its runs of sixteen; a silent lane reads
/// nothing. With 24-bit samples the sum itself (`x`, `wideSincSum`) and nothing to read.
@_noLocks @inline(__always)
func sincRead(_ lanes: borrowing SampleLanes, _ k: Int, _ classes: SincClasses, _ sample: SampleData, scratch: SincScratch)
    -> (words: Int, weights: Int, blocks: Int, x: Float) {
    guard lanes.alive[k] != 0 else { return (0, 0, 0, 0) }
    let t = classes.taps[k]
    let row = classes.table[k] &+ 4 &* t &* SincKernels.row(fraction: lanes.fraction[k]) // two 16-bit parts a tap
    let first = Int(lanes.position[k]) &- (t >> 1) &+ 1
    if sample.lowBytes != nil { return (0, 0, 0, wideSincSum(sample, lanes, k, first: first, taps: t, row: row)) }
    // A sample that does not loop is silent from its end (`stopAt`; Int32.max for one that loops).
    let lowest = Int(lanes.firstIndex[k]), highest = min(Int(lanes.fastLimit[k]) &+ 3, Int(lanes.stopAt[k]) &- 1)
    if first >= lowest && first &+ t &- 1 <= highest {
        return (Int(bitPattern: sample.data + lanes.offset[k]) &+ 2 &* first, row, t >> 4, 0)
    }
    let into = scratch + k &* SincKernels.maxTaps
    for j in 0..<t {
        let i = sincFrame(lanes, k, first &+ j)
        into[j] = i < 0 ? 0 : sample.data[i]
    }
    return (Int(bitPattern: into), row, t >> 4, 0)
}

/// Where lane `k`'s frame `i` is, from the font's data: past its loop's end continued from the loop's start,
/// before an unrolled copy's first frame in the font's data itself (the copy holds the font's frames from
/// there), else in the copy (`offset`); clamped into 0...lastIndex. -1 (silence) at and past the end of a
/// sample that does not loop, and before the sample's first frame (`startAt`).
@_noLocks @inline(__always)
func sincFrame(_ lanes: borrowing SampleLanes, _ k: Int, _ i: Int) -> Int {
    if i >= Int(lanes.stopAt[k]) { return -1 }
    if i < Int(lanes.startAt[k]) { return -1 }
    var j = i
    let wrap = Int(lanes.wrapAt[k]), length = Int(lanes.loopLength[k])
    if length > 0 { while j >= wrap { j &-= length } }
    if j < Int(lanes.firstIndex[k]) { return max(j, 0) }
    return min(j, Int(lanes.lastIndex[k])) &+ lanes.offset[k]
}

/// The sinc sum of lane `k` of a font with 24-bit samples (never unrolled), in the cubic's units (2^-30): each
/// 24-bit frame times its weight (2^-22 units, `SincKernels.weight`), summed exactly in 64 bits, over 2^15.
@_noLocks @inline(__always)
func wideSincSum(_ s: SampleData, _ lanes: borrowing SampleLanes, _ k: Int, first: Int, taps: Int, row: Int) -> Float {
    let low = s.lowBytes.unsafelyUnwrapped
    let weights = UnsafePointer<Int16>(bitPattern: row).unsafelyUnwrapped
    var sum: Int64 = 0
    for j in 0..<taps {
        let i = sincFrame(lanes, k, first &+ j)
        if i < 0 { continue }
        sum &+= Int64(Int32(s.data[i]) << 8 | Int32(low[i])) &* Int64(SincKernels.weight(weights, j))
    }
    return Float(sum) * (1.0 / 32_768)
}
