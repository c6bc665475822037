import Realtime
import Synchronization

// A live change of instrument (docs/sfz.md, "Changing instrument live"): the preset browser loads an SFZ
// instrument for one channel while every channel plays on. The new font is the old stack with the instrument
// added on top (`SoundFont.changingInstrument`, SoundFont+InstrumentChange.swift), so every zone, sample,
// preset and layer index a sounding voice holds means the same in both; the instrument the channel played, when
// no other channel plays it, stays in the stack hollow (its tables without its samples). Everything the
// real-time thread will read is made on the caller's thread (`changeFont`); the real-time thread, at a slice's
// start, first fades the voices of the instrument being let go (the synth's 3 ms steal fade) and, once none
// sounds, swaps the new tables in and hands the old ones back in the same parts, which the caller's thread frees
// (`FontChange`). Nothing is allocated, freed, retained or released on the real-time thread.

/// What one change puts into the synth, and after it what it took out (the real-time thread swaps the two).
struct FontChangeParts: ~Copyable {
    var tables: SoundFontTables
    var ruleState: SampleZoneRuleState
    /// New slots when the synth had only the placeholder slot of a synth without a font (no sample voice can
    /// sound then); else one placeholder slot, not swapped.
    var slots: SampleVoiceSlots
    let replacesSlots: Bool
    /// The new font, owned by the `FontChange` (the real-time thread never counts references).
    let reference: Unmanaged<SoundFont>
    let channels: UInt16
    let presets: Int
    /// One byte per layer: 1 where the layer's voices end before the change (its samples are let go).
    let ending: FixedArray<UInt8>
    /// The channel whose instrument changes (its preset and `set_ccN` values are taken again), -1 for all.
    let channel: Int
    /// Set by the real-time thread once the change is in.
    let applied = Atomic<Bool>(false)
}

/// A live change of instrument handed to the synth (`Synth.changeFont`): it owns the new font until the synth
/// plays it and the old one until the synth has let it go. Keep it until `isApplied`, then give it to
/// `Synth.finishFontChange`; dropping it sooner is safe only if the synth is gone.
public final class FontChange: @unchecked Sendable {
    let parts: UnsafeMutablePointer<FontChangeParts>
    /// The font the synth plays once the change is in, and the one it played before.
    public let font: SoundFont
    let previous: SoundFont?

    init(parts: consuming FontChangeParts, font: SoundFont, previous: SoundFont?) {
        self.parts = UnsafeMutablePointer<FontChangeParts>.allocate(capacity: 1)
        self.parts.initialize(to: parts)
        self.font = font
        self.previous = previous
    }

    /// Whether the real-time thread has put the change in (then the old font's voices are gone). Any thread.
    public var isApplied: Bool { parts.pointee.applied.load(ordering: .acquiring) }

    deinit {
        parts.deinitialize(count: 1)
        parts.deallocate()
    }
}

extension Synth {
    /// The most fonts and instruments a synth's stack may reach by live changes (each change adds a layer).
    public static var maximumLayers: Int { SoundFont.maxLayers }

    /// Asks the synth to play `font` from its next slice, ending first (3 ms fades) the voices of the stack
    /// layers `ending`: `font` must be the synth's font with layers added on top (`SoundFont.changingInstrument`),
    /// so that the voices of the other layers play on unchanged. `channel` (0...15, nil for all) takes its
    /// pinned preset and its `set_ccN` values again. Any thread but the real-time one; returns nil while another
    /// change is under way, or when the font does not fit the synth (a stack over `maximumLayers`, or fewer
    /// layers than the synth's font). Keep the result until `isApplied`, then call `finishFontChange`.
    public func changeFont(to font: SoundFont, channel: Int?, ending layers: [Int]) -> FontChange? {
        let previous = soundFont
        let oldLayers = previous?.stack.count ?? 0, newLayers = font.stack.count
        guard newLayers >= oldLayers, newLayers <= samples.slots.layerCapacity || !samples.hasFont else { return nil }
        guard samples.changeRequest.load(ordering: .acquiring) == nil, samples.owner.withLock({ $0.pending == nil }) else { return nil }
        let tables = SoundFontTables(font)
        let presets = tables.presetCount
        let ruled = tables.rules == nil ? 0 : tables.zones.count
        let slotCount = allocator.slotCount
        let replacesSlots = !samples.hasFont && presets > 0
        let ending = FixedArray(SoundFont.maxLayers + 1, 0 as UInt8)
        for layer in layers where layer >= 0 && layer < ending.count { ending[layer] = 1 }
        let parts = FontChangeParts(
            tables: tables, ruleState: SampleZoneRuleState(zones: ruled, slots: slotCount),
            slots: SampleVoiceSlots(count: replacesSlots ? slotCount : 1, layers: replacesSlots ? SoundFont.maxLayers : 1, sincScratch: replacesSlots,
                                    loopCopies: replacesSlots),
            replacesSlots: replacesSlots, reference: Unmanaged.passUnretained(font),
            channels: presets > 0 ? font.playedChannels : 0, presets: presets, ending: ending, channel: channel.map { $0 & 0x0F } ?? -1)
        let change = FontChange(parts: parts, font: font, previous: previous)
        if interpolation == .sinc { samples.sincKernels.store(SincKernels.sharedAddress, ordering: .releasing) }
        samples.owner.withLock { $0.pending = change }
        samples.changeRequest.store(UnsafeMutableRawPointer(change.parts), ordering: .releasing)
        return change
    }

    /// After `change.isApplied`: the synth's `soundFont` becomes the new font, and the old font and tables are
    /// let go here (the caller's thread). Returns false, and does nothing, before the change is in.
    @discardableResult
    public func finishFontChange(_ change: FontChange) -> Bool {
        guard change.isApplied else { return false }
        samples.owner.withLock {
            if $0.pending === change { $0.pending = nil }
            $0.font = change.font
        }
        return true
    }

    /// At a slice's start: a change asked for is taken; while a layer it lets go has voices, they fade and the
    /// change waits; then the new tables go in.
    @_noLocks
    func takeFontChange() {
        if samples.change == nil {
            guard let asked = samples.changeRequest.exchange(nil, ordering: .acquiring) else { return }
            samples.change = asked
        }
        guard let raw = samples.change else { return }
        let parts = raw.assumingMemoryBound(to: FontChangeParts.self)
        // A kept group holds its voices' fades in its rows: written back first, so the fades below are played.
        flushSampleGroups()
        let stages = voices.stage, kinds = voices.kind, ending = parts.pointee.ending.baseAddress
        var fading = 0
        for v in 0..<slotLimit where stages[v] != Stage.free {
            if kinds[v] != VoiceKind.sample { continue }
            if ending[Int(samples.slots.state[v].layer)] == 0 { continue }
            allocator.startFade(voices, v, step: allocator.stealFadeStep)
            fading += 1
        }
        if fading > 0 { return }
        parts.pointee.ruleState.carry(from: samples.ruleState)
        swap(&samples.ruleState, &parts.pointee.ruleState)
        swap(&samples.font, &parts.pointee.tables)
        if parts.pointee.replacesSlots { swap(&samples.slots, &parts.pointee.slots) }
        samples.fontReference = parts.pointee.reference
        samples.channels = parts.pointee.channels
        samples.hasFont = parts.pointee.presets > 0
        samples.presetLimit.store(parts.pointee.presets, ordering: .relaxed)
        let channel = parts.pointee.channel
        for ch in 0..<channelCount {
            if channel >= 0 { if ch != channel { continue } }
            selectFontPreset(ch)
            setPinnedControllers(ch)
        }
        samples.change = nil
        parts.pointee.applied.store(true, ordering: .releasing)
    }
}

extension SampleZoneRuleState {
    /// What `old` holds, where this state has room for it: a live change of instrument keeps the round robins'
    /// counts, the switches, the held keys and the clock (zones and slots keep their indices).
    @_noLocks
    func carry(from old: borrowing SampleZoneRuleState) {
        Self.copy(old.sequenceCounters.rawAddress, old.sequenceCounters.count, into: sequenceCounters.rawAddress, sequenceCounters.count, stride: 2)
        Self.copy(old.chosen.rawAddress, old.chosen.count, into: chosen.rawAddress, chosen.count, stride: 1)
        Self.copy(old.switchKey.rawAddress, old.switchKey.count, into: switchKey.rawAddress, switchKey.count, stride: 1)
        Self.copy(old.noteVelocity.rawAddress, old.noteVelocity.count, into: noteVelocity.rawAddress, noteVelocity.count, stride: 1)
        Self.copy(old.keysDown.rawAddress, old.keysDown.count, into: keysDown.rawAddress, keysDown.count, stride: 1)
        Self.copy(old.lastKey.rawAddress, old.lastKey.count, into: lastKey.rawAddress, lastKey.count, stride: 1)
        Self.copy(old.pedalVelocity.rawAddress, old.pedalVelocity.count, into: pedalVelocity.rawAddress, pedalVelocity.count, stride: 1)
        Self.copy(old.clock.rawAddress, old.clock.count, into: clock.rawAddress, clock.count, stride: 8)
        Self.copy(old.voiceEvent.rawAddress, old.voiceEvent.count, into: voiceEvent.rawAddress, voiceEvent.count, stride: 4)
        Self.copy(old.offed.rawAddress, old.offed.count, into: offed.rawAddress, offed.count, stride: 1)
        Self.copy(old.event.rawAddress, old.event.count, into: event.rawAddress, event.count, stride: 4)
    }

    /// The first min(`count`, `room`) values of `stride` bytes from `from` to `to`.
    @_noLocks
    static func copy(_ from: UnsafeMutableRawPointer, _ count: Int, into to: UnsafeMutableRawPointer, _ room: Int, stride: Int) {
        let n = min(count, room)
        if n > 0 { to.copyMemory(from: from, byteCount: n * stride) }
    }
}
