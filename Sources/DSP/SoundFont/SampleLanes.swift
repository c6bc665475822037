// The per-block state of the sample-voice loop (Synth+SampleGroup.swift): four lanes' playing state, the
// font's sample data as the loop reads it, and the rows of control values a group computes per block.

typealias HalfLaneInts = SIMD4<Int32>

/// One envelope of eight sample voices over a call, moved on per block (SampleControlBlock.swift): its
/// value and its stage's ramp (`SampleEnvelope.ramp`: the step per sample, the bounds it stays between),
/// the samples left in a delay or hold (+infinity in the other stages), and the stage.
struct EnvelopeLanes {
    var value = Lanes(), step = Lanes(), low = Lanes(), high = Lanes(), wait = Lanes()
    /// `SampleEnvelope.stage`, changed by `SampleEnvelope.advance` only.
    var stage = LaneInts()
    @_noLocks init() {}
}

/// One LFO of eight sample voices over a call (`SampleLFO`): its phase, its phase step per sample, and the
/// samples left in its delay.
struct LFOLanes {
    var phase = Lanes(), increment = Lanes(), wait = Lanes()
    @_noLocks init() {}
}

/// A group's control values, eight lanes each (`SampleVoiceSlots.groups`, one per group of a slice): written
/// lane by lane as scalars (`rows.pointee.cents[l]`: one store into memory), read as vectors. Every field
/// is eight lanes of four bytes but the last, `offsets` (`clearLane` relies on it).
struct SampleGroupRows {
    // Per block: pitch, level and filter inputs and what the sample loop reads (`SampleLanes.startBlock`).
    var cents = Lanes(), centibels = Lanes(), filterCents = Lanes(), damping = Lanes(), envelope = Lanes()
    var panLeft = Lanes(), panRight = Lanes(), ratio = Lanes(), fadeStep = Lanes()
    var targetLeft = Lanes(), targetRight = Lanes(), b1 = Lanes(), b2 = Lanes(), b3 = Lanes()
    // Per call, not per block: the voices' state gathered into the lanes.
    var z1 = Lanes(), z2 = Lanes(), lastLeft = Lanes(), lastRight = Lanes(), alive = Lanes()
    // Per call: the voices' modulated parameters (`SampleVoice`), which change only between calls.
    var pitchCents = Lanes(), modLFOToPitch = Lanes(), vibLFOToPitch = Lanes(), modEnvToPitch = Lanes()
    var attenuation = Lanes(), modLFOToVolume = Lanes()
    var filterBase = Lanes(), modLFOToFilter = Lanes(), modEnvToFilter = Lanes()
    // Per block: the envelopes', LFOs' and glide's values, which `cents`, `centibels` and `filterCents` are
    // made of; `glideNow` is the glide a block plays (`glide` is where it is, moved on after).
    var modLFO = Lanes(), vibLFO = Lanes(), modEnv = Lanes(), glideNow = Lanes(), envelopeCentibels = Lanes()
    // Per call, moved on per block (SampleControlBlock.swift).
    var volumeEnvelope = EnvelopeLanes(), modulationEnvelope = EnvelopeLanes()
    var modulationLFO = LFOLanes(), vibratoLFO = LFOLanes()
    var glide = Lanes(), glideStep = Lanes()
    // Per call: a stolen voice's fade (moved on per block), the effect sends.
    var fade = Lanes(), reverbSend = Lanes(), chorusSend = Lanes()
    /// At the end of a call: the last block's level (`VoiceSlots.envelope`, for stealing).
    var level = Lanes()

    // Per call: the lanes' loop and positions (`SampleLanes`).
    var wrapAt = LaneInts(), loopLength = LaneInts(), stopAt = LaneInts(), whole = LaneInts(), part = LaneInts()
    var fastLimit = LaneInts(), position = LaneInts(), fraction = LaneInts(), lastIndex = LaneInts()
    /// The frames a lane's unrolled loop spans, 0 while it plays from the font's data (`unrollLane`).
    var unrolledSpan = LaneInts()
    /// The copy a lane's unrolled loop is played from (`unrollLane`), while `unrolledSpan` is not 0.
    var copy = LaneInts()
    /// The lanes' `SampleLanes.offset`.
    var offsets = SIMD8<Int>()

    @_noLocks init() {}

    /// How many rows of eight 4-byte lanes come before `offsets`.
    static var rowCount: Int {
        @_noLocks get { (MemoryLayout<SampleGroupRows>.size &- MemoryLayout<SIMD8<Int>>.size) / MemoryLayout<Lanes>.size }
    }

    /// Lane `l` of every row 0 (0.0 or the integer 0; an empty lane, `Synth.gatherSampleGroup`).
    @_noLocks @inline(__always)
    static func clearLane(_ rows: UnsafeMutablePointer<SampleGroupRows>, _ l: Int) {
        let bytes = UnsafeMutableRawPointer(rows)
        for r in 0..<rowCount { bytes.storeBytes(of: 0, toByteOffset: 4 &* (8 &* r &+ l), as: UInt32.self) }
    }
}

extension SIMD8 where Scalar == Float {
    /// The low (0) or high (1) four lanes.
    @_noLocks @inline(__always)
    func half(_ h: Int) -> HalfLanes { h == 0 ? lowHalf : highHalf }

    /// The low (0) or high (1) four lanes set to `x`.
    @_noLocks @inline(__always)
    mutating func setHalf(_ h: Int, _ x: HalfLanes) {
        if h == 0 { lowHalf = x } else { highHalf = x }
    }
}

extension SIMD8 where Scalar == Int32 {
    /// The low (0) or high (1) four lanes.
    @_noLocks @inline(__always)
    func half(_ h: Int) -> HalfLaneInts { h == 0 ? lowHalf : highHalf }

    /// The low (0) or high (1) four lanes set to `x`.
    @_noLocks @inline(__always)
    mutating func setHalf(_ h: Int, _ x: HalfLaneInts) {
        if h == 0 { lowHalf = x } else { highHalf = x }
    }
}

extension SIMD8 where Scalar == Int {
    /// The low (0) or high (1) four lanes.
    @_noLocks @inline(__always)
    func half(_ h: Int) -> SIMD4<Int> { h == 0 ? lowHalf : highHalf }
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
