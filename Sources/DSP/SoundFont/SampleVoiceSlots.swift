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
    /// Per slot, `unrolledLoopFrames` frames: its voice's short loop repeated (`Synth.unrollLoop`), so that
    /// the voice wraps once per many passes rather than every pass. Filled once, when the voice first
    /// reaches its loop (a copy per group of eight, filled each call, cost a 64-frame call as much as the
    /// frames it played). Pages of slots never used are never touched.
    let unrolledLoops: UnsafeMutablePointer<Int16>
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
        laneOffsets = store.make(8, 0)
        self.store = store
    }
}
