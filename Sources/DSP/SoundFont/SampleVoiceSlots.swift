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
    /// Copies of short loops repeated, shared by the voices that play them (`LoopCopies`).
    let loops: LoopCopies
    /// The sinc interpolation's scratch rows for careful reads, one per lane of a group (`playSamplesSinc`; the
    /// kernels themselves are the process's, `SoundFontVoices.sinc`).
    let sincScratch: FixedArray<Int16>

    /// Slots for `count` voices of a font (or stack) of `layers` layers; with the sinc's scratch when a font
    /// plays (`sincScratch`), with loop copies when its loops need them (`LoopCopies.needed`).
    init(count: Int, layers: Int, sincScratch: Bool, loopCopies: Bool) {
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
        loops = LoopCopies(slots: count, needed: loopCopies)
        self.sincScratch = FixedArray(sincScratch ? 8 * SincKernels.maxTaps : 1, 0)
    }

    /// The stack layers these slots can sort voices by (a font's layers must not be more).
    var layerCapacity: Int { layerEnds.count }

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
