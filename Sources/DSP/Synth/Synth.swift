import MIDI
import Synchronization

// The synth, in the shape of surge's QuadFilterChain and AudioKitEX's DSPBase: `init` and `prepare` allocate
// everything, `handle` and `render` only touch what they made, on one real-time thread, `@_noLocks`.
//
// The files of this folder, in the order a sample is made:
// - Synth.swift (here): the public type, its stored state, `prepare`, parameters through atomics. Its parts:
//   `PatchTable` (SynthPatch.swift: the built-in patches' values for program change), `PatchStates`
//   (SynthParameter.swift: each patch's values as smoothed per sample and what a slice works out for its
//   voices), `WavetableLookup` (WavetableBank.swift: the shared bank's table pointers the voices read).
// - FixedArray.swift: the `~Copyable` array each of the values below keeps its memory in; it frees it in `deinit`.
// - VoiceSlots (control state apart from render state), ChannelControls, RenderScratch: the arrays.
// - Synth+Channels.swift: MIDI in. Notes go to voice allocation; controllers, bend and the pedal change
//   `ChannelControls`; RPN/NRPN data entry is decoded by the MIDI module's `ParameterNumberDecoder`.
// - VoiceAllocator.swift: the one allocation policy of both kinds of voice: the slot a note takes,
//   stealing (a stolen voice fades out in its own slot; a voice not yet heard is never stolen), fades,
//   freeing, exclusive classes.
// - Synth+VoiceAllocation.swift: a built-in note-on through the allocator, note-off, the pedal.
// - Synth+Rendering.swift: per slice, smoothing of each patch's parameters, per-channel pitch (the vibrato's
//   VibratoLFO.swift: one channel's sine LFO, `process` one sample, SampleLFO's counterpart) and gains, the
//   sorting of voices into groups of eight of one patch each, the mix and its soft clipper.
// - Synth+VoiceGroup.swift: one group of eight voices: envelopes (LaneEnvelope.swift: eight voices' stages
//   and levels, `process` one sample, the built-in voice's counterpart of SampleEnvelope), then (moving
//   groups) the filter coefficients of CoefficientPlan.swift (exact every 8 samples, linear between), then
//   the oscillator-and-filter loops of VoiceLanes.swift.
// - Synth+LaneCache.swift, LaneCache.swift: steady groups keep their lanes from one call to the next and
//   are gathered afresh only when their voices or what their lanes were computed from change.
// - VoiceLanes.swift, StateVariableFilter.swift: the per-sample math on SIMD lanes; the one SVF step.
// - WavetableBank.swift: the band-limited tables every synth shares.
// The sample player (Sources/DSP/SoundFont/) keeps this split: its own voice arrays (SampleVoiceSlots) and
// group renderer, sharing the channel state, the allocator and the mix.

/// A polyphonic subtractive synth driven by MIDI: band-limited wavetable oscillator, amplitude ADSR that also
/// opens a resonant state-variable low-pass, velocity, pitch bend (RPN 0 range), vibrato (CC1), volume,
/// expression, equal-power pan, sustain pedal and the channel-mode messages, on all 16 channels (omni) or one.
///
/// Each channel plays its own built-in patch, the one of its last program change (`SynthPatch.generalMIDI`);
/// a note keeps the patch it started with to the end of its release. The sound parameters
/// (`setParameter`, `value(of:)`) are those of `currentPatch`, the patch last chosen on any channel: an edit
/// changes that patch for every channel playing it, sounding notes included. Master gain is global.
///
/// Threads: `init` and `prepare` allocate (never on the real-time thread). `handle` and `render` belong to one
/// real-time thread and are `@_noLocks`. `setParameter`, `value(of:)`, `activeVoiceCount` and `currentPatch`
/// may be used from any thread: they go through atomics.
///
/// Voice state is struct-of-arrays in memory this object's stores own. There are `2 * voiceCapacity` slots: a
/// stolen voice fades out over 3 ms in its own slot while the new note starts at once in a free one, so
/// stealing neither clicks nor delays the new note. `render` processes the sounding voices eight at a time,
/// one per lane of SIMD8 vectors (VoiceLanes.swift); voices whose envelope has settled get their filter
/// coefficients once per period, moving ones every 8 samples with linear steps between (exact per sample
/// where the cutoff moves fast).
public final class Synth: @unchecked Sendable {
    /// The largest `voiceCapacity`: every key of all 16 channels twice over (release tails included).
    public static var maximumVoices: Int { 4096 }
    /// The polyphony when none is asked for (`--voices`, the config's `voices`): FluidSynth's 256, room for
    /// stereo SoundFont presets (two voices a note) with their release tails.
    public static var defaultVoices: Int { 256 }
    /// The number of notes that can sound at once (1...`maximumVoices`).
    public var voiceCapacity: Int { allocator.capacity }
    /// The only channel (0...15) this synth answers, or nil for omni.
    public let channel: UInt8?

    /// Voices sounding (attack to end of release), stolen voices fading out not counted. Any thread.
    public var activeVoiceCount: Int {
        @_noLocks get { counters.published.load(ordering: .relaxed) }
    }
    /// The built-in patch last chosen, on any channel (index into `SynthPatch.builtIn`): the one whose values
    /// `setParameter` and `value(of:)` edit and read. Any thread.
    public var currentPatch: Int {
        @_noLocks get { builtIn.patchIndex.load(ordering: .relaxed) }
    }
    /// The built-in patch channel `channel` (0...15) plays, that of its last program change (index into
    /// `SynthPatch.builtIn`). Any thread.
    @_noLocks
    public func patch(onChannel channel: Int) -> Int {
        builtIn.channelPatches[channel & 0x0F].load(ordering: .relaxed)
    }
    /// The SoundFont this synth plays, or nil: the built-in patches. Set at `init`, then by a finished live
    /// change of instrument (`changeFont`, `finishFontChange`). Any thread.
    public var soundFont: SoundFont? { samples.owner.withLock { $0.font } }
    /// Sample rate given to `prepare`, 0 before.
    public var sampleRate: Double { @_noLocks get { rates.sampleRate } }
    /// Period size given to `prepare`; `render` splits longer requests into slices of this size.
    public var maxFrames: Int { @_noLocks get { rates.maxFrames } }
    /// The Master Volume a sysex set, 0...1, on top of the master gain parameter (Synth+SystemExclusive.swift).
    public internal(set) var masterVolume: Float {
        @_noLocks get { mix.masterVolume }
        @_noLocks set { mix.masterVolume = newValue }
    }

    // MARK: The control part: slots, channels, the allocator

    /// Which slot a note takes, stealing, fades and exclusive classes, for every kind of voice.
    var allocator: VoiceAllocator
    /// `2 * voiceCapacity` slots: what every voice has (stage, channel, key, fades), and the built-in voices'
    /// render state.
    let voices: VoiceSlots
    /// 16 channels' controller state (inline), their raw controller values, and the tuning tables.
    @exclusivity(unchecked) var controls: ChannelControls
    /// RPN/NRPN selection and data entry of every channel (a value: no allocation).
    var parameterNumbers = ParameterNumberDecoder()

    // MARK: The kinds of voice, each its own state (the render side)

    /// The built-in patches' wavetable voices (Synth+VoiceGroup.swift, Synth+LaneCache.swift).
    @exclusivity(unchecked) var builtIn: BuiltInVoices
    /// The built-in drum kit's voices (Synth+Drums.swift): one slot's worth only with a font.
    let drums: DrumVoices
    /// The SoundFont's sample voices (Sources/DSP/SoundFont/): empty tables and one slot without a font.
    @exclusivity(unchecked) var samples: SoundFontVoices

    // MARK: The mix, the rates, the loops
    // The `var`s marked `@exclusivity(unchecked)` here and above are touched by the rendering thread alone once
    // the synth is prepared: Swift's dynamic exclusivity checks on them cost calls in every slice.

    /// Scratch, send effects, master gain (made again by `prepare`).
    @exclusivity(unchecked) var mix: SynthMix
    @exclusivity(unchecked) var rates = RenderRates()
    let counters = SynthCounters()
    /// Whether groups play eight lanes wide (WideLoops.swift: sample voices, and kept steady groups of
    /// built-in voices), and with which compilation of the loops (`VoiceLoopPath`, one this CPU runs). Tests
    /// and benchmarks set them to compare; the samples are the same whatever they say.
    @exclusivity(unchecked) var playsWideLoops = true
    @exclusivity(unchecked) public var voiceLoops: VoiceLoopPath = VoiceLoopPath.chosen.path {
        didSet { if !VoiceLoopPath.supported.contains(voiceLoops) { voiceLoops = VoiceLoopPath.fastest } }
    }

    /// A voice slot's stage, the values stored in `VoiceSlots.stage`.
    enum Stage {
        static var free: UInt8 { @_noLocks get { 0 } }
        static var attack: UInt8 { @_noLocks get { 1 } }
        static var decay: UInt8 { @_noLocks get { 2 } }
        static var release: UInt8 { @_noLocks get { 3 } }
    }

    /// How a group of eight voices is rendered: `steady` (coefficients, levels and pitch constant over the
    /// slice), `gliding` (the same, but the channel's pitch moves: vibrato), `moving` (all per sample).
    enum GroupKind { case steady, gliding, moving }

    /// Creates a synth; call `prepare` before rendering.
    /// - Parameters:
    ///   - voices: notes that can sound at once, clamped to 1...`maximumVoices` (default 256, FluidSynth's:
    ///     a stereo SoundFont preset takes two voices a note, and release tails hold theirs).
    ///   - patch: index of the initial built-in patch (modulo the count); by default General MIDI program 0's
    ///     (`SynthPatch.defaultPatch`, piano), what a file that selects no program plays.
    ///   - channel: the one MIDI channel (0...15) to answer, or nil for all (omni).
    ///   - soundFont: a loaded font to play instead of the built-in patches: notes start its sample voices,
    ///     program changes and bank selects choose its presets (channel 10 the percussion bank).
    ///   - liveChanges: whether the font may change while the synth plays (`changeFont`): its voices are made
    ///     with room for a stack of `maximumLayers`.
    public init(voices: Int = Synth.defaultVoices, patch: Int = SynthPatch.defaultPatch, channel: UInt8? = nil, soundFont: SoundFont? = nil,
                liveChanges: Bool = false) {
        allocator = VoiceAllocator(capacity: min(max(voices, 1), Synth.maximumVoices))
        let slotCount = allocator.slotCount
        self.channel = channel.map { $0 & 0x0F }
        self.voices = VoiceSlots(count: slotCount)
        controls = ChannelControls()
        samples = SoundFontVoices(soundFont, slots: slotCount, layerRoom: liveChanges ? Synth.maximumLayers : 0)
        // Where the sample voices play every channel, no built-in or drum voice sounds: neither's tables are made.
        builtIn = BuiltInVoices(slots: slotCount, tables: samples.channels != 0xFFFF)
        drums = DrumVoices(count: samples.channels == 0xFFFF ? 1 : slotCount)
        mix = SynthMix(frames: 1, sampleRate: 44_100, patches: builtIn.patches.count)

        for p in 0..<builtIn.patches.count { loadPatch(p) }
        selectPatch(patch, channel: nil)
        resetFontChannels()
        for c in 0..<channelCount {
            controls.channels[c].levels.gainLeft = targetLeft(c)
            controls.channels[c].levels.gainRight = targetRight(c)
        }
    }

    /// Allocates the per-period buffers for `maxFrames` and sets the sample rate. Not real-time safe; call it
    /// before the first `render` (again to change either). Silences every voice.
    public func prepare(sampleRate: Double, maxFrames: Int) {
        let frames = max(maxFrames, 1)
        mix.scratch = RenderScratch(frames: frames, channels: channelCount, patches: builtIn.patches.count)
        mix.effects = EffectBuses(frames: frames, sampleRate: sampleRate)
        if mix.outputs.isOn { mix.outputs = ChannelOutputs(frames: frames) }

        rates.sampleRate = sampleRate
        rates.maxFrames = frames
        rates.inverseRate = Float(1 / sampleRate)
        // One-pole smoothing with a 5 ms time constant: 1 - e^(-1 / (0.005 fs)).
        rates.smoothing = Float(1 - FastMath.exp2(-1.442_695_040_888_963 / (0.005 * sampleRate)))
        rates.lfoIncrement = Float(5.5 / sampleRate)
        allocator.stealFadeStep = Float(1 / (stealFadeSeconds * sampleRate))
        rates.soundOffFadeStep = Float(1 / (soundOffFadeSeconds * sampleRate))
        allocator.reset(voices)
        builtIn.laneCache.reset()
        forgetSampleGroups()
        resetFontChannels()
        let states = builtIn.patchStates.state
        for p in 0..<builtIn.patches.count {
            states[p].cutoffOctaves = FastMath.log2(parameter(.cutoff, patch: p))
            states[p].resonanceK = damping(resonance: parameter(.resonance, patch: p))
            states[p].envelopeOctaves = parameter(.filterEnvelopeAmount, patch: p)
            states[p].voices = 0
        }
        mix.masterLinear = FastMath.linear(decibels: parameter(.masterGain))
        builtIn.patchesInUse = PatchSet()
        counters.published.store(0, ordering: .relaxed)
    }

    // MARK: Parameters

    /// Sets a sound parameter (clamped to its range) from any thread; continuous ones glide over ~5 ms. All but
    /// master gain are `currentPatch`'s: every channel playing that patch hears the change.
    @_noLocks
    public func setParameter(_ parameter: SynthParameter, _ value: Float) {
        setParameter(parameter, value, patch: currentPatch)
    }

    /// The value a parameter of `currentPatch` was last set to (by `setParameter` or a program change). Any thread.
    @_noLocks
    public func value(of parameter: SynthParameter) -> Float {
        self.parameter(parameter, patch: currentPatch)
    }

    @_noLocks
    func setParameter(_ parameter: SynthParameter, _ value: Float, patch: Int) {
        let (lower, upper) = parameter.bounds
        let clamped = value.isNaN ? lower : min(max(value, lower), upper)
        if parameter.index == SynthParameter.masterGain.index {
            mix.masterGainBits.store(clamped.bitPattern, ordering: .relaxed)
        } else {
            builtIn.parameters[patch &* patchParameterCount &+ parameter.index].store(clamped.bitPattern, ordering: .relaxed)
        }
    }

    /// Patch `patch`'s value of `parameter` (master gain: the global one).
    @_noLocks @inline(__always)
    func parameter(_ parameter: SynthParameter, patch: Int) -> Float {
        if parameter.index == SynthParameter.masterGain.index {
            return Float(bitPattern: mix.masterGainBits.load(ordering: .relaxed))
        }
        return Float(bitPattern: builtIn.parameters[patch &* patchParameterCount &+ parameter.index].load(ordering: .relaxed))
    }

    /// The global master gain (the one parameter no patch holds).
    @_noLocks @inline(__always)
    func parameter(_ parameter: SynthParameter) -> Float {
        self.parameter(parameter, patch: 0)
    }

    /// Patch `patch`'s parameters back to its built-in values.
    @_noLocks
    func loadPatch(_ patch: Int) {
        let v = builtIn.patches.values[patch].values
        setParameter(.waveform, v.0, patch: patch)
        setParameter(.attack, v.1, patch: patch)
        setParameter(.decay, v.2, patch: patch)
        setParameter(.sustain, v.3, patch: patch)
        setParameter(.release, v.4, patch: patch)
        setParameter(.cutoff, v.5, patch: patch)
        setParameter(.resonance, v.6, patch: patch)
        setParameter(.filterEnvelopeAmount, v.7, patch: patch)
    }

    /// Program change's built-in side: channel `ch` (every channel when nil) plays built-in patch `patch`
    /// (modulo the count) from its next note on; the patch's values are its built-in ones again and it becomes
    /// `currentPatch`. Notes sounding keep the patch they started with.
    @_noLocks
    func selectPatch(_ patch: Int, channel ch: Int?) {
        let count = builtIn.patches.count
        let index = ((patch % count) + count) % count
        loadPatch(index)
        if let ch {
            builtIn.channelPatches[ch].store(index, ordering: .relaxed)
        } else {
            for c in 0..<channelCount { builtIn.channelPatches[c].store(index, ordering: .relaxed) }
        }
        builtIn.patchIndex.store(index, ordering: .relaxed)
    }

}

/// Built-in patches the parameter atomics hold (`Synth.parameters`), and the parameters each holds (all but
/// master gain).
var patchCapacity: Int { @_noLocks get { 192 } }
var patchParameterCount: Int { @_noLocks get { 8 } }
