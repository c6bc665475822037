/// The SoundFont sample voices' state, one `SampleVoice` per synth slot (the same indices as `VoiceSlots`,
/// whose stage, channel, note, fade and filter states the sample voices share), plus the per-slice list of
/// slots that play samples. Each array a `FixedArray` of its own, freed with the synth.
struct SampleVoiceSlots: ~Copyable {
    let state: FixedArray<SampleVoice>
    /// Per slice: the sounding sample voices' slots, rendered eight at a time.
    let activeSlots: FixedArray<Int32>
    /// Per group of a slice (its place in the slice's order, `Synth.renderSampleVoices`): its control values
    /// and its lanes' state over a call (`SampleGroupRows`). A group kept between slices (`kept`) keeps them
    /// there (Synth+SampleLaneCache.swift).
    let groups: FixedArray<SampleGroupRows>
    /// Per group: what it was kept with at the end of the last slice (`KeptSampleGroup.count` 0: not kept).
    let kept: FixedArray<KeptSampleGroup>
    /// [0]: the groups of the last slice (those at and past it are not kept).
    let keptLive: FixedArray<Int>
    let groupCount: Int
    /// Per stack layer, in a slice: the end of its voices in `activeSlots` (sorted by layer).
    let layerEnds: FixedArray<Int>
    /// The sample loop's interpolation weights (`InterpolationTable`, a view of the two arrays below).
    let interpolation: InterpolationTable
    private let interpolationWeights: FixedArray<HalfLanes>, interpolationWords: FixedArray<SIMD4<Int16>>
    /// Copies of short loops, `unrolledLoopFrames` frames each: a loop repeated (`unrollLoop`), so that a
    /// voice wraps once per many passes rather than every pass. One copy per loop in use, made when a voice
    /// first reaches it and shared by every voice that plays it (`Synth.loopCopy`), so that a chord of many
    /// voices on one loop reads one copy, which stays in the cache between periods. As many copies as slots,
    /// up to `unrolledLoopCopies`.
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

    /// Slots for `count` voices of a font (or stack) of `layers` layers.
    init(count: Int, layers: Int) {
        state = FixedArray(count, SampleVoice())
        activeSlots = FixedArray(count, 0)
        // Each layer's voices in groups of eight: at most one group per layer not full.
        groupCount = (count + 7) / 8 + max(layers, 1)
        groups = FixedArray(groupCount, SampleGroupRows())
        kept = FixedArray(groupCount, KeptSampleGroup())
        keptLive = FixedArray(1, 0)
        layerEnds = FixedArray(max(layers, 1), 0)
        interpolationWeights = FixedArray(InterpolationTable.rows, .zero)
        interpolationWords = FixedArray(InterpolationTable.rows, .zero)
        interpolation = InterpolationTable(weights: interpolationWeights.baseAddress, words: interpolationWords.baseAddress)
        let copies = min(count, unrolledLoopCopies)
        unrolledLoops = FixedArray(copies * unrolledLoopFrames, 0)
        copyKeys = FixedArray(copies, SIMD4())
        copyStamps = FixedArray(copies, 0)
        let buckets = 1 << (Int.bitWidth - (2 * copies - 1).leadingZeroBitCount) // a power of two >= 2 copies
        copyBuckets = FixedArray(buckets, -1)
        copyBucketMask = buckets - 1
        copyClock = FixedArray(3, 0)
        copyCount = copies
        copyClock[0] = 2
    }

    /// Group `g`'s rows.
    @_noLocks @inline(__always)
    func rows(_ g: Int) -> UnsafeMutablePointer<SampleGroupRows> { groups.baseAddress + g }
}

/// What a group of sample voices was kept with between slices (Synth+SampleLaneCache.swift): its voices lane
/// by lane, and what its rows do not hold.
struct KeptSampleGroup: BitwiseCopyable {
    var slots = SIMD8<Int32>()
    /// Its voices (0: the group is not kept).
    var count: Int32 = 0
    /// The sends were gathered with these (`EffectBuses.reverbOn`, `.chorusOn`).
    var reverbOn = false, chorusOn = false
    /// Lanes whose short loop is to be unrolled once the voice reaches it.
    var unrollable: UInt8 = 0
    /// The last block's inputs of the exp2s (`renderSampleGroup`).
    var cents = Lanes(), filterCents = Lanes(), centibels = Lanes(), envelope = Lanes()
    @_noLocks init() {}
}
