// The per-block state of the sample-voice loop (Synth+SampleGroup.swift): four lanes' playing state and the
// font's sample data as the loop reads it.

typealias HalfLaneInts = SIMD4<Int32>

/// Four sample voices' playing state over a control block: position, loop, filter, levels. The interpolated
/// values are the integer sums of the table's read, in units of 2^-30 (`InterpolationTable`): the filter's
/// state `z1`, `z2` is kept in those units and the levels `left`, `right` and their steps times 2^-30, so
/// that each product into the lane sums is the same as with values in -1...1 (scaling by a power of two is
/// exact), without a multiply per sample. `Synth.renderSampleGroup` converts when it gathers and scatters.
struct SampleLanes {
    /// Empty lanes sit at frame 1 (their four points inside any data of four frames or more) with no
    /// increment, so the fast runs read them without checks (`fastSamples`).
    var position = HalfLaneInts(repeating: 1), fraction = HalfLaneBits()
    var whole = HalfLaneInts(), part = HalfLaneBits()
    var wrapAt = HalfLaneInts(), loopLength = HalfLaneInts(), stopAt = HalfLaneInts(), fastLimit = HalfLaneInts()
    var z1 = HalfLanes(), z2 = HalfLanes(), b1 = HalfLanes(), b2 = HalfLanes(), b3 = HalfLanes()
    var left = HalfLanes(), right = HalfLanes(), stepLeft = HalfLanes(), stepRight = HalfLanes()
    /// Per lane, where its points are read, in frames from the font's data: 0, or for a short loop
    /// repeated in `SampleVoiceSlots.unrolledLoops`, that copy's place less the loop's start (minus one).
    var offset = SIMD4<Int>()
    /// Per lane, the last frame its careful reads may take (the data's, or the unrolled copy's).
    var lastIndex = HalfLaneInts()
    /// Per lane, the first frame its reads take from `offset` (its sample's first, or for an unrolled copy the
    /// frame before the loop, the copy's first): the sinc's longer reads take the frames before it from the
    /// font's data, as far back as `startAt`.
    var firstIndex = HalfLaneInts()
    /// Per lane, its sample's first frame in the font's data: the sinc reads silence before it.
    var startAt = HalfLaneInts()
    /// 1 while the voice plays, 0 from the sample frame after a non-looping sample's end (and in empty lanes).
    var alive = HalfLanes()
    /// Whether any of the four still sounds: every voice that does is filtered, wide open or not (as
    /// FluidSynth's are), so that a voice sounds the same whichever voices share its lanes (they change with
    /// where calls end). Four silent lanes (ended, or empty) skip it.
    var filtered = true
    /// The filter's mix (`svfMixStep`), and whether any lane's filter is not the low-pass (then the four play
    /// the mixing loop, SampleLanes+Shaped.swift; else these are not read).
    var mixInput = HalfLanes(), mixBand = HalfLanes(), mixLow = HalfLanes()
    var shaped = false
    @_noLocks init() {}
}

/// The font's sample data as the voice loop reads it.
struct SampleData {
    let data: UnsafePointer<Int16>
    let lowBytes: UnsafePointer<UInt8>?
    let lastIndex: HalfLaneInts

    @_noLocks
    init(data: UnsafePointer<Int16>, lowBytes: UnsafePointer<UInt8>?, lastIndex: HalfLaneInts) {
        self.data = data
        self.lowBytes = lowBytes
        self.lastIndex = lastIndex
    }
}
