#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif
import VoiceLoops // svfStep, shared with the eight-lane loops

// The per-sample loop of the sample voices (called per control block by `renderSampleGroup`): read four
// points around each voice's position, weight them from the interpolation table, filter, ramp the levels,
// add into the lane sums, move on through the sample and its loop.
//
// Most samples need no checks at all: before a run, `fastSamples` works out how many samples every lane can
// take without reading past its loop's end or the data's, wrapping, or ending, and `fastRun` plays that many
// with the positions in scalar registers (a frame index and a 32-bit fraction: an add and an add with carry
// per lane per sample) and no branch. The sample where a lane wraps, ends, or reads near an edge goes
// through `carefulStep`.

extension SampleLanes {
    /// Samples all four lanes can play from here without a careful read, a loop wrap or a sample's end:
    /// every position reached, up to and including the one after the last sample played, lies in
    /// 1...fastLimit + 1 (its four points inside the data and before the loop's end) and, for a lane still
    /// playing, below its stop. Zero when the font has 24-bit samples (read point by point).
    @_noLocks @inline(__always)
    func fastSamples(_ sample: SampleData, atMost limit: Int) -> Int {
        guard sample.lowBytes == nil else { return 0 }
        // Usually every lane has room for the whole run, which one vector check shows: a lane moving at most
        // whole + 1 frames a sample (none if it does not move) from p ends at most at p + (whole + 1) limit.
        // Where that passes the last position allowed, the exact reckoning below says how far each can go.
        if limit <= 4096 {
            var last = fastLimit &+ 1
            let stop = stopAt &- 1
            last.replace(with: stop, where: alive .!= HalfLanes() .& (stop .< last))
            var stride = whole &+ 1
            stride.replace(with: 0, where: whole .== 0 .& part .== 0)
            let reach = position &+ stride &* HalfLaneInts(repeating: Int32(truncatingIfNeeded: limit))
            if all((position .>= 1) .& (reach .<= last)) { return limit }
        }
        var run = UInt64(limit)
        for l in 0..<4 {
            let p = position[l]
            var last = fastLimit[l] &+ 1 // the last position whose points are read without checks
            if alive[l] != 0 && stopAt[l] &- 1 < last { last = stopAt[l] &- 1 }
            guard p >= 1 && p <= last else { return 0 }
            let increment = UInt64(UInt32(bitPattern: whole[l])) << 32 | UInt64(part[l])
            guard increment != 0 else { continue }
            let phase = UInt64(UInt32(bitPattern: p)) << 32 | UInt64(fraction[l])
            let room = (UInt64(UInt32(bitPattern: last) &+ 1) << 32) &- 1 &- phase
            // Usually the whole run fits (increment times the run is at most 256 x 2^32 x the block's 64
            // samples: no overflow), and the 64-bit division is skipped.
            if increment &* run > room { run = room / increment }
        }
        return Int(run)
    }
}

/// Four sample voices over `count` samples from frame `start`, added into the lane sums (`left[2 n + half]`).
/// Not inlined, and four lanes wide, so its state stays in registers (as `oscillateAndFilter`).
@_noLocks @inline(never)
func playSamples(_ lanes: inout SampleLanes, _ sample: SampleData, _ table: InterpolationTable, from start: Int,
                 count: Int, half: Int, left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    // In place: the fast runs (`playFast`) keep their state in registers themselves.
    let sumLeft = left + half, sumRight = right + half
    if lanes.filtered {
        playLoop(&lanes, sample, table, from: start, count: count, sumLeft: sumLeft, sumRight: sumRight, filtered: true)
    } else {
        playLoop(&lanes, sample, table, from: start, count: count, sumLeft: sumLeft, sumRight: sumRight, filtered: false)
    }
}

/// The loop of `playSamples`, with the filter or without, or with the filter's output mixed (`shaped`,
/// `playSamplesShaped`): fast runs, a careful step between them.
@_noLocks @inline(__always)
func playLoop(_ s: inout SampleLanes, _ sample: SampleData, _ table: InterpolationTable, from start: Int, count: Int,
              sumLeft: UnsafeMutablePointer<HalfLanes>, sumRight: UnsafeMutablePointer<HalfLanes>, filtered: Bool,
              shaped: Bool = false) {
    var y = HalfLanes()
    var n = start
    let end = start &+ count
    while n < end {
        let run = s.fastSamples(sample, atMost: end &- n)
        if run > 0 {
            if shaped {
                playFastShaped(&s, sample, table, from: n, count: run, sumLeft: sumLeft, sumRight: sumRight)
            } else {
                playFast(&s, sample, table, from: n, count: run, sumLeft: sumLeft, sumRight: sumRight, filtered: filtered, last: &y)
            }
            n &+= run
            if n == end { break }
        }
        if shaped {
            carefulStepShaped(&s, sample, table, at: n, sumLeft: sumLeft, sumRight: sumRight)
        } else {
            carefulStep(&s, sample, table, at: n, sumLeft: sumLeft, sumRight: sumRight, filtered: filtered, last: &y)
        }
        n &+= 1
    }
    if !filtered {
        // Four silent lanes (ended, or empty) skipped the filter: its state as if it had run wide open (it
        // settles to its input within a few samples). Silent lanes are not heard again; a run of their own
        // keeps the filtered run's register allocation its own (one run for both moved the frame indices into
        // vector registers).
        s.z1 = HalfLanes()
        s.z2 = y
    }
}

/// The sum of each vector's lanes, as one vector: (sum a, sum b, sum c, sum d). Two rounds of interleaving
/// (unpcklps/unpckhps, then movlhps/movhlps) and three adds.
@_noLocks @inline(__always)
func laneSums(_ a: HalfLanes, _ b: HalfLanes, _ c: HalfLanes, _ d: HalfLanes) -> HalfLanes {
    let ab = HalfLanes(a[0], b[0], a[1], b[1]) + HalfLanes(a[2], b[2], a[3], b[3])
    let cd = HalfLanes(c[0], d[0], c[1], d[1]) + HalfLanes(c[2], d[2], c[3], d[3])
    return HalfLanes(lowHalf: ab.lowHalf, highHalf: cd.lowHalf) + HalfLanes(lowHalf: ab.highHalf, highHalf: cd.highHalf)
}

/// One output sample of the four lanes from their interpolated values `x`: filter (its output mixed when
/// `shaped`), ramp, add into the sums.
@_noLocks @inline(__always)
func mixSample(_ s: inout SampleLanes, _ x: HalfLanes, at n: Int, sumLeft: UnsafeMutablePointer<HalfLanes>,
               sumRight: UnsafeMutablePointer<HalfLanes>, filtered: Bool, shaped: Bool = false) {
    // svfStep returns twice the low-pass output (the half is folded into the levels), svfMixStep twice its mix.
    let out = shaped ? svfMixStep(x, z1: &s.z1, z2: &s.z2, b1: s.b1, b2: s.b2, b3: s.b3, input: s.mixInput, band: s.mixBand, low: s.mixLow)
        : filtered ? svfStep(x, z1: &s.z1, z2: &s.z2, b1: s.b1, b2: s.b2, b3: s.b3) : x + x
    s.left += s.stepLeft
    s.right += s.stepRight
    sumLeft[2 &* n] += out * s.left
    sumRight[2 &* n] += out * s.right
}

/// The interpolated values of four lanes at frames `i0`...`i3` and fractions `f0`...`f3`, unscaled. A frame
/// index is counted in 16-bit words from address 0 (half the font's data's address, plus the frame in it
/// and an unrolled loop's offset: `fastRun`), so that the read's address is the index times two and no
/// register holds a data pointer. Each lane's four 16-bit words from i - 1 in one 8-byte read, its table
/// row of 16-bit weights (`InterpolationTable.row`), two lanes' words and weights side by side in one
/// register, multiplied and added pairwise in one instruction (pmaddwd) into (p's first pair, p's second
/// pair, q's first pair, q's second pair), exact in 32 bits. pmaddwd is called as the instruction itself, so
/// that the compiler cannot fuse the shuffles that follow into the multiply and give it up. The 8-byte reads
/// are loaded as Doubles: the second of a register then goes into its high half straight from memory
/// (movhps), with no instruction to join two integer loads.
@_noLocks @inline(__always)
func fourPoints(_ words: UnsafeMutablePointer<SIMD4<Int16>>,
                _ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int, _ f0: UInt32, _ f1: UInt32, _ f2: UInt32,
                _ f3: UInt32) -> SIMD4<Int32> {
    @inline(__always) func points(_ i: Int) -> Double {
        UnsafeRawPointer(bitPattern: i &* 2).unsafelyUnwrapped.loadUnaligned(fromByteOffset: -2, as: Double.self)
    }
    @inline(__always) func row(_ f: UInt32) -> Double {
        UnsafeRawPointer(words + InterpolationTable.row(f)).load(as: Double.self)
    }
    // Widened lane by lane, not with the generic SIMD8<Int32>(truncatingIfNeeded:), which the optimizer does
    // not always inline; these eight conversions always fold into one sign extension.
    @inline(__always) func widen(_ a: SIMD4<Int16>, _ b: SIMD4<Int16>) -> SIMD8<Int32> {
        SIMD8(Int32(a[0]), Int32(a[1]), Int32(a[2]), Int32(a[3]), Int32(b[0]), Int32(b[1]), Int32(b[2]), Int32(b[3]))
    }
    @inline(__always) func pairs(_ p: Int, _ fp: UInt32, _ q: Int, _ fq: UInt32) -> SIMD4<Int32> {
        let xs = unsafeBitCast(SIMD2(points(p), points(q)), to: SIMD8<Int16>.self)
        let ws = unsafeBitCast(SIMD2(row(fp), row(fq)), to: SIMD8<Int16>.self)
        #if arch(x86_64)
        // The instruction itself (a C intrinsic, which the performance checker cannot see into: it is one
        // instruction, no call), so that the shuffles below cannot be fused into the multiply.
        return _unsafePerformance {
            unsafeBitCast(_mm_madd_epi16(unsafeBitCast(xs, to: __m128i.self), unsafeBitCast(ws, to: __m128i.self)),
                          to: SIMD4<Int32>.self)
        }
        #else
        let products = widen(xs.lowHalf, xs.highHalf) &* widen(ws.lowHalf, ws.highHalf)
        return SIMD4(products[0], products[2], products[4], products[6]) &+ SIMD4(products[1], products[3], products[5], products[7])
        #endif
    }
    let ab = pairs(i0, f0, i1, f1), cd = pairs(i2, f2, i3, f3)
    return SIMD4(ab[0], ab[2], cd[0], cd[2]) &+ SIMD4(ab[1], ab[3], cd[1], cd[3])
}

/// `fastRun` in a function of its own, so that the loop has the registers to itself (values live across it
/// in `playLoop` would hold registers the loop needs). Two copies, with the filter and without: a lane
/// reading an unrolled loop needs none of its own (its offset is in its frame index).
@_noLocks @inline(never)
func playFast(_ s: inout SampleLanes, _ sample: SampleData, _ table: InterpolationTable, from start: Int, count: Int,
              sumLeft: UnsafeMutablePointer<HalfLanes>, sumRight: UnsafeMutablePointer<HalfLanes>, filtered: Bool,
              last y: inout HalfLanes) {
    if filtered {
        fastRun(&s, sample, table, from: start, count: count, sumLeft: sumLeft, sumRight: sumRight, filtered: true,
                last: &y)
    } else {
        fastRun(&s, sample, table, from: start, count: count, sumLeft: sumLeft, sumRight: sumRight, filtered: false,
                last: &y)
    }
}

/// `count` samples with no checks (`fastSamples` said how many may go so). Each lane's place is a frame
/// index, the address of its word in 16-bit units (the font's data's, or its unrolled loop's:
/// `SampleLanes.offset`), and a 32-bit fraction: per sample an add of the fraction's increment and an add
/// with its carry of the whole frames, the index then the read's address as it is (a 32.32 phase in one
/// 64-bit word needs copies and shifts for the index and the row). The loop needs 13 general registers, all
/// there are beside the stack and frame pointers, which is why no register holds a data pointer.
@_noLocks @inline(__always)
func fastRun(_ s: inout SampleLanes, _ sample: SampleData, _ table: InterpolationTable, from start: Int, count: Int,
             sumLeft: UnsafeMutablePointer<HalfLanes>, sumRight: UnsafeMutablePointer<HalfLanes>, filtered: Bool,
             shaped: Bool = false, last y: inout HalfLanes) {
    let base = Int(bitPattern: sample.data) >> 1 // the data's address in 16-bit words
    let o0 = base &+ s.offset[0], o1 = base &+ s.offset[1], o2 = base &+ s.offset[2], o3 = base &+ s.offset[3]
    var i0 = Int(s.position[0]) &+ o0, i1 = Int(s.position[1]) &+ o1
    var i2 = Int(s.position[2]) &+ o2, i3 = Int(s.position[3]) &+ o3
    var f0 = s.fraction[0], f1 = s.fraction[1], f2 = s.fraction[2], f3 = s.fraction[3]
    let w0 = Int(s.whole[0]), w1 = Int(s.whole[1]), w2 = Int(s.whole[2]), w3 = Int(s.whole[3])
    let q0 = s.part[0], q1 = s.part[1], q2 = s.part[2], q3 = s.part[3]
    @inline(__always) func step(_ i: inout Int, _ f: inout UInt32, _ whole: Int, _ part: UInt32) {
        let (next, carry) = f.addingReportingOverflow(part)
        f = next
        i = i &+ whole &+ (carry ? 1 : 0)
    }
    let words = table.words
    var x = HalfLanes()
    // The left sum's pointer and the distance to the right one's: with both addressed from the run's end by
    // the sample counted up to 0, the compiler kept the end in a register and had one too few (it shuffled
    // four of them every sample).
    var left = sumLeft + 2 &* start
    let toRight = sumRight - sumLeft
    var n = count
    repeat {
        let sums = fourPoints(words, i0, i1, i2, i3, f0, f1, f2, f3)
        step(&i0, &f0, w0, q0); step(&i1, &f1, w1, q1); step(&i2, &f2, w2, q2); step(&i3, &f3, w3, q3)
        // The integer sums as they are: the lanes' filter state and levels are kept in their units
        // (`SampleLanes`), which saves the multiply by 2^-30 here.
        x = HalfLanes(sums)
        mixSample(&s, x, at: 0, sumLeft: left, sumRight: left + toRight, filtered: filtered, shaped: shaped)
        left += 2
        n &-= 1
    } while n != 0
    // The last input is read only after an unfiltered run (`playLoop`), so only that run keeps it.
    if !filtered { y = x }
    s.position = HalfLaneInts(Int32(truncatingIfNeeded: i0 &- o0), Int32(truncatingIfNeeded: i1 &- o1),
                              Int32(truncatingIfNeeded: i2 &- o2), Int32(truncatingIfNeeded: i3 &- o3))
    s.fraction = HalfLaneBits(f0, f1, f2, f3)
}

/// One sample with every check: points read one by one near a loop's end or the data's, the loop wrapped,
/// a non-looping sample's end noted. A lane that ends is silenced (its levels zeroed) and parked at frame 1
/// with no increment, so that it no longer holds the others to careful steps. The interpolated values of
/// 16-bit samples are the fast run's exact integer sums, so a sample played carefully is the same as played
/// fast: where careful steps fall (how long a loop's copy is, how a render is sliced) changes nothing.
@_noLocks @inline(never)
func carefulStep(_ s: inout SampleLanes, _ sample: SampleData, _ table: InterpolationTable, at n: Int,
                 sumLeft: UnsafeMutablePointer<HalfLanes>, sumRight: UnsafeMutablePointer<HalfLanes>, filtered: Bool,
                 last y: inout HalfLanes) {
    let x = carefulInput(s, sample, table)
    y = x
    mixSample(&s, x, at: n, sumLeft: sumLeft, sumRight: sumRight, filtered: filtered)
    s.advanceCarefully()
}

/// The four lanes' interpolated values with every check (`carefulStep`): points read one by one near an edge.
@_noLocks @inline(__always)
func carefulInput(_ s: SampleLanes, _ sample: SampleData, _ table: InterpolationTable) -> HalfLanes {
    let x: HalfLanes
    if sample.lowBytes == nil {
        let words = table.words
        @inline(__always) func sum(_ l: Int) -> Int32 {
            let p = laneWords(sample, s, l), w = words[InterpolationTable.row(s.fraction[l])]
            return (Int32(p[0]) &* Int32(w[0]) &+ Int32(p[1]) &* Int32(w[1]))
                &+ (Int32(p[2]) &* Int32(w[2]) &+ Int32(p[3]) &* Int32(w[3]))
        }
        x = HalfLanes(HalfLaneInts(sum(0), sum(1), sum(2), sum(3)))
    } else {
        let weights = table.weights
        @inline(__always) func weighted(_ l: Int) -> HalfLanes {
            wideLanePoints(sample, s, l) * weights[InterpolationTable.row(s.fraction[l])]
        }
        x = laneSums(weighted(0), weighted(1), weighted(2), weighted(3))
    }
    return x
}

extension SampleLanes {
    /// The four lanes one output sample on: the loop wrapped, a non-looping sample's end noted. A lane that
    /// ends is silenced (its levels zeroed) and parked at frame 1 with no increment (`carefulStep`).
    @_noLocks @inline(__always)
    mutating func advanceCarefully() {
        let next = fraction &+ part
        position &+= whole
        position.replace(with: position &+ 1, where: next .< fraction)
        fraction = next
        position.replace(with: position &- loopLength, where: position .>= wrapAt)
        let ends = position .>= stopAt .& alive .!= HalfLanes()
        if any(ends) {
            alive.replace(with: 0, where: ends)
            left.replace(with: 0, where: ends); right.replace(with: 0, where: ends)
            stepLeft.replace(with: 0, where: ends); stepRight.replace(with: 0, where: ends)
            whole.replace(with: 0, where: ends); part.replace(with: 0, where: ends)
            fraction.replace(with: 0, where: ends)
            position.replace(with: 1, where: ends)
        }
    }
}

/// The four 16-bit words i - 1 ... i + 2 around lane `l`'s position i: one 8-byte read, or near a loop's end
/// (where the points continue from its start) or the ends of the data (`data`, the font's or an unrolled
/// loop's, up to `lastIndex`), one by one through `carefulWords`.
@_noLocks @inline(__always)
func laneWords(_ s: SampleData, _ lanes: SampleLanes, _ l: Int) -> SIMD4<Int16> {
    let first = lanes.position[l] &- 1
    let data = s.data + lanes.offset[l]
    guard UInt32(bitPattern: first) <= UInt32(bitPattern: lanes.fastLimit[l]) else {
        return carefulWords(data, lanes.position[l], last: lanes.lastIndex[l], wrapAt: lanes.wrapAt[l],
                            loopLength: lanes.loopLength[l])
    }
    return (UnsafeRawPointer(data) + 2 &* Int(first)).loadUnaligned(as: SIMD4<Int16>.self)
}

/// The indices of the four points around `p`: past a loop's end continued from its start, each clamped into
/// 0...last.
@_noLocks @inline(__always)
func pointIndices(_ p: Int32, last: Int32, wrapAt wrap: Int32, loopLength length: Int32) -> SIMD4<Int32> {
    var i1 = p &+ 1, i2 = p &+ 2
    if i1 >= wrap { i1 = i1 &- length }
    if i2 >= wrap { i2 = i2 &- length }
    return SIMD4(min(max(p &- 1, 0), last), min(max(p, 0), last), min(max(i1, 0), last), min(max(i2, 0), last))
}

/// `laneWords` the slow way, point by point (`pointIndices`).
@_noLocks @inline(never)
func carefulWords(_ data: UnsafePointer<Int16>, _ p: Int32, last: Int32, wrapAt wrap: Int32, loopLength length: Int32) -> SIMD4<Int16> {
    let i = pointIndices(p, last: last, wrapAt: wrap, loopLength: length)
    return SIMD4(data[Int(i[0])], data[Int(i[1])], data[Int(i[2])], data[Int(i[3])])
}

/// The four points of lane `l` of a font with 24-bit samples (never unrolled, never played fast), in 16-bit
/// units: the table's float weights scale them to -1...1.
@_noLocks @inline(__always)
func wideLanePoints(_ s: SampleData, _ lanes: SampleLanes, _ l: Int) -> HalfLanes {
    let i = pointIndices(lanes.position[l], last: lanes.lastIndex[l], wrapAt: lanes.wrapAt[l], loopLength: lanes.loopLength[l])
    let low = s.lowBytes.unsafelyUnwrapped
    return HalfLanes(wideSample(s.data, low, i[0]), wideSample(s.data, low, i[1]), wideSample(s.data, low, i[2]),
                     wideSample(s.data, low, i[3]))
}

/// A 24-bit sample point (the 16-bit word and its low byte) in 16-bit units.
@_noLocks @inline(__always)
func wideSample(_ data: UnsafePointer<Int16>, _ low: UnsafePointer<UInt8>, _ index: Int32) -> Float {
    Float(Int32(data[Int(index)]) << 8 | Int32(low[Int(index)])) * (1.0 / 256)
}
