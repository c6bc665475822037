import MIDI
import Synchronization

// The synth with a SoundFont: channel messages that choose presets or feed modulators, the per-channel preset
// that any thread may read and the UI may ask to change, and the per-slice work before rendering (preset
// requests applied, modulators evaluated again where controllers moved).

extension Synth {
    /// The preset playing on `channel` (0...15), or the one `requestPreset` asked for and the real-time thread
    /// has not applied yet: an index into `soundFont.presets`, or nil without a font or when no preset answers
    /// the channel's bank and program. Any thread.
    @_noLocks
    public func preset(onChannel channel: Int) -> Int? {
        guard channel >= 0 && channel < channelCount else { return nil }
        let request = samples.presetExchange.requested[channel].load(ordering: .relaxed)
        if request >= 0 { return request }
        let index = samples.presetExchange.playing[channel].load(ordering: .relaxed)
        return index >= 0 ? index : nil
    }

    /// Asks the real-time thread to play preset `index` (into `soundFont.presets`) on `channel` from its next
    /// render, as if the channel had received that preset's bank select and program change. Any thread;
    /// ignored without a font or for an index out of range.
    @_noLocks
    public func requestPreset(_ index: Int, onChannel channel: Int) {
        let presets = samples.presetLimit.load(ordering: .relaxed)
        guard channel >= 0 && channel < channelCount, index >= 0 && index < presets else { return }
        samples.presetExchange.requested[channel].store(index, ordering: .relaxed)
    }

    /// Channel messages the sample voices need beyond the synth's own handling: controller values (bank
    /// select, modulator sources), program change, channel pressure and the pitch wheel.
    @_noLocks
    func fontMessage(_ kind: MessageKind, channel ch: Int, _ d1: UInt8, _ d2: UInt8) {
        switch kind {
        case .controlChange:
            let controller = Controller(d1)
            if !controller.isChannelMode { controls.midi.controllers[ch * 128 + Int(d1)] = d2 }
            if controller == .resetAllControllers { controls.midi.resetControllers(ch, all: false) }
            samples.dirty |= 1 << UInt16(ch)
        case .programChange:
            controls.midi.program[ch] = d1
            selectFontPreset(ch)
        case .channelPressure:
            controls.midi.pressure[ch] = d1
            samples.dirty |= 1 << UInt16(ch)
        case .polyPressure: // per key (stored by `handle` for both kinds): the modulators that name it read their voice's key
            samples.dirty |= 1 << UInt16(ch)
        case .pitchBend:
            controls.midi.pitchWheel[ch] = Int32(d2) << 7 | Int32(d1)
            samples.dirty |= 1 << UInt16(ch)
        default: break
        }
    }

    /// The channel's preset from its bank (CC 0, as FluidSynth's default "gs" bank-select style) and program,
    /// with FluidSynth's fallbacks (`SoundFont.preferredPreset`). A drum part plays the drum banks: channel 10
    /// (index 9) unless GS Use For Rhythm Part says otherwise, any channel that GS message makes one, and any
    /// channel whose bank MSB is 120 (GM2 rhythm) or 127 (XG drum kit), taken as bank 128; bank MSB 121 (GM2
    /// melodic) makes channel 10 melodic, bank 0.
    @_noLocks
    func selectFontPreset(_ ch: Int) {
        guard let reference = samples.fontReference else { return }
        // A channel pinned to an instrument plays it whatever its bank and program (SoundFont+Channels.swift).
        let pinned = Int(samples.font.channelPins[ch])
        if pinned >= 0 {
            controls.midi.preset[ch] = Int32(pinned)
            samples.presetExchange.playing[ch].store(pinned, ordering: .relaxed)
            controls.midi.substitution[ch] = 0
            return
        }
        var bank = Int(controls.midi.controllers[ch * 128 + Int(Controller.bankSelect.rawValue)])
        let program = Int(controls.midi.program[ch])
        let percussion = isDrumPart(ch, bank: bank) // the one rule (Synth+Drums.swift)
        if bank == 120 || bank == 121 || bank == 127 { bank = 0 }
        let found = reference._withUnsafeGuaranteedRef { $0.preferredPreset(bank: bank, program: program, percussion: percussion) }
        let p = found ?? -1
        controls.midi.preset[ch] = Int32(p)
        samples.presetExchange.playing[ch].store(p, ordering: .relaxed)
        // What the channel asked for (a percussion channel's bank is a drum bank, as `preferredPreset` reads
        // it): another preset, or none, is a substitution, said at the channel's next note.
        let asked = percussion && bank < 128 ? 128 + bank : bank
        let askedKey = asked << 7 | (program & 0x7F)
        let presets = samples.font.presetCount
        var exact = false
        if p >= 0 && p < presets { exact = Int(samples.font.presetKeys[p]) == askedKey }
        controls.midi.substitution[ch] = exact ? 0 : PresetSubstitution.packed(bank: asked, program: program, preset: p)
    }

    /// At a note on `ch`: the channel's substitution published for the reporters, the first time only.
    @_noLocks @inline(__always)
    func publishSubstitution(_ ch: Int) {
        let substitution = controls.midi.substitution[ch]
        if substitution == 0 { return }
        if controls.midi.substitutionSaid[ch] != 0 { return }
        controls.midi.substitutionSaid[ch] = 1
        samples.presetExchange.substitution[ch].store(substitution, ordering: .relaxed)
    }

    /// The substitution channel `channel` (0...15) played since the last call, or nil: each channel's first
    /// one only, so a reporter says each once. Any thread (one reporter).
    public func takePresetSubstitution(channel: Int) -> PresetSubstitution? {
        guard channel >= 0 && channel < channelCount else { return nil }
        return PresetSubstitution(channel: channel, packed: samples.presetExchange.substitution[channel].exchange(0, ordering: .relaxed))
    }

    /// Every channel's substitution not yet taken (`takePresetSubstitution`), by channel.
    public func takePresetSubstitutions() -> [PresetSubstitution] {
        (0..<channelCount).compactMap { takePresetSubstitution(channel: $0) }
    }

    /// GS Use For Rhythm Part: the channel becomes a drum part (`drum`) or a normal one; its preset is
    /// chosen again for its bank and program (with a font; the built-in kit reads the part at each note).
    @_noLocks
    func setRhythmPart(channel ch: Int, drum: Bool) {
        controls.channels[ch].rhythm = drum ? 1 : 0
        if samples.plays(ch) { selectFontPreset(ch) }
    }

    /// Every channel's controllers at power-on (then a pinned instrument's own, `set_ccN`), no GS rhythm
    /// part setting, and its preset chosen again (program 0): what `prepare` does.
    @_noLocks
    func resetFontChannels() {
        guard samples.hasFont else { return }
        for ch in 0..<channelCount {
            controls.channels[ch].rhythm = -1
            controls.midi.resetControllers(ch, all: true)
            controls.midi.program[ch] = 0
            selectFontPreset(ch)
            samples.presetExchange.requested[ch].store(-1, ordering: .relaxed)
            setPinnedControllers(ch)
        }
        samples.dirty = 0
    }

    /// The controller values the channel's pinned preset starts with (an SFZ instrument's `set_ccN`), as if
    /// received: stored for the modulators and note-on rules, and acted on as the synth acts on them.
    @_noLocks
    func setPinnedControllers(_ ch: Int) {
        let values = samples.font.channelControllers.baseAddress + ch * 128
        for cc in 0..<128 where values[cc] != SoundFontTables.noController {
            let controller = Controller(UInt8(cc))
            if controller.isChannelMode { continue }
            controls.midi.controllers[ch * 128 + cc] = values[cc]
            controlChange(channel: ch, controller: controller, value: values[cc])
        }
    }

    /// Before a slice: presets the UI asked for, then the modulated parameters of voices on channels whose
    /// controllers changed.
    @_noLocks
    func prepareFontSlice(frames: Int) {
        takeFontChange() // a live change of instrument (Synth+FontChange.swift)
        samples.ruleState.clock[0] += Int64(frames) // the frames rendered, for `rt_decay` (Synth+SampleZoneLevels.swift)
        let presets = samples.font.presetCount
        guard presets > 0 else { return } // no font: nothing to apply
        // The interpolation asked for, from the slice's first sample (`setInterpolation`).
        samples.sincOn = false
        if samples.interpolationRequest.load(ordering: .relaxed) == sincInterpolationValue {
            if let kernels = samples.sincKernels.load(ordering: .acquiring) {
                samples.sinc = kernels.load(as: SincKernels.self)
                samples.sincOn = true
            }
        }
        for ch in 0..<channelCount {
            let request = samples.presetExchange.requested[ch].exchange(-1, ordering: .relaxed)
            guard request >= 0 && request < presets else { continue }
            let key = Int(samples.font.presetKeys[request])
            controls.midi.controllers[ch * 128 + Int(Controller.bankSelect.rawValue)] = UInt8(truncatingIfNeeded: min(key >> 7, 127))
            controls.midi.program[ch] = UInt8(key & 0x7F)
            controls.midi.preset[ch] = Int32(request)
            controls.midi.substitution[ch] = 0 // the preset itself was asked for
            samples.presetExchange.playing[ch].store(request, ordering: .relaxed)
        }
        if samples.dirty != 0 {
            refreshModulatedVoices(channels: samples.dirty)
            samples.dirty = 0
        }
    }
}
