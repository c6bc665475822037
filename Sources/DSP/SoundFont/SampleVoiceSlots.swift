/// The SoundFont sample voices' state, one `SampleVoice` per synth slot (the same indices as `VoiceSlots`,
/// whose stage, channel, note, fade and filter states the sample voices share), plus the per-slice list of
/// slots that play samples. Owned by its `ArrayStore`, freed with the synth.
struct SampleVoiceSlots: ~Copyable {
    let state: UnsafeMutablePointer<SampleVoice>
    /// Per slice: the sounding sample voices' slots, rendered eight at a time.
    let activeSlots: UnsafeMutablePointer<Int32>
    /// A group's control values for one block, eight lanes a row (`SampleControl`): written lane by lane as
    /// scalars, read as vectors (writing single lanes of a vector in a register costs far more).
    let controlFloats: UnsafeMutablePointer<Float>
    let controlInts: UnsafeMutablePointer<Int32>
    /// The sample loop's interpolation weights (`InterpolationTable`, in two arrays of the store).
    let interpolation: InterpolationTable
    /// Copies of short loops, `unrolledLoopFrames` frames each: a loop repeated (`unrollLoop`), so that a
    /// voice wraps once per many passes rather than every pass. One copy per loop in use, made when a voice
    /// first reaches it and shared by every voice that plays it (`Synth.loopCopy`): a copy per voice (2 KiB)
    /// made a chord of 2000 voices read 4 MiB of copies, which a real-time thread asleep between periods
    /// found gone from the cache at each one. As many copies as slots; pages never used are never touched.
    let unrolledLoops: UnsafeMutablePointer<Int16>
    /// Per copy: the loop it holds, (stack layer, start, length, 0); length 0 for none yet.
    let copyKeys: UnsafeMutablePointer<SIMD4<Int32>>
    /// Per copy: the last slice a voice played from it. One no voice played from in this slice or the last
    /// is free to hold another loop (a voice that plays from a copy does so in every slice).
    let copyStamps: UnsafeMutablePointer<UInt32>
    /// A loop's hash -> the copy that holds it (or held it: the key says), -1 for none.
    let copyBuckets: UnsafeMutablePointer<Int32>
    let copyBucketMask: Int
    /// [0] the slices rendered (from 2, so every copy starts free), [1] the clock hand (the next copy looked
    /// at for reuse), [2] the last slice in which none was free.
    let copyClock: UnsafeMutablePointer<UInt32>
    let copyCount: Int
    /// Per lane of a group: `SampleLanes.offset`, set with the copy.
    let laneOffsets: UnsafeMutablePointer<Int>
    private let store: ArrayStore

    init(count: Int) {
        var store = ArrayStore()
        state = store.make(count, SampleVoice())
        activeSlots = store.make(count, 0)
        controlFloats = store.make(8 * SampleControl.allFloatRows, 0)
        controlInts = store.make(8 * SampleControl.intRows, 0)
        interpolation = InterpolationTable(weights: store.make(InterpolationTable.rows, .zero),
                                           words: store.make(InterpolationTable.rows, .zero))
        unrolledLoops = store.make(count * unrolledLoopFrames, 0)
        copyKeys = store.make(count, SIMD4())
        copyStamps = store.make(count, 0)
        let buckets = 1 << (Int.bitWidth - (2 * count - 1).leadingZeroBitCount) // a power of two >= 2 count
        copyBuckets = store.make(buckets, -1)
        copyBucketMask = buckets - 1
        copyClock = store.make(3, 0)
        copyClock[0] = 2
        copyCount = count
        laneOffsets = store.make(8, 0)
        self.store = store
    }
}
