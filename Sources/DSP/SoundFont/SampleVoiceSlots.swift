/// The SoundFont sample voices' state, one `SampleVoice` per synth slot (the same indices as `VoiceSlots`,
/// whose stage, channel, note, fade and filter states the sample voices share), plus the per-slice list of
/// slots that play samples. One `ArrayBlock`; the synth frees it in `deinit`.
struct SampleVoiceSlots {
    let state: UnsafeMutablePointer<SampleVoice>
    /// Per slice: the sounding sample voices' slots, rendered eight at a time.
    let activeSlots: UnsafeMutablePointer<Int32>
    /// A group's control values for one block, eight lanes a row (`SampleControl`): written lane by lane as
    /// scalars, read as vectors (writing single lanes of a vector in a register costs far more).
    let controlFloats: UnsafeMutablePointer<Float>
    let controlInts: UnsafeMutablePointer<Int32>
    /// The sample loop's interpolation weights (`InterpolationTable`).
    let interpolation: InterpolationTable
    private let block: ArrayBlock

    init(count: Int) {
        var block = ArrayBlock(arrays: 4, count: count,
                               bytesPerEntry: MemoryLayout<SampleVoice>.stride + MemoryLayout<Int32>.stride + 8 * 32 * 4)
        state = block.take(count, SampleVoice())
        activeSlots = block.take(count, 0)
        controlFloats = block.take(8 * SampleControl.allFloatRows, 0)
        controlInts = block.take(8 * SampleControl.intRows, 0)
        interpolation = InterpolationTable()
        self.block = block
    }

    func deallocate() {
        block.deallocate()
        interpolation.deallocate()
    }
}
