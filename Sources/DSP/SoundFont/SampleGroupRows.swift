// A group of eight sample voices' state over a call (Synth+SampleGroup.swift), as named SIMD8 fields: what the
// voices' parameters are, where each plays in its sample, its envelopes and LFOs, and the values a block is
// made of. Written lane by lane as scalars (`rows.pointee.block.cents[l]`: one store into memory), read as
// vectors.

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
    /// Nonzero where the lane's LFO is a sine (`SampleLFO.isSine`).
    var sine = LaneInts()
    @_noLocks init() {}
}

/// The voices' modulated parameters (`SampleVoice`), gathered once a call: they change only between calls.
struct SampleParameterLanes {
    var pitchCents = Lanes(), modLFOToPitch = Lanes(), vibLFOToPitch = Lanes(), modEnvToPitch = Lanes()
    var attenuation = Lanes(), modLFOToVolume = Lanes()
    var filterBase = Lanes(), modLFOToFilter = Lanes(), modEnvToFilter = Lanes(), damping = Lanes()
    /// The filter's mix (`svfMixStep`): all 0 but `filterMixLow` 1 in a low-pass lane, all 0 in an empty one.
    var filterMixInput = Lanes(), filterMixBand = Lanes(), filterMixLow = Lanes()
    var panLeft = Lanes(), panRight = Lanes()
    /// The sample's rate over the output's, times the root key's pitch.
    var ratio = Lanes()
    var reverbSend = Lanes(), chorusSend = Lanes()
    @_noLocks init() {}
}

extension SampleParameterLanes {
    /// Lane `l`'s values for the whole call from its voice's modulated parameters, its sample's rate `ratio`,
    /// and its sends where the buses are on (`reverb`, `chorus`).
    @_noLocks @inline(__always)
    mutating func set(lane l: Int, _ m: SampleModulation, ratio rate: Float, reverb: Bool, chorus: Bool) {
        (pitchCents[l], modLFOToPitch[l], vibLFOToPitch[l], modEnvToPitch[l]) = (m.pitchCents, m.modLFOToPitch, m.vibLFOToPitch, m.modEnvToPitch)
        (attenuation[l], modLFOToVolume[l]) = (m.attenuation, m.modLFOToVolume)
        (filterBase[l], modLFOToFilter[l], modEnvToFilter[l], damping[l]) = (m.filterCents, m.modLFOToFilter, m.modEnvToFilter, m.filterDamping)
        (filterMixInput[l], filterMixBand[l], filterMixLow[l]) = (m.filterMixInput, m.filterMixBand, m.filterMixLow)
        (panLeft[l], panRight[l], ratio[l]) = (m.panLeft, m.panRight, rate)
        reverbSend[l] = reverb ? m.reverbSend : 0
        chorusSend[l] = chorus ? m.chorusSend : 0
    }
}

/// What moves from block to block: the envelopes, the LFOs and the glide (`glide` where it is, moved on
/// after each block by `glideStep`).
struct SampleControlLanes {
    var volumeEnvelope = EnvelopeLanes(), modulationEnvelope = EnvelopeLanes()
    var modulationLFO = LFOLanes(), vibratoLFO = LFOLanes()
    var glide = Lanes(), glideStep = Lanes()
    @_noLocks init() {}
}

/// The values one block is made of (`Synth.stepControls`, then `renderSampleGroup`): the LFOs', the
/// modulation envelope's and the glide's values (`glideNow`: the glide the block plays), the volume
/// envelope as a level and as centibels, the pitch, attenuation and cutoff they make, and what the sample
/// loop reads (`SampleLanes.startBlock`): the levels to reach and the filter's coefficients.
struct SampleBlockLanes {
    var modLFO = Lanes(), vibLFO = Lanes(), modEnv = Lanes(), glideNow = Lanes()
    var envelope = Lanes(), envelopeCentibels = Lanes()
    var cents = Lanes(), centibels = Lanes(), filterCents = Lanes()
    var targetLeft = Lanes(), targetRight = Lanes(), b1 = Lanes(), b2 = Lanes(), b3 = Lanes()
    @_noLocks init() {}
}

/// The lanes' sound between calls: the filter's state, the last levels, whether the sample still plays, a
/// stolen voice's fade (moved on per block by `fadeStep`), and the last block's level (`VoiceSlots.envelope`,
/// for stealing).
struct SampleOutputLanes {
    var z1 = Lanes(), z2 = Lanes(), lastLeft = Lanes(), lastRight = Lanes(), alive = Lanes()
    var fade = Lanes(), fadeStep = Lanes(), level = Lanes()
    @_noLocks init() {}
}

/// Where each lane plays in its sample (`SampleLanes`): its position and increment in 32.32 fixed point,
/// its loop and end.
struct SamplePlayLanes {
    var position = LaneInts(), fraction = LaneInts(), whole = LaneInts(), part = LaneInts()
    var wrapAt = LaneInts(), loopLength = LaneInts(), stopAt = LaneInts(), fastLimit = LaneInts(), lastIndex = LaneInts()
    /// The frames a lane's unrolled loop spans, 0 while it plays from the font's data (`unrollLane`).
    var unrolledSpan = LaneInts()
    /// The copy a lane's unrolled loop is played from (`unrollLane`), while `unrolledSpan` is not 0.
    var copy = LaneInts()
    /// Each lane's sample's first frame (`SamplePlayback.first`).
    var first = LaneInts()
    /// The lanes' `SampleLanes.offset`: the one field not of eight 4-byte lanes, last of all
    /// (`SampleGroupRows.clearLane` relies on it).
    var offsets = SIMD8<Int>()
    @_noLocks init() {}
}

/// A group's state over a call (`SampleVoiceSlots.groups`, one per group of a slice). Every field of its
/// parts is eight lanes of four bytes but the last, `play.offsets`.
struct SampleGroupRows {
    var parameters = SampleParameterLanes()
    var controls = SampleControlLanes()
    var block = SampleBlockLanes()
    var output = SampleOutputLanes()
    var play = SamplePlayLanes()

    @_noLocks init() {}

    /// How many rows of eight 4-byte lanes come before `play.offsets`.
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
    /// The low (0) or high (1) four lanes (the float lanes' selection, on the same bits).
    @_noLocks @inline(__always)
    func half(_ h: Int) -> HalfLaneInts { unsafeBitCast(unsafeBitCast(self, to: Lanes.self).half(h), to: HalfLaneInts.self) }

    /// The low (0) or high (1) four lanes set to `x`.
    @_noLocks @inline(__always)
    mutating func setHalf(_ h: Int, _ x: HalfLaneInts) {
        var floats = unsafeBitCast(self, to: Lanes.self)
        floats.setHalf(h, unsafeBitCast(x, to: HalfLanes.self))
        self = unsafeBitCast(floats, to: LaneInts.self)
    }
}

extension SIMD8 where Scalar == Int {
    /// The low (0) or high (1) four lanes.
    @_noLocks @inline(__always)
    func half(_ h: Int) -> SIMD4<Int> { h == 0 ? lowHalf : highHalf }
}
