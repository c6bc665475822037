// A group's two halves played together eight lanes wide: a group of sample voices, the same samples as
// `playSamples` on each half, and a kept steady group of built-in voices, the same as `oscillateAndFilter`
// on each half, bit for bit; and two kept groups of built-in voices in one loop, the same as one after the
// other. The loops are compiled for three kinds of CPU (VoiceLoopsPortable, VoiceLoopsAVX2,
// VoiceLoopsAVX512); `VoiceLoopPath` says which of them this CPU runs and a synth plays.
import VoiceLoops
import VoiceLoopsAVX2
import VoiceLoopsPortable
import VoiceLoopsAVX512

/// The sample run of the loops compiled for `path`.
@_noLocks @inline(__always)
func playSampleRun(on path: VoiceLoopPath, _ run: inout WideSampleRun, rows: UnsafeRawPointer, count: Int,
                   sums: UnsafeMutableRawPointer, toRight: Int) {
    switch path {
    case .avx512: VoiceLoopsAVX512.playWideSampleRun(&run, rows: rows, count: count, sums: sums, toRight: toRight)
    case .avx2: VoiceLoopsAVX2.playWideSampleRun(&run, rows: rows, count: count, sums: sums, toRight: toRight)
    case .portable: VoiceLoopsPortable.playWideSampleRun(&run, rows: rows, count: count, sums: sums, toRight: toRight)
    }
}

/// The windowed-sinc sums of eight lanes (`sincSums`) of the loops compiled for `path`.
@_noLocks @inline(__always)
func sincSums(on path: VoiceLoopPath, words: SIMD8<Int>, weights: SIMD8<Int>, blocks: SIMD8<Int>) -> SIMD8<Float> {
    switch path {
    case .avx512: VoiceLoopsAVX512.sincSums(words: words, weights: weights, blocks: blocks)
    case .avx2: VoiceLoopsAVX2.sincSums(words: words, weights: weights, blocks: blocks)
    case .portable: VoiceLoopsPortable.sincSums(words: words, weights: weights, blocks: blocks)
    }
}

/// The sinc's fast run of eight lanes (`playSincRun`) of the loops compiled for `path`.
@_noLocks @inline(__always)
func playSincRun(on path: VoiceLoopPath, _ run: inout WideSampleRun, taps: SIMD8<Int>, tables: SIMD8<Int>, count: Int,
                 sums: UnsafeMutableRawPointer, toRight: Int) {
    switch path {
    case .avx512: VoiceLoopsAVX512.playSincRun(&run, taps: taps, tables: tables, count: count, sums: sums, toRight: toRight)
    case .avx2: VoiceLoopsAVX2.playSincRun(&run, taps: taps, tables: tables, count: count, sums: sums, toRight: toRight)
    case .portable: VoiceLoopsPortable.playSincRun(&run, taps: taps, tables: tables, count: count, sums: sums, toRight: toRight)
    }
}

/// The wavetable run of the loops compiled for `path`.
@_noLocks @inline(__always)
func playWavetableRun(on path: VoiceLoopPath, _ run: inout WideWavetableRun, pairs: UnsafeRawPointer, count: Int,
                      sums: UnsafeMutableRawPointer, toRight: Int) {
    switch path {
    case .avx512: VoiceLoopsAVX512.playWideWavetableRun(&run, pairs: pairs, count: count, sums: sums, toRight: toRight)
    case .avx2: VoiceLoopsAVX2.playWideWavetableRun(&run, pairs: pairs, count: count, sums: sums, toRight: toRight)
    case .portable: VoiceLoopsPortable.playWideWavetableRun(&run, pairs: pairs, count: count, sums: sums, toRight: toRight)
    }
}

/// Two kept groups' wavetable runs in one loop (`playWideWavetableRuns`), of the loops compiled for `path`.
@_noLocks @inline(__always)
func playWavetableRuns(on path: VoiceLoopPath, _ first: inout WideWavetableRun, _ second: inout WideWavetableRun,
                       pairs: UnsafeRawPointer, count: Int, sums: UnsafeMutableRawPointer, toRight: Int) {
    switch path {
    case .avx512:
        VoiceLoopsAVX512.playWideWavetableRuns(&first, &second, pairs: pairs, count: count, sums: sums, toRight: toRight)
    case .avx2:
        VoiceLoopsAVX2.playWideWavetableRuns(&first, &second, pairs: pairs, count: count, sums: sums, toRight: toRight)
    case .portable:
        VoiceLoopsPortable.playWideWavetableRuns(&first, &second, pairs: pairs, count: count, sums: sums, toRight: toRight)
    }
}

/// Both halves of a group (each with a lane still sounding, so both filtered) over `count` samples from
/// `start`, into the lane sums `left`/`right` (`left[2 n + half]`). Fast runs as long as both halves can go
/// fast (`fastSamples`) through `playWideSampleRun`; between them one careful step of each half, which plays
/// any lane's sample as a fast run would.
@_noLocks @inline(never)
func playSamplesWide(_ path: VoiceLoopPath, _ low: inout SampleLanes, _ high: inout SampleLanes, _ sample: SampleData,
                     _ table: InterpolationTable, from start: Int, count: Int,
                     left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    var y = HalfLanes() // the last input, which only an unfiltered run reads
    let base = Int(bitPattern: sample.data) >> 1 // the data's address in 16-bit words
    let toRight = (right - left) &* MemoryLayout<HalfLanes>.stride
    var n = start
    let end = start &+ count
    while n < end {
        let run = min(low.fastSamples(sample, atMost: end &- n), high.fastSamples(sample, atMost: end &- n))
        if run > 0 {
            var wide = WideSampleRun()
            wide.take(low, lanes: 0, base: base)
            wide.take(high, lanes: 4, base: base)
            playSampleRun(on: path, &wide, rows: UnsafeRawPointer(table.words), count: run,
                          sums: UnsafeMutableRawPointer(left + 2 &* n), toRight: toRight)
            wide.give(&low, lanes: 0)
            wide.give(&high, lanes: 4)
            n &+= run
            if n == end { break }
        }
        carefulStep(&low, sample, table, at: n, sumLeft: left, sumRight: right, filtered: true, last: &y)
        carefulStep(&high, sample, table, at: n, sumLeft: left + 1, sumRight: right + 1, filtered: true, last: &y)
        n &+= 1
    }
}

extension WideSampleRun {
    /// Lanes `first`..<`first + 4` from a half's lanes, `base` its sample data's word index.
    @_noLocks @inline(__always)
    mutating func take(_ half: borrowing SampleLanes, lanes first: Int, base: Int) {
        // A 32.32 value is its fraction's word then its frame's (little-endian): the two rows interleaved.
        @inline(__always) func fixed(_ frames: HalfLaneInts, _ fractions: HalfLaneBits) -> SIMD4<UInt64> {
            let f = SIMD4<UInt32>(truncatingIfNeeded: frames)
            return unsafeBitCast(SIMD8(fractions[0], f[0], fractions[1], f[1], fractions[2], f[2], fractions[3], f[3]),
                                 to: SIMD4<UInt64>.self)
        }
        @inline(__always) func put<Scalar: SIMDScalar>(_ x: inout SIMD8<Scalar>, _ y: SIMD4<Scalar>) {
            if first == 0 { x.lowHalf = y } else { x.highHalf = y }
        }
        put(&phase, fixed(half.position, half.fraction))
        put(&increment, fixed(half.whole, half.part))
        put(&origin, unsafeBitCast(half.offset &+ SIMD4(repeating: base &- 1), to: SIMD4<Int64>.self))
        put(&z1, half.z1); put(&z2, half.z2); put(&b1, half.b1); put(&b2, half.b2); put(&b3, half.b3)
        put(&left, half.left); put(&right, half.right); put(&stepLeft, half.stepLeft); put(&stepRight, half.stepRight)
    }

    /// What a run changed, back into a half's lanes.
    @_noLocks @inline(__always)
    func give(_ half: inout SampleLanes, lanes first: Int) {
        let words = unsafeBitCast(first == 0 ? phase.lowHalf : phase.highHalf, to: SIMD8<UInt32>.self)
        half.fraction = words.evenHalf
        half.position = HalfLaneInts(truncatingIfNeeded: words.oddHalf)
        @inline(__always) func part(_ x: SIMD8<Float>) -> HalfLanes { first == 0 ? x.lowHalf : x.highHalf }
        half.z1 = part(z1); half.z2 = part(z2); half.left = part(left); half.right = part(right)
    }
}
extension Synth {
    /// A kept steady group of built-in voices, both halves at once (`playWideWavetableRun` of the synth's
    /// `voiceLoops`), as `renderKept` plays each half with `oscillateAndFilter`.
    @_noLocks @inline(__always)
    func playWideWavetables(_ g: inout LaneCache.Entry, frames: Int, left: UnsafeMutablePointer<HalfLanes>,
                            right: UnsafeMutablePointer<HalfLanes>) {
        var run = WideWavetableRun(g)
        let pairs = UnsafeRawPointer(builtIn.wavetables.pairs), sums = UnsafeMutableRawPointer(left)
        let toRight = (right - left) &* MemoryLayout<HalfLanes>.stride
        playWavetableRun(on: voiceLoops, &run, pairs: pairs, count: frames, sums: sums, toRight: toRight)
        run.give(&g)
    }

    /// Two kept steady groups of built-in voices that play into the same lane sums, `first` then `second`, in
    /// one loop (`playWideWavetableRuns`): the same samples as `playWideWavetables` on each, one after the other,
    /// so long as nothing else adds into those sums between the two (groups are summed in order).
    @_noLocks @inline(__always)
    func playWideWavetables(_ first: inout LaneCache.Entry, _ second: inout LaneCache.Entry, frames: Int,
                            left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
        var a = WideWavetableRun(first), b = WideWavetableRun(second)
        let pairs = UnsafeRawPointer(builtIn.wavetables.pairs), sums = UnsafeMutableRawPointer(left)
        let toRight = (right - left) &* MemoryLayout<HalfLanes>.stride
        playWavetableRuns(on: voiceLoops, &a, &b, pairs: pairs, count: frames, sums: sums, toRight: toRight)
        a.give(&first)
        b.give(&second)
    }
}

extension WideWavetableRun {
    /// A kept group's lanes as a run takes them.
    @_noLocks @inline(__always)
    init(_ g: borrowing LaneCache.Entry) {
        self.init()
        phase = g.phase; increment = g.step; offsets = g.offset
        z1 = g.z1; z2 = g.z2; b1 = g.b1; b2 = g.b2; b3 = g.b3
        levelLeft = g.levelLeft; levelRight = g.levelRight
    }

    /// What a run changed, back into a kept group.
    @_noLocks @inline(__always)
    func give(_ g: inout LaneCache.Entry) {
        g.phase = phase; g.z1 = z1; g.z2 = z2
    }
}
