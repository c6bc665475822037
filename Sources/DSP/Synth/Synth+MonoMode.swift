import MIDI

// Mono mode (CC126) and poly mode (CC127), in both kinds of voice. Each mode message is also all notes off
// (Synth+Channels.swift). In mono mode a channel sounds one note at a time, legato:
// - A note-on while a key of the channel is down does not start a voice: the sounding one takes the new
//   key's pitch at the message's frame (gliding to it when portamento is on), its envelope going on.
// - Letting the newest key go while older ones are down returns the voice to the newest of those, as
//   monophonic synths do; letting go a key that is not sounding changes nothing heard.
// - A note-on with no key down starts the note as usual, the channel's other voices (release tails) cut
//   with all sound off's 2 ms fade.
// The keys down are kept per channel, oldest first, 16 at most (the oldest dropped beyond).

extension Synth {
    /// Mono mode on or off for `ch` (CC126 on, CC127 off); the keys down are forgotten.
    @_noLocks
    func setMono(_ on: Bool, channel ch: Int) {
        controls.channels[ch].mono[0] = on ? 1 : 0
        controls.channels[ch].mono[1] = 0
    }

    @_noLocks @inline(__always)
    func isMono(_ ch: Int) -> Bool { controls.channels[ch].mono[0] != 0 }

    /// A note-on in mono mode. True when it was played legato (no new voice); false when the caller starts
    /// the note as usual.
    @_noLocks
    func monoNoteOn(channel ch: Int, note: UInt8) -> Bool {
        removeMonoKey(note, channel: ch)
        var count = Int(controls.channels[ch].mono[1])
        if count == monoStride - 2 { // full: the oldest goes
            for i in 0..<(count - 1) { controls.channels[ch].mono[2 + i] = controls.channels[ch].mono[3 + i] }
            count -= 1
        }
        controls.channels[ch].mono[2 + count] = note
        controls.channels[ch].mono[1] = UInt8(count + 1)
        var legato = false
        for v in 0..<slotLimit where isHeldNote(v, channel: ch) {
            legato = true
            moveVoice(v, channel: ch, to: note)
        }
        if legato {
            notePlayed(channel: ch, note: note)
            return true
        }
        let stages = voices.stage, channels = voices.channel
        for v in 0..<slotLimit where stages[v] != Stage.free && Int(channels[v]) == ch {
            startFade(v, step: rates.soundOffFadeStep) // one voice per channel: the last note's tail is cut
        }
        return false
    }

    /// A note-off in mono mode. True when it was taken care of (the voice went back to an older key, or
    /// the key was not the sounding one); false when the caller releases as usual.
    @_noLocks
    func monoNoteOff(channel ch: Int, note: UInt8) -> Bool {
        removeMonoKey(note, channel: ch)
        let count = Int(controls.channels[ch].mono[1])
        guard count > 0 else { return false }
        let older = controls.channels[ch].mono[1 + count] // the newest key still down
        for v in 0..<slotLimit where voices.note[v] == note {
            if isHeldNote(v, channel: ch) { moveVoice(v, channel: ch, to: older) }
        }
        return true
    }

    @_noLocks
    func removeMonoKey(_ note: UInt8, channel ch: Int) {
        let count = Int(controls.channels[ch].mono[1])
        var kept = 0
        for i in 0..<count where controls.channels[ch].mono[2 + i] != note {
            controls.channels[ch].mono[2 + kept] = controls.channels[ch].mono[2 + i]
            kept += 1
        }
        controls.channels[ch].mono[1] = UInt8(kept)
    }

    /// Voice `v` takes `note`'s pitch without a new attack: a glide from where it is when the channel's
    /// portamento is on, else at once.
    @_noLocks
    func moveVoice(_ v: Int, channel ch: Int, to note: UInt8) {
        let old = voices.note[v]
        let time = controls.channels[ch].portamento[Portamento.time]
        let rate = Float(sampleRate), origin = glideOrigin(channel: ch)
        if origin >= 0 && time > 0 && rate > 0 {
            let cents = voices.glide[v] + Float(Int(old) - Int(note)) * 100
            voices.glide[v] = cents
            voices.glideStep[v] = abs(cents) / (Float(time) * 0.001 * rate)
        } else {
            voices.glide[v] = 0
        }
        voices.note[v] = note
        if voices.kind[v] == VoiceKind.wavetable {
            builtIn.slots.increment[v] = wavetableIncrement(channel: ch, note: note)
            builtIn.laneCache.channelState[ch] = SIMD8(repeating: .nan) // kept lanes regathered with the new step
        } else {
            samples.slots.state[v].key = note
            samples.slots.state[v].modulation.tuningCents = keyTuning(channel: ch, key: note)
            samples.dirty |= 1 << UInt16(ch) // the pitch recomputed from the new key at the next sample
        }
    }
}
