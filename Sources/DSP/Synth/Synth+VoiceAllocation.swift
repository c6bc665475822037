// Voice allocation: which slot a note takes, what stealing fades, and when a voice ends.
//
// There are `2 * voiceCapacity` slots. A note takes the lowest free slot (so loops over voices stop at
// `slotLimit`). When `voiceCapacity` notes sound, the quietest released voice, else the oldest, is stolen:
// it fades out over 3 ms in its own slot while the new note starts at once in another, so stealing neither
// clicks nor delays. The same key again fades the old voice rather than stacking two of one pitch.

extension Synth {
    @_noLocks
    func noteOn(channel ch: Int, note: UInt8, velocity: UInt8) {
        var playing = 0
        var freeSlot = -1
        var oldest = -1, oldestAge = UInt64.max
        var quietestReleased = -1, quietestLevel = Float.infinity
        var quietestFading = -1, quietestFade = Float.infinity
        for v in 0..<slotLimit {
            let s = voices.stage[v]
            if s == Stage.free {
                if freeSlot < 0 { freeSlot = v }
                continue
            }
            if voices.fadeStep[v] > 0 {
                let level = voices.fade[v] * voices.envelope[v]
                if level < quietestFade { quietestFade = level; quietestFading = v }
                continue
            }
            if Int(voices.channel[v]) == ch, voices.note[v] == note {
                // The same key again: fade the old voice rather than stack two of the same pitch.
                startFade(v, step: stealFadeStep)
                continue
            }
            playing += 1
            if s == Stage.release {
                if voices.envelope[v] < quietestLevel { quietestLevel = voices.envelope[v]; quietestReleased = v }
            } else if voices.age[v] < oldestAge {
                oldestAge = voices.age[v]; oldest = v
            }
        }
        if playing >= voiceCapacity {
            let victim = quietestReleased >= 0 ? quietestReleased : oldest
            if victim >= 0 { startFade(victim, step: stealFadeStep) }
        }
        let limit = slotLimit, slots = slotCount // `&&` must not capture self
        if freeSlot < 0 && limit < slots { freeSlot = limit }
        if freeSlot < 0 { freeSlot = quietestFading } // every slot busy: cut the faintest fading tail
        guard freeSlot >= 0 else { return }

        let v = freeSlot
        slotLimit = max(slotLimit, v + 1)
        let ratio = FastMath.exp2((Double(note) - 69) / 12)
        let normalized = Float(velocity) / 127
        voices.stage[v] = Stage.attack
        voices.kind[v] = VoiceKind.wavetable
        sounding += 1
        voices.held[v] = 0
        voices.channel[v] = UInt8(ch)
        voices.note[v] = note
        voices.age[v] = nextAge
        nextAge &+= 1
        voices.phase[v] = 0
        voices.increment[v] = sampleRate > 0 ? Float(440 * ratio / sampleRate) : 0
        voices.envelope[v] = 0
        voices.amplitude[v] = voiceGain * (1 - velocitySensitivity + velocitySensitivity * normalized * normalized)
        voices.filterScale[v] = 0.5 + 0.5 * normalized
        voices.ic1[v] = 0
        voices.ic2[v] = 0
        voices.fade[v] = 1
        voices.fadeStep[v] = 0
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
        if controls.pedal[ch] != 0 { voices.held[v] = 1 } else { voices.stage[v] = Stage.release }
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
        published.store(sounding, ordering: .relaxed)
    }

    /// Starts (or speeds up) a voice's fade-out: from now on it no longer counts as sounding.
    @_noLocks @inline(__always)
    func startFade(_ v: Int, step: Float) {
        if voices.fadeStep[v] == 0 { if voices.stage[v] != Stage.free { sounding -= 1 } }
        voices.fadeStep[v] = max(voices.fadeStep[v], step)
    }

    @_noLocks @inline(__always)
    func freeVoice(_ v: Int) {
        if voices.fadeStep[v] == 0 { if voices.stage[v] != Stage.free { sounding -= 1 } }
        voices.stage[v] = Stage.free
        voices.held[v] = 0
        voices.envelope[v] = 0
        voices.fade[v] = 1
        voices.fadeStep[v] = 0
    }
}
