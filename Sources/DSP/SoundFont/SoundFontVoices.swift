import Synchronization

/// The SoundFont's sample voices, one of the synth's kinds of voice (beside `BuiltInVoices` and
/// `DrumVoices`): the font's tables as the real-time thread reads them, one `SampleVoice` per slot and the
/// groups' rows, each channel's preset exchange with other threads, and the lane cache's switches. Without a
/// font its tables are empty and it has one slot.
struct SoundFontVoices: ~Copyable {
    // The font's part: made again, off the real-time thread, when an instrument changes live and put in by the
    // real-time thread between two slices (Synth+FontChange.swift).

    /// Whether a font with presets is loaded.
    var hasFont: Bool
    /// The channels whose notes start this kind's voices, one bit each (`Synth.noteKind`): all 16 with a font,
    /// or those SFZ instruments are pinned to when no SoundFont plays the others (`SoundFont.playedChannels`).
    var channels: UInt16
    /// The font without reference counting, for the real-time thread's preset lookup.
    var fontReference: Unmanaged<SoundFont>?
    /// The font's tables as plain buffers the real-time thread reads.
    var font: SoundFontTables
    /// One `SampleVoice` per slot, the groups' rows, the loop copies.
    var slots: SampleVoiceSlots
    /// Each channel's preset playing, published for any thread, and the one the UI asked for.
    let presetExchange: PresetExchange
    /// Channels whose controllers changed since the last slice (bit per channel).
    var dirty: UInt16 = 0
    /// What the zones' note-on rules read and move (Synth+SampleZoneRules.swift), and the random numbers'
    /// state (`lorand`/`hirand`: one number per note).
    var ruleState: SampleZoneRuleState
    var randomState: UInt32 = 0x2545_F491
    /// Whether groups are kept in their rows between slices (Synth+SampleLaneCache.swift; off for the tests'
    /// reference), and how many slices' groups were rendered from kept rows.
    var keepsGroups = true
    var keptRenders = 0
    /// Sample groups eight lanes wide on a path that plays them four wide (AVX2, portable), for the tests that
    /// hold every compile of the eight-lane loop to the same samples; and how many blocks played so.
    var forcesEightLanes = false
    var wideBlocks = 0
    /// Whether the voices play with the sinc (`SampleInterpolation`), taken at each slice's start from the
    /// one asked for from any thread (`Synth.setInterpolation`).
    var sincOn = false
    let interpolationRequest = Atomic<Int>(SampleInterpolation.cubic.rawValue)
    /// The sinc's kernels (`SincKernels.shared`, about 4 MB), built by the first `Synth.setInterpolation(.sinc)`
    /// of the process on its caller's thread and published here; the real-time thread takes them into `sinc` at
    /// a slice's start. A synth that never plays the sinc never builds them.
    let sincKernels = Atomic<UnsafeRawPointer?>(nil)
    var sinc: SincKernels?
    /// A live change of instrument asked for by another thread (`Synth.changeFont`), and the one the real-time
    /// thread is applying (its old instrument's voices fading).
    let changeRequest = Atomic<UnsafeMutableRawPointer?>(nil)
    var change: UnsafeMutableRawPointer?
    /// The presets the real-time thread plays, for other threads' checks (`requestPreset`).
    let presetLimit: Atomic<Int>
    /// The font the synth plays (`Synth.soundFont`) and the change under way, for other threads.
    let owner: Mutex<FontOwner>

    // No stored property is read before all are set (BuiltInVoices.init says why).
    /// `layerRoom`: the stack layers the slots are made for, at least the font's (a synth that may change
    /// instrument live makes room for `SoundFont.maxLayers`).
    init(_ soundFont: SoundFont?, slots count: Int, layerRoom: Int = 0) {
        let tables = SoundFontTables(soundFont)
        let presets = tables.presetCount, playable = presets > 0, layers = tables.layerCount
        let ruledZones = tables.rules == nil ? 0 : tables.zones.count
        // A synth that may change instrument live keeps its slots, loop copies included (Synth+FontChange.swift):
        // it makes them whatever its first font needs.
        let loopCopies = playable && (layerRoom > 0 || LoopCopies.needed(by: tables))
        font = tables
        hasFont = playable
        channels = playable ? (soundFont?.playedChannels ?? 0xFFFF) : 0
        fontReference = soundFont.map { Unmanaged.passUnretained($0) }
        slots = SampleVoiceSlots(count: playable ? count : 1, layers: playable ? max(layers, layerRoom) : layers, sincScratch: playable,
                                 loopCopies: loopCopies)
        owner = Mutex(FontOwner(font: soundFont))
        presetLimit = Atomic(presets)
        presetExchange = PresetExchange()
        ruleState = SampleZoneRuleState(zones: ruledZones, slots: ruledZones == 0 ? 1 : count)
    }
}

/// The font a synth plays, as other threads see it, and the live change of instrument under way.
struct FontOwner {
    var font: SoundFont?
    var pending: FontChange?
}

extension SoundFontVoices {
    /// Whether notes on channel `ch` start sample voices.
    @_noLocks @inline(__always)
    func plays(_ ch: Int) -> Bool { channels & (1 << UInt16(ch)) != 0 }
}
