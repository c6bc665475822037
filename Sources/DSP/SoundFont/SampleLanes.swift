// The per-block state of the sample-voice loop (Synth+SampleGroup.swift): four lanes' playing state, the
// font's sample data as the loop reads it, and the rows of control values a group computes per block.

typealias HalfLaneInts = SIMD4<Int32>

/// The rows of a group's `SampleRows` (`SampleVoiceSlots.groupFloats` and `.groupInts`), eight lanes each.
enum SampleControl {
    static var cents: Int { @_noLocks get { 0 } }
    static var centibels: Int { @_noLocks get { 1 } }
    static var filterCents: Int { @_noLocks get { 2 } }
    static var damping: Int { @_noLocks get { 3 } }
    static var envelope: Int { @_noLocks get { 4 } }
    static var panLeft: Int { @_noLocks get { 5 } }
    static var panRight: Int { @_noLocks get { 6 } }
    static var ratio: Int { @_noLocks get { 7 } }
    static var fadeStep: Int { @_noLocks get { 8 } }
    // 9 is free (it held the increments as floats, now split into `whole` and `part` at once).
    static var targetLeft: Int { @_noLocks get { 10 } }
    static var targetRight: Int { @_noLocks get { 11 } }
    static var b1: Int { @_noLocks get { 12 } }
    static var b2: Int { @_noLocks get { 13 } }
    static var b3: Int { @_noLocks get { 14 } }
    // Per call, not per block: the voices' state gathered into the lanes.
    static var z1: Int { @_noLocks get { 15 } }
    static var z2: Int { @_noLocks get { 16 } }
    static var lastLeft: Int { @_noLocks get { 17 } }
    static var lastRight: Int { @_noLocks get { 18 } }
    static var alive: Int { @_noLocks get { 19 } }
    // Per call: the voices' modulated parameters (`SampleVoice`), which change only between calls.
    static var pitchCents: Int { @_noLocks get { 20 } }
    static var modLFOToPitch: Int { @_noLocks get { 21 } }
    static var vibLFOToPitch: Int { @_noLocks get { 22 } }
    static var modEnvToPitch: Int { @_noLocks get { 23 } }
    static var attenuation: Int { @_noLocks get { 24 } }
    static var modLFOToVolume: Int { @_noLocks get { 25 } }
    static var filterBase: Int { @_noLocks get { 26 } }
    static var modLFOToFilter: Int { @_noLocks get { 27 } }
    static var modEnvToFilter: Int { @_noLocks get { 28 } }
    // Per block: the envelopes', LFOs' and glide's values, which `cents`, `centibels` and `filterCents` are made of.
    static var modLFO: Int { @_noLocks get { 29 } }
    static var vibLFO: Int { @_noLocks get { 30 } }
    static var modEnv: Int { @_noLocks get { 31 } }
    static var glide: Int { @_noLocks get { 32 } }
    static var envelopeCentibels: Int { @_noLocks get { 33 } }
    // Per call, moved on per block (SampleControlBlock.swift): each envelope's value and its stage's ramp
    // (step, low, high: `SampleEnvelope.ramp`), each LFO's phase, increment and delay left, the glide.
    static var volumeValue: Int { @_noLocks get { 34 } }
    static var modulationValue: Int { @_noLocks get { 38 } }
    static var modLFOPhase: Int { @_noLocks get { 42 } }
    static var modLFOIncrement: Int { @_noLocks get { 43 } }
    static var modLFOWait: Int { @_noLocks get { 44 } }
    static var vibLFOPhase: Int { @_noLocks get { 45 } }
    static var vibLFOIncrement: Int { @_noLocks get { 46 } }
    static var vibLFOWait: Int { @_noLocks get { 47 } }
    static var glideStep: Int { @_noLocks get { 48 } }
    /// The glide a block plays (`glide` is where it is, moved on after).
    static var glideNow: Int { @_noLocks get { 49 } }
    // Per call: a stolen voice's fade (moved on per block), the effect sends.
    static var fade: Int { @_noLocks get { 50 } }
    static var reverbSend: Int { @_noLocks get { 51 } }
    static var chorusSend: Int { @_noLocks get { 52 } }
    /// At the end of a call: the last block's level (`SampleVoiceSlots`' voices' `envelope`, for stealing).
    static var level: Int { @_noLocks get { 53 } }
    /// Per call, moved on per block: samples left in each envelope's delay or hold, +infinity in its other
    /// stages (`SampleEnvelope.ramp`).
    static var volumeWait: Int { @_noLocks get { 54 } }
    static var modulationWait: Int { @_noLocks get { 55 } }
    static var allFloatRows: Int { @_noLocks get { 56 } }
    // Int32 rows
    static var wrapAt: Int { @_noLocks get { 0 } }
    static var loopLength: Int { @_noLocks get { 1 } }
    static var stopAt: Int { @_noLocks get { 2 } }
    static var whole: Int { @_noLocks get { 3 } }
    static var part: Int { @_noLocks get { 4 } }
    static var fastLimit: Int { @_noLocks get { 5 } }
    static var position: Int { @_noLocks get { 6 } }
    static var fraction: Int { @_noLocks get { 7 } }
    static var lastIndex: Int { @_noLocks get { 8 } }
    // Per call: the frames a lane's unrolled loop spans, 0 while it plays from the font's data (`unrollLane`).
    static var unrolledSpan: Int { @_noLocks get { 9 } }
    // Per call, changed by `advance` only: the envelopes' stages.
    static var volumeStage: Int { @_noLocks get { 10 } }
    static var modulationStage: Int { @_noLocks get { 11 } }
    /// Per call: the copy a lane's unrolled loop is played from (`unrollLane`), while `unrolledSpan` is not 0.
    static var copy: Int { @_noLocks get { 12 } }
    static var intRows: Int { @_noLocks get { 13 } }
}

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
    /// 1 while the voice plays, 0 from the sample frame after a non-looping sample's end (and in empty lanes).
    var alive = HalfLanes()
    /// Whether any of the four still sounds: every voice that does is filtered, wide open or not (as
    /// FluidSynth's are), so that a voice sounds the same whichever voices share its lanes (they change with
    /// where calls end). Four silent lanes (ended, or empty) skip it.
    var filtered = true
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
