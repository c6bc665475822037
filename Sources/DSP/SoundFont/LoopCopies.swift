/// Copies of short loops, each repeated (`unrollLoop`), so that a voice wraps once per many passes rather
/// than every pass. One copy per loop in use, made when a voice first reaches it and shared by every voice that
/// plays it (`Synth.loopCopy`), so that a chord of many voices on one loop reads one copy, which stays in the
/// cache between periods. As many copies as slots, up to `unrolledLoopCopies`, for a font with a loop short
/// enough to be copied, or for a synth that may change instrument live (its slots stay); none for one without
/// (`needed`: an SFZ instrument of long samples, 4 MB less). Each array a `FixedArray` of its own, freed with
/// the synth.
struct LoopCopies: ~Copyable {
    /// The copies, `unrolledLoopFrames` frames each.
    let unrolledLoops: FixedArray<Int16>
    /// Per copy: the loop it holds, (stack layer, start, length, 0); length 0 for none yet.
    let copyKeys: FixedArray<SIMD4<Int32>>
    /// Per copy: the last slice a voice played from it. One no voice played from in this slice or the last
    /// is free to hold another loop (a voice that plays from a copy does so in every slice).
    let copyStamps: FixedArray<UInt32>
    /// A loop's hash -> the copy that holds it (or held it: the key says), -1 for none.
    let copyBuckets: FixedArray<Int32>
    let copyBucketMask: Int
    /// [0] the slices rendered (from 2, so every copy starts free), [1] the clock hand (the next copy looked
    /// at for reuse), [2] the last slice in which none was free.
    let copyClock: FixedArray<UInt32>
    let copyCount: Int

    init(slots count: Int, needed: Bool) {
        let copies = needed ? min(count, unrolledLoopCopies) : 0
        unrolledLoops = FixedArray(copies * unrolledLoopFrames, 0)
        copyKeys = FixedArray(copies, SIMD4())
        copyStamps = FixedArray(copies, 0)
        let buckets = 1 << (Int.bitWidth - (2 * max(copies, 1) - 1).leadingZeroBitCount) // a power of two >= 2 copies
        copyBuckets = FixedArray(buckets, -1)
        copyBucketMask = buckets - 1
        copyClock = FixedArray(3, 0)
        copyCount = copies
        copyClock[0] = 2
    }
}

extension LoopCopies {
    /// Whether any zone of `tables` loops over at most (`unrolledLoopFrames` - 3) / 2 frames, the loops a voice
    /// plays from a copy (`Synth.gatherSampleGroup`). Without one no voice asks for a copy. (A font with one
    /// gets copies for every slot: fewer could leave a voice without one, which plays a point differently.)
    static func needed(by tables: borrowing SoundFontTables) -> Bool {
        for zone in tables.zones {
            let s = Int(zone.sample)
            guard s >= 0 && s < tables.samples.count else { continue }
            let sample = tables.samples[s]
            guard sample.end > sample.start else { continue }
            let a = SampleAddresses(zone: zone, sample: sample)
            if a.mode != 0 && a.loopEnd - a.loopStart <= (unrolledLoopFrames - 3) / 2 { return true }
        }
        return false
    }
}
