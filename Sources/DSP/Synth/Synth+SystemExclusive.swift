import MIDI

// System exclusive into the synth: the universal messages it answers, named in the MIDI module
// (`UniversalSystemExclusive`). A sysex reaches `handle(sysex:)` at its frame like any other MIDI: from JACK's
// buffer in the period callback, from the ALSA sequencer through a control ring and a scratch buffer, and
// from a file in the offline renderer (docs/ARCHITECTURE.md, "One MIDI vocabulary").

extension Synth {
    /// Applies one system exclusive message now, given whole: F0 through F7. Answers GM System On and GM2
    /// System On (every channel back to its power-on state, program 0) and Master Volume (a gain of
    /// value / 16383 on the whole output, smoothed like the master gain); returns false for any other sysex,
    /// which changes nothing. Reads `bytes` in place: no allocation, `@_noLocks`.
    @_noLocks @discardableResult
    public func handle(sysex bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if handleEffectSysex(bytes) { return true } // GM2 reverb and chorus (Synth+EffectSysex.swift)
        guard let message = UniversalSystemExclusive(bytes) else { return false }
        switch message {
        case .generalMIDIOn, .generalMIDI2On:
            resetToGeneralMIDI()
        case .masterVolume(let value):
            masterVolume = Float(value) / 16383
        case .generalMIDIOff:
            return false
        }
        publishCount()
        return true
    }

    /// GM System On: every voice cut short (all sound off's 2 ms fade), then every channel's controllers at
    /// their power-on values (volume 100, pan centre, expression full, no modulation, pedal up, bend centred
    /// with a range of 2 semitones, no parameter number selected) and program 0 (with a font, bank 0
    /// program 0 through its fallbacks; without, the first built-in patch). Master Volume stays as it was.
    @_noLocks
    func resetToGeneralMIDI() {
        for ch in 0..<channelCount {
            controlChange(channel: ch, controller: .allSoundOff, value: 0)
            controlChange(channel: ch, controller: .resetAllControllers, value: 0)
            controlChange(channel: ch, controller: .volume, value: 100)
            controlChange(channel: ch, controller: .pan, value: 64)
            controls.bendRange[ch] = 2
            updateBend(ch)
        }
        if hasFont { resetFontChannels() } else { selectPatch(0) }
        resetEffects(sends: true) // Synth+Effects.swift
    }
}
