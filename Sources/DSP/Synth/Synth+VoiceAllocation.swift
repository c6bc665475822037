// Built-in notes: a note-on takes a slot from the one `VoiceAllocator` (VoiceAllocator.swift: stealing,
// fades, freeing) and sets up a wavetable voice in it. Note-off, the pedal and the fades act on every slot,
// whatever plays in it (the sample voices too).

extension Synth {
    @_noLocks
    func noteOn(channel ch: Int, note: UInt8, velocity: UInt8) {
        let v = allocator.take(voices, channel: ch, note: note, sameKey: .fade)
        guard v >= 0 else { return }
        allocator.start(voices, v, kind: VoiceKind.wavetable, channel: ch, note: note)
        let normalized = Float(velocity) / 127
        let patch = builtIn.channelPatches[ch].load(ordering: .relaxed) // the note keeps it to the end of its release
        let velocitySensitivity = builtIn.patches.values[patch].velocitySensitivity
        builtIn.slots.patch[v] = UInt8(truncatingIfNeeded: patch)
        builtIn.slots.phase[v] = 0
        builtIn.slots.increment[v] = wavetableIncrement(channel: ch, note: note) // key tuning included (Synth+Tuning.swift)
        voices.amplitude[v] = voiceGain * (1 - velocitySensitivity + velocitySensitivity * normalized * normalized)
        builtIn.slots.filterScale[v] = 0.5 + 0.5 * normalized
        builtIn.slots.keyVibrato[v] = 0
        startGlide(v, channel: ch, note: note) // portamento (Synth+Portamento.swift)
        publishSubstitution(ch) // a bank variation the built-in synth has not: said once (Synth+BuiltInSubstitution.swift)
        notePlayed(channel: ch, note: note)
    }

    @_noLocks
    func noteOff(channel ch: Int, note: UInt8) {
        for v in 0..<slotLimit {
            guard isHeldNote(v, channel: ch), voices.note[v] == note else { continue }
            keyUp(v, channel: ch)
        }
    }

    /// A key let go (note-off, all notes off): the voice releases, or the pedal holds it.
    @_noLocks @inline(__always)
    func keyUp(_ v: Int, channel ch: Int) {
        if controls.channels[ch].pedal != 0 { voices.held[v] = 1 } else { voices.stage[v] = Stage.release }
    }

    /// A voice on `ch` whose key is still down: sounding, not released, not fading, not held by the pedal.
    @_noLocks @inline(__always)
    func isHeldNote(_ v: Int, channel ch: Int) -> Bool {
        let s = voices.stage[v]
        guard s == Stage.attack || s == Stage.decay else { return false }
        guard voices.fadeStep[v] == 0, voices.held[v] == 0 else { return false }
        return Int(voices.channel[v]) == ch
    }

    @_noLocks
    func releaseHeld(_ ch: Int) {
        for v in 0..<slotLimit where voices.held[v] != 0 {
            guard Int(voices.channel[v]) == ch else { continue }
            voices.held[v] = 0
            if voices.stage[v] != Stage.free { voices.stage[v] = Stage.release }
        }
    }

    @_noLocks
    func publishCount() {
        counters.published.store(allocator.sounding, ordering: .relaxed)
    }

    /// Starts (or speeds up) a voice's fade-out: from now on it no longer counts as sounding.
    @_noLocks @inline(__always)
    func startFade(_ v: Int, step: Float) { allocator.startFade(voices, v, step: step) }

    @_noLocks @inline(__always)
    func freeVoice(_ v: Int) { allocator.free(voices, v) }

    /// Slots at and above this index are free: the loops over voices stop here.
    var slotLimit: Int { @_noLocks get { allocator.slotLimit } }
    /// `2 * voiceCapacity` slots.
    var slotCount: Int { @_noLocks get { allocator.slotCount } }
}
