import MIDI

// MIDI into the synth: channel messages to voice allocation (Synth+VoiceAllocation.swift) and to the
// channel state (`ChannelControls`). Parameter numbers go through the MIDI module's one decoder.

extension Synth {
    /// Applies one MIDI message now: it affects the sound from the next sample `render` writes.
    /// Channel messages on other channels than `channel` (when set) are ignored, as are system messages.
    /// Controllers, bend and the pedal are per channel; a program change (any answered channel) selects the
    /// synth's one patch, loading its values into the parameters.
    @_noLocks
    public func handle(_ message: ShortMessage) {
        guard message.isChannelMessage else { return }
        let c = message.channel
        if let only = channel, only != c { return }
        let ch = Int(c)
        let d1 = message.data1 & 0x7F
        let d2 = message.data2 & 0x7F
        if hasFont { fontMessage(message.kind, channel: ch, d1, d2) } // SoundFont: Synth+SoundFont.swift
        switch message.kind {
        case 0x90 where d2 > 0:
            if hasFont { sampleNoteOn(channel: ch, note: d1, velocity: d2) } else { noteOn(channel: ch, note: d1, velocity: d2) }
        case 0x80, 0x90: noteOff(channel: ch, note: d1)
        case 0xB0: controlChange(channel: ch, controller: d1, value: d2)
        case 0xC0: if !hasFont { selectPatch(Int(d1)) }
        case 0xE0:
            controls.bendValue[ch] = (Int32(d2) << 7 | Int32(d1)) - 8192
            updateBend(ch)
        default: break
        }
        publishCount()
    }

    /// Every voice released on all 16 channels, the sustain pedal up first: all notes off, whatever the
    /// pedal held. What an app does when it runs again after its note-offs were lost; notes end with their
    /// release.
    @_noLocks
    public func releaseAllVoices() { onEveryChannel(pedalUpThen: 123) }

    /// Panic: every voice on all 16 channels, sustained or releasing, fades out within CC 120's 2 ms, and
    /// the pedals are up, so nothing sounds on after it.
    @_noLocks
    public func silenceAllVoices() { onEveryChannel(pedalUpThen: 120) }

    /// The sustain pedal up, then the channel mode message `controller`, on all 16 channels.
    @_noLocks
    func onEveryChannel(pedalUpThen controller: UInt8) {
        for ch in 0..<channelCount {
            controlChange(channel: ch, controller: 64, value: 0)
            controlChange(channel: ch, controller: controller, value: 0)
        }
        publishCount()
    }

    @_noLocks
    func controlChange(channel ch: Int, controller: UInt8, value: UInt8) {
        let x = Float(value) / 127
        switch controller {
        case 1: controls.modulation[ch] = x * 0.5 // full wheel: +-0.5 semitone vibrato
        case 7: controls.volume[ch] = x
        case 10: controls.pan[ch] = Float(max(Int(value) - 1, 0)) / 126
        case 11: controls.expression[ch] = x
        case 64:
            controls.pedal[ch] = value >= 64 ? 1 : 0
            if value < 64 { releaseHeld(ch) }
        case 6, 38, 96, 97, 98, 99, 100, 101: // parameter numbers: selection and data entry
            if let change = parameterNumbers.process(channel: UInt8(ch), controller: controller, value: value) {
                parameterChanged(channel: ch, change)
            }
        case 120: // all sound off: a tiny fade, then silence
            for v in 0..<slotLimit where voices.stage[v] != Stage.free {
                if Int(voices.channel[v]) == ch { startFade(v, step: soundOffFadeStep) }
            }
        case 121: // reset all controllers (RP-015: volume, pan and RPN values stay)
            controls.bendValue[ch] = 0
            updateBend(ch)
            controls.modulation[ch] = 0
            controls.expression[ch] = 1
            controls.pedal[ch] = 0
            releaseHeld(ch)
            parameterNumbers.deselect(channel: UInt8(ch))
        case 123, 124, 125, 126, 127: // all notes off (and the mode changes that imply it)
            for v in 0..<slotLimit where isHeldNote(v, channel: ch) { keyUp(v, channel: ch) }
        default: break
        }
    }

    /// A voice on `ch` whose key is still down: sounding, not released, not fading, not held by the pedal.

    /// A decoded RPN/NRPN data entry. The synth answers RPN 0 (pitch-bend sensitivity): the MSB sets whole
    /// semitones, the LSB cents (0...99), each keeping the other part. Increment and decrement, NRPNs and
    /// other RPNs change nothing.
    @_noLocks
    func parameterChanged(channel ch: Int, _ change: ParameterChange) {
        guard case .registered = change.kind, change.parameter == 0 else { return }
        let range = controls.bendRange[ch]
        switch change.source {
        case .dataEntryMSB: controls.bendRange[ch] = Float(change.value >> 7) + (range - Float(Int(range)))
        case .dataEntryLSB: controls.bendRange[ch] = Float(Int(range)) + Float(min(change.value & 0x7F, 99)) / 100
        case .increment, .decrement: return
        }
        updateBend(ch)
    }


    @_noLocks @inline(__always)
    func updateBend(_ ch: Int) {
        controls.bend[ch] = Float(controls.bendValue[ch]) / 8192 * controls.bendRange[ch]
    }

    @_noLocks @inline(__always)
    func targetLeft(_ ch: Int) -> Float {
        controls.volume[ch] * controls.volume[ch] * controls.expression[ch] * controls.expression[ch]
            * Float(FastMath.cos(Double(controls.pan[ch]) * Double.pi / 2))
    }

    @_noLocks @inline(__always)
    func targetRight(_ ch: Int) -> Float {
        controls.volume[ch] * controls.volume[ch] * controls.expression[ch] * controls.expression[ch]
            * Float(FastMath.sin(Double(controls.pan[ch]) * Double.pi / 2))
    }

}
