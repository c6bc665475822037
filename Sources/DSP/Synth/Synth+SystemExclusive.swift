import MIDI
import Synchronization

// System exclusive into the synth: the messages it answers, named in the MIDI module
// (`UniversalSystemExclusive`). A sysex reaches `handle(sysex:)` at its frame like any other MIDI: from JACK's
// buffer in the period callback, from the ALSA sequencer through a control ring and a scratch buffer, and
// from a file in the offline renderer (docs/ARCHITECTURE.md, "One MIDI vocabulary"). What each message does,
// in both synths, is listed in docs/conformance.md.

extension Synth {
    /// Applies one system exclusive message now, given whole: F0 through F7. Answers GM System On, GM2 System
    /// On, GS Reset and XG System On (every channel back to its power-on state, program 0; the last three also
    /// master tuning and balance, GS and XG master volume), GM System Off (Backbeat has no other mode: nothing
    /// changes), Master Volume (a gain of value / 16383 on the whole output, smoothed like the master gain),
    /// Master Balance, Master Fine and Coarse Tuning, the MIDI Tuning Standard's scale/octave tuning (1- and
    /// 2-byte), single note tuning changes and bulk dumps, GS scale tuning (Synth+Tuning.swift) and GS Use For
    /// Rhythm Part (Synth+SoundFont.swift, Synth+Drums.swift). Returns
    /// false for any other sysex, which changes nothing and is counted (`ignoredSysexCount`). Reads `bytes`
    /// in place: no allocation, `@_noLocks`.
    @_noLocks @discardableResult
    public func handle(sysex bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        flushSampleGroups() // the voices as the last slice left them (Synth+SampleLaneCache.swift)
        if handleEffectSysex(bytes) { return true } // GM2 reverb and chorus (Synth+EffectSysex.swift)
        guard let message = UniversalSystemExclusive(bytes) else {
            counters.ignoredSysex.wrappingAdd(1, ordering: .relaxed)
            return false
        }
        switch message {
        case .generalMIDIOn:
            resetToGeneralMIDI()
        case .generalMIDI2On:
            resetToGeneralMIDI()
            resetMaster()
        case .gsReset, .xgSystemOn:
            resetToGeneralMIDI()
            resetMaster()
            masterVolume = 1
        case .generalMIDIOff:
            break
        case .masterVolume(let value):
            masterVolume = Float(value) / 16383
        case .masterBalance(let value):
            setMasterBalance(value)
        case .masterFineTuning(let value):
            controls.master[0] = UniversalSystemExclusive.cents(fourteenBit: value)
            updateTuning(channels: 0xFFFF)
        case .masterCoarseTuning(let value):
            controls.master[1] = Float(Int(value & 0x7F) - 64)
            updateTuning(channels: 0xFFFF)
        case .scaleOctaveTuning(let realTime, let width):
            applyScaleOctaveTuning(bytes, bytesPerClass: width, realTime: realTime)
        case .singleNoteTuning(let realTime, let bank, let program, let count, let start):
            applySingleNoteTuning(bytes, bank: Int(bank), program: Int(program), count: count, dataStart: start, realTime: realTime)
        case .bulkTuningDump(let bank, let program, let start):
            applyBulkTuningDump(bytes, bank: Int(bank), program: Int(program), dataStart: start)
        case .gsScaleTuning(let channel, let first, let count):
            applyGSScaleTuning(bytes, channel: Int(channel & 0x0F), first: first, count: count)
        case .gsRhythmPart(let channel, let map):
            setRhythmPart(channel: Int(channel & 0x0F), drum: map != 0)
        }
        publishCount()
        return true
    }

    /// System exclusive messages `handle(sysex:)` did not act on since the synth was made. Any thread.
    public var ignoredSysexCount: Int {
        @_noLocks get { counters.ignoredSysex.load(ordering: .relaxed) }
    }

    /// GM System On: every voice cut short (all sound off's 2 ms fade), then every channel's controllers at
    /// their power-on values (volume 100, pan centre, expression full, no modulation, pedal up, bend centred
    /// with a range of 2 semitones, no parameter number selected, no tuning, modulation depth range 50 cents)
    /// poly mode, and program 0 (with a font, bank 0 program 0 through its fallbacks; without, the built-in
    /// patch of GM program 0, `SynthPatch.generalMIDI(program:)`). Master Volume and master tuning stay as they were.
    @_noLocks
    func resetToGeneralMIDI() {
        for ch in 0..<channelCount {
            controlChange(channel: ch, controller: .allSoundOff, value: 0)
            controlChange(channel: ch, controller: .resetAllControllers, value: 0)
            controlChange(channel: ch, controller: .volume, value: 100)
            controlChange(channel: ch, controller: .pan, value: 64)
            controls.channels[ch].pitch.bendRange = 2
            updateBend(ch)
            setMono(false, channel: ch) // poly mode
            controls.channels[ch].bank = 0
            controls.channels[ch].rhythm = -1
            controls.channels[ch].drumKit = 0
        }
        resetChannelTuning()
        if samples.hasFont { resetFontChannels() }
        // GM program 0 on the built-in channels (all without a font; those no pinned instrument plays with one).
        if samples.channels != 0xFFFF { selectPatch(Int(builtIn.patches.programs[0]), channel: nil) }
        resetEffects(sends: true) // Synth+Effects.swift
    }
}
