// A group's two halves played together eight lanes wide, on CPUs with AVX-512 (the loop itself is in the
// module SampleLoopAVX512, compiled for them): the same samples as `playSamples` on each half, bit for bit.
#if arch(x86_64)
import CSampleLoop
import SampleLoopAVX512

/// Whether this CPU and its OS run the AVX-512 loop (CPUID and XCR0; asked by `Synth.init`, off the
/// real-time thread).
func cpuRunsWideSampleLoop() -> Bool { backbeat_cpu_runs_avx512() != 0 }

/// Both halves of a group (each with a lane still sounding, so both filtered) over `count` samples from
/// `start`, into the lane sums `left`/`right` (`left[2 n + half]`). Fast runs as long as both halves can go
/// fast (`fastSamples`) through `playWideSampleRun`; between them one careful step of each half, which plays
/// any lane's sample as a fast run would.
@_noLocks @inline(never)
func playSamplesWide(_ low: inout SampleLanes, _ high: inout SampleLanes, _ sample: SampleData,
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
            playWideSampleRun(&wide, rows: UnsafeRawPointer(table.words), count: run,
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
        for l in 0..<4 {
            phase[first &+ l] = UInt64(UInt32(bitPattern: half.position[l])) << 32 | UInt64(half.fraction[l])
            increment[first &+ l] = UInt64(UInt32(bitPattern: half.whole[l])) << 32 | UInt64(half.part[l])
            origin[first &+ l] = Int64(base &+ half.offset[l] &- 1)
        }
        @inline(__always) func put(_ x: inout SIMD8<Float>, _ y: HalfLanes) {
            if first == 0 { x.lowHalf = y } else { x.highHalf = y }
        }
        put(&z1, half.z1); put(&z2, half.z2); put(&b1, half.b1); put(&b2, half.b2); put(&b3, half.b3)
        put(&left, half.left); put(&right, half.right); put(&stepLeft, half.stepLeft); put(&stepRight, half.stepRight)
    }

    /// What a run changed, back into a half's lanes.
    @_noLocks @inline(__always)
    func give(_ half: inout SampleLanes, lanes first: Int) {
        for l in 0..<4 {
            half.position[l] = Int32(truncatingIfNeeded: phase[first &+ l] >> 32)
            half.fraction[l] = UInt32(truncatingIfNeeded: phase[first &+ l])
        }
        @inline(__always) func part(_ x: SIMD8<Float>) -> HalfLanes { first == 0 ? x.lowHalf : x.highHalf }
        half.z1 = part(z1); half.z2 = part(z2); half.left = part(left); half.right = part(right)
    }
}
#else
func cpuRunsWideSampleLoop() -> Bool { false }
#endif
