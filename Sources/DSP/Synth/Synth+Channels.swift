import MIDI

// MIDI into the synth: channel messages to voice allocation (Synth+VoiceAllocation.swift) and to the
// channel state (`ChannelControls`). Parameter numbers go through the MIDI module's one decoder.

extension Synth {
    /// Applies one MIDI message now: it affects the sound from the next sample `render` writes.
    /// Channel messages on other channels than `channel` (when set) are ignored, as are system messages.
    /// Controllers, bend and the pedal are per channel; so is a program change: the channel's next notes
    /// play the built-in patch nearest to that General MIDI program (`SynthPatch.generalMIDI(program:)`),
    /// whose values it loads (it becomes `currentPatch`); notes sounding keep theirs. Drum parts play the built-in drum kit (Synth+Drums.swift).
    @_noLocks
    public func handle(_ message: ShortMessage) {
        guard message.isChannelMessage else { return }
        let c = message.channel
        if let only = channel, only != c { return }
        let ch = Int(c)
        let d1 = message.data1 & 0x7F
        let d2 = message.data2 & 0x7F
        flushSampleGroups() // the voices as the last slice left them (Synth+SampleLaneCache.swift)
        let kind = noteKind(ch)
        if kind == VoiceKind.sample { fontMessage(message.kind, channel: ch, d1, d2) } // Synth+SoundFont.swift
        switch message.kind {
        case .noteOn where d2 > 0 && kind == VoiceKind.drum: // the built-in drum kit (Synth+Drums.swift)
            drumNoteOn(channel: ch, note: d1, velocity: d2)
        case .noteOn where d2 > 0:
            if isMono(ch) { if monoNoteOn(channel: ch, note: d1) { break } } // legato (Synth+MonoMode.swift)
            if kind == VoiceKind.sample {
                sampleNoteOn(channel: ch, note: d1, velocity: d2) // Synth+SampleVoices.swift
            } else {
                noteOn(channel: ch, note: d1, velocity: d2) // Synth+VoiceAllocation.swift
            }
        case .noteOff, .noteOn:
            if isMono(ch) { if monoNoteOff(channel: ch, note: d1) { break } }
            noteOff(channel: ch, note: d1)
            if kind == VoiceKind.sample { startReleaseZones(channel: ch, note: d1) } // SFZ release triggers
        case .controlChange: controlChange(channel: ch, controller: Controller(d1), value: d2)
        case .programChange:
            controls.channels[ch].drumKit = drums.kit.kitOfProgram[Int(d1)] // on a drum part, the kit (DrumKits.swift)
            if kind != VoiceKind.sample {
                selectPatch(Int(builtIn.patches.programs[Int(d1)]), channel: ch) // the GM program's patch
                noteBuiltInSubstitution(channel: ch, program: d1, drum: kind == VoiceKind.drum)
            }
        case .channelPressure: // vibrato, as SoundFont 2.01's default modulator (the font's own path: fontMessage)
            controls.channels[ch].vibrato.pressure = Float(d1) / 127
            updateModulation(ch)
        case .polyPressure: // the key's own vibrato, as channel pressure's for the channel (Synth+KeyPressure.swift)
            controls.midi.keyPressure[ch &* 128 &+ Int(d1)] = d2
        case .pitchBend:
            controls.channels[ch].pitch.bendValue = (Int32(d2) << 7 | Int32(d1)) - 8192
            updateBend(ch)
        default: break
        }
        publishCount()
    }

    /// The kind of voice a note on `ch` starts: the SoundFont's on the channels it plays, else the drum kit's on
    /// a drum part, else the built-in patches'.
    @_noLocks @inline(__always)
    func noteKind(_ ch: Int) -> UInt8 {
        if samples.plays(ch) { return VoiceKind.sample }
        return isDrumPart(ch) ? VoiceKind.drum : VoiceKind.wavetable
    }

    /// Every voice released on all 16 channels, the sustain pedal up first: all notes off, whatever the
    /// pedal held. What an app does when it runs again after its note-offs were lost; notes end with their
    /// release.
    @_noLocks
    public func releaseAllVoices() { onEveryChannel(pedalUpThen: .allNotesOff) }

    /// Panic: every voice on all 16 channels, sustained or releasing, fades out within CC 120's 2 ms, and
    /// the pedals are up, so nothing sounds on after it.
    @_noLocks
    public func silenceAllVoices() {
        onEveryChannel(pedalUpThen: .allSoundOff)
        resetEffects(sends: false) // the reverb's and chorus's tails too (Synth+Effects.swift)
    }

    /// The sustain pedal up, then the channel mode message `controller`, on all 16 channels.
    @_noLocks
    func onEveryChannel(pedalUpThen controller: Controller) {
        flushSampleGroups()
        for ch in 0..<channelCount {
            controlChange(channel: ch, controller: .sustain, value: 0)
            controlChange(channel: ch, controller: controller, value: 0)
        }
        publishCount()
    }

    @_noLocks
    func controlChange(channel ch: Int, controller: Controller, value: UInt8) {
        let x = Float(value) / 127
        switch controller {
        case .modulationWheel: // full wheel: the modulation depth range (RPN 5, 0.5 semitone at power-on)
            controls.channels[ch].vibrato.wheel = x
            updateModulation(ch)
        case .bankSelect: controls.channels[ch].bank = value // a drum part or not (Synth+Drums.swift)
        case .volume: controls.channels[ch].levels.volume = x
        case .pan: controls.channels[ch].levels.pan = Float(max(Int(value) - 1, 0)) / 126
        case .expression: controls.channels[ch].levels.expression = x
        case .sustain:
            controls.channels[ch].pedal = value >= 64 ? 1 : 0
            if value < 64 {
                releaseHeld(ch)
                startPedalReleaseZones(channel: ch) // SFZ trigger=release (Synth+SampleZoneRules.swift)
            }
        case .portamentoTime, Controller(rawValue: 37), .portamento, .portamentoControl:
            portamentoControl(channel: ch, controller: controller, value: value)
        case .dataEntry, .dataEntryLSB, .dataIncrement, .dataDecrement, .nrpnLSB, .nrpnMSB, .rpnLSB, .rpnMSB:
            // parameter numbers: selection and data entry
            if let change = parameterNumbers.process(channel: UInt8(ch), controller: controller.rawValue, value: value) {
                parameterChanged(channel: ch, change)
            }
        case .allSoundOff: // a tiny fade, then silence
            for v in 0..<slotLimit where voices.stage[v] != Stage.free {
                if Int(voices.channel[v]) == ch { startFade(v, step: rates.soundOffFadeStep) }
            }
        case .resetAllControllers: // RP-015: volume, pan, program, bank and RPN values (range, tuning) stay
            controls.channels[ch].pitch.bendValue = 0
            updateBend(ch)
            controls.channels[ch].vibrato.wheel = 0
            controls.channels[ch].vibrato.pressure = 0
            (controls.midi.keyPressure + ch &* 128).update(repeating: 0, count: 128)
            updateModulation(ch)
            controls.channels[ch].levels.expression = 1
            controls.channels[ch].pedal = 0
            releaseHeld(ch)
            startPedalReleaseZones(channel: ch)
            controls.channels[ch].portamento[Portamento.on] = 0 // CC65
            controls.channels[ch].portamento[Portamento.from] = -1
            parameterNumbers.deselect(channel: UInt8(ch))
        case .reverbSend, .chorusSend: // the built-in voices' sends (Synth+Effects.swift)
            controls.midi.controllers[ch * 128 + Int(controller.rawValue)] = value
        case .allNotesOff, .omniOff, .omniOn, .monoOn, .polyOn: // the mode changes imply all notes off
            for v in 0..<slotLimit where isHeldNote(v, channel: ch) { keyUp(v, channel: ch) }
            controls.channels[ch].mono[1] = 0 // no key down
            if controller == .monoOn { setMono(true, channel: ch) } else if controller == .polyOn { setMono(false, channel: ch) }
        default: break
        }
    }

    /// A voice on `ch` whose key is still down: sounding, not released, not fading, not held by the pedal.

    /// A decoded RPN/NRPN data entry. The synth answers RPN 0 (pitch-bend sensitivity: the MSB sets whole
    /// semitones, the LSB cents 0...99, each keeping the other part), RPN 1 (channel fine tuning, 14 bits,
    /// +-100 cents), RPN 2 (coarse tuning, MSB 64 = 0, semitones), RPN 3 and 4 (MTS tuning program and bank
    /// select, MSB) and RPN 5 (modulation depth range: MSB semitones, LSB 100/128 cents). Tuning changes
    /// move sounding notes at once; a tuning program applies to notes that start afterwards. Increment and
    /// decrement, NRPNs and other RPNs change nothing.
    @_noLocks
    func parameterChanged(channel ch: Int, _ change: ParameterChange) {
        guard case .registered = change.kind else { return }
        switch change.source {
        case .dataEntryMSB, .dataEntryLSB: break
        case .increment, .decrement: return
        }
        let msb = Float(change.value >> 7), lsb = change.value & 0x7F
        let bit: UInt16 = 1 << UInt16(ch)
        // Plain comparisons: a `case` pattern on a value goes through the generic `~=`.
        let p = change.parameter
        if p == RegisteredParameter.pitchBendSensitivity.rawValue {
            let range = controls.channels[ch].pitch.bendRange
            if case .dataEntryMSB = change.source {
                controls.channels[ch].pitch.bendRange = msb + (range - Float(Int(range)))
            } else {
                controls.channels[ch].pitch.bendRange = Float(Int(range)) + Float(min(lsb, 99)) / 100
            }
            updateBend(ch)
        } else if p == RegisteredParameter.fineTuning.rawValue {
            controls.channels[ch].pitch.fineTuning = UniversalSystemExclusive.cents(fourteenBit: change.value)
            updateTuning(channels: bit)
        } else if p == RegisteredParameter.coarseTuning.rawValue {
            controls.channels[ch].pitch.coarseTuning = msb - 64
            updateTuning(channels: bit)
        } else if p == RegisteredParameter.tuningProgram.rawValue {
            controls.channels[ch].pitch.tuningProgram = Int32(change.value >> 7)
        } else if p == RegisteredParameter.tuningBank.rawValue {
            controls.channels[ch].pitch.tuningBank = Int32(change.value >> 7)
        } else if p == RegisteredParameter.modulationDepthRange.rawValue {
            controls.channels[ch].vibrato.depthRange = msb + Float(lsb) / 128
            controls.channels[ch].vibrato.gm2 = true
            updateModulation(ch)
            samples.dirty |= bit
        }
    }

    /// The built-in voices' vibrato depth in semitones: the wheel times the modulation depth range (RPN 5),
    /// plus channel pressure's 50 cents at full (SoundFont 2.01's default modulator, the same in both synths).
    @_noLocks @inline(__always)
    func updateModulation(_ ch: Int) {
        let c = controls.channels[ch].vibrato
        controls.channels[ch].vibrato.modulation = c.wheel * c.depthRange + c.pressure * 0.5
    }

    @_noLocks @inline(__always)
    func updateBend(_ ch: Int) {
        let c = controls.channels[ch].pitch
        controls.channels[ch].pitch.bend = Float(c.bendValue) / 8192 * c.bendRange + c.tuning
    }

    @_noLocks @inline(__always)
    func targetLeft(_ ch: Int) -> Float {
        let c = controls.channels[ch].levels
        let pan = min(max(c.pan + c.mixerPan * 0.5, 0), 1) // the mixer's offsets: none leaves every bit as it was
        return c.volume * c.volume * c.expression * c.expression * c.mixerGain * Float(FastMath.cos(Double(pan) * Double.pi / 2))
            * controls.master[2]
    }

    @_noLocks @inline(__always)
    func targetRight(_ ch: Int) -> Float {
        let c = controls.channels[ch].levels
        let pan = min(max(c.pan + c.mixerPan * 0.5, 0), 1)
        return c.volume * c.volume * c.expression * c.expression * c.mixerGain * Float(FastMath.sin(Double(pan) * Double.pi / 2))
            * controls.master[3]
    }

}
