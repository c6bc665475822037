import Synchronization

/// The built-in synth's wavetable voices, one of the synth's kinds of voice (the drum kit's are `DrumVoices`,
/// the SoundFont's `SoundFontVoices`): the built-in patches and their parameters, each patch's per-slice
/// state, the shared wavetables, and the lane cache that keeps steady groups from one slice to the next. The
/// per-slot state every kind of voice has is in `VoiceSlots`, the wavetable voices' own in `slots`.
struct BuiltInVoices: ~Copyable {
    /// The built-in patches' values, for program change on the real-time thread.
    let patches: PatchTable
    /// Per patch, its values smoothed toward their targets and what the slice works out for its voices
    /// (real-time thread only).
    let patchStates: PatchStates
    /// Float bit patterns written by any thread, read once per slice: each built-in patch's values (patch
    /// `p`'s parameter `i` at `p * patchParameterCount + i`, up to `patchCapacity` patches).
    let parameters: InlineArray<1536, Atomic<UInt32>>
    /// The patch last chosen on any channel, the one `Synth.setParameter` edits.
    let patchIndex: Atomic<Int>
    /// Each channel's built-in patch, that of its last program change (written on the real-time thread).
    let channelPatches: InlineArray<16, Atomic<Int>>
    /// The built-in patches the last slice's voices played, one bit each (Synth+Rendering.swift).
    var patchesInUse = PatchSet()
    /// The band-limited tables every synth shares (read-only).
    let wavetables: WavetableLookup
    /// Steady voice groups' lanes kept between slices (Synth+LaneCache.swift).
    var laneCache: LaneCache
    /// The wavetable voices' own per-slot state.
    let slots: WavetableSlots

    // The init reads no stored property before all are set: with the atomics this struct is address-only,
    // and Swift 6.3 builds such a read of a half-made `~Copyable` struct into a wild pointer.
    /// `tables` false: a synth whose sample voices play every channel (`WavetableBank.silent`).
    init(slots: Int, tables: Bool = true) {
        let table = PatchTable(SynthPatch.builtIn)
        let count = table.count
        precondition(count <= patchCapacity, "Synth: more built-in patches than the parameter table holds")
        patches = table
        patchStates = PatchStates(count: count)
        parameters = InlineArray { _ in Atomic(0) }
        patchIndex = Atomic(0)
        channelPatches = InlineArray { _ in Atomic(0) }
        wavetables = WavetableLookup(tables ? WavetableBank.shared : WavetableBank.silent)
        laneCache = LaneCache(slots: slots, patches: count)
        self.slots = WavetableSlots(count: slots)
    }
}

/// What the synth mixes its voices into and with: the per-period scratch (lane sums, channel gains and pitch),
/// the send effects and their settings, and the master gain.
struct SynthMix: ~Copyable {
    /// Per-period buffers (allocated by `Synth.prepare`).
    var scratch: RenderScratch
    /// The reverb and chorus buses (made by `Synth.prepare`), and their settings from any thread.
    var effects: EffectBuses
    let effectControls: EffectControls
    /// The master gain parameter's float bits (any thread), smoothed per sample into `masterLinear`.
    let masterGainBits: Atomic<UInt32>
    var masterLinear: Float = 1
    /// The Master Volume a sysex set, 0...1, on top of the master gain (Synth+SystemExclusive.swift).
    var masterVolume: Float = 1
    /// The per-channel outputs (ChannelOutputs.swift): off (nothing allocated) unless asked for.
    var outputs = ChannelOutputs()

    init(frames: Int, sampleRate: Double, patches: Int) {
        scratch = RenderScratch(frames: frames, channels: channelCount, patches: patches)
        effects = EffectBuses(frames: frames, sampleRate: sampleRate)
        effectControls = EffectControls()
        masterGainBits = Atomic(0)
    }
}

/// What `Synth.prepare` works out from the sample rate and the period size.
struct RenderRates: BitwiseCopyable {
    /// 0 before `prepare`.
    var sampleRate: Double = 0
    /// `render` splits longer requests into slices of this size; 0 before `prepare`.
    var maxFrames = 0
    var inverseRate: Float = 0
    /// The one-pole coefficient of every smoothing (~5 ms).
    var smoothing: Float = 1
    /// The vibrato LFO's phase step.
    var lfoIncrement: Float = 0
    /// All sound off's fade per sample.
    var soundOffFadeStep: Float = 1
}

/// Counters any thread reads.
struct SynthCounters: ~Copyable {
    /// Voices sounding, as the last call left them.
    let published: Atomic<Int>
    /// Sysex messages `handle(sysex:)` did not act on (Synth+SystemExclusive.swift).
    let ignoredSysex: Atomic<Int>

    init() {
        published = Atomic(0)
        ignoredSysex = Atomic(0)
    }
}
