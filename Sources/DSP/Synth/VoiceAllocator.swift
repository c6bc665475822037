// Voice allocation, one policy for every kind of voice (the built-in wavetable voices and the SoundFont
// sample voices): which slot a note takes, which voice is stolen, how a voice fades and ends, and the
// exclusive classes. FluidSynth decides this in one place too (fluid_synth_alloc_voice_LOCAL and
// fluid_synth_kill_by_exclusive_class_LOCAL); mono and legato would be further choices of `take`.
//
// There are `2 * capacity` slots. A note takes the lowest free slot (so loops over voices stop at
// `slotLimit`). When `capacity` notes sound, the quietest released voice, else the oldest, is stolen: it
// fades out over 3 ms in its own slot while the new note starts at once in another, so stealing neither
// clicks nor delays. A voice that has not sounded yet (started since the last `render`) is never stolen: a
// note that finds every sounding voice that new does not start. Every slot busy, the faintest fading tail
// is cut.

/// The allocation state and policy over a synth's `VoiceSlots` (whose control arrays it reads and writes).
/// A value of counters: the slots' arrays stay with the synth and are passed in.
struct VoiceAllocator {
    /// Notes that may sound at once (1...`Synth.maximumVoices`).
    let capacity: Int
    /// `2 * capacity`: a stolen voice fades in its own slot while the new note takes another.
    let slotCount: Int
    /// Slots at and above this index are free: the loops over voices stop here.
    private(set) var slotLimit = 0
    /// Voices sounding (not free, not fading): kept up to date as voices start, fade and end.
    private(set) var sounding = 0
    /// The next note-on serial (`VoiceSlots.age`): smaller is older.
    private(set) var nextAge: UInt64 = 1
    /// The serial of the first voice started since the last `render`: it and later ones are not stolen.
    private(set) var unheardAge: UInt64 = 1
    /// A stolen voice's fade per sample (3 ms), set by `prepare`.
    var stealFadeStep: Float = 1

    /// What a note does to a voice already sounding its key on its channel: fade it out (the built-in
    /// voices: no two of one pitch), or leave it (the sample voices release theirs before allocating).
    enum SameKey { case fade, keep }

    init(capacity: Int) {
        self.capacity = capacity
        slotCount = 2 * capacity
    }

    /// A slot for a note of `note` on `ch`, -1 if none: steals a voice first when `capacity` sound (see the
    /// top of this file). The slot is free on return; `start` makes it sound.
    @_noLocks
    mutating func take(_ voices: borrowing VoiceSlots, channel ch: Int, note: UInt8, sameKey: SameKey) -> Int {
        var playing = 0
        var freeSlot = -1
        var oldest = -1, oldestAge = UInt64.max
        var quietestReleased = -1, quietestLevel = Float.infinity
        var quietestFading = -1, quietestFade = Float.infinity
        var unheard = 0
        let fadesSameKey = sameKey == .fade
        for v in 0..<slotLimit {
            let s = voices.stage[v]
            if s == Synth.Stage.free {
                if freeSlot < 0 { freeSlot = v }
                continue
            }
            if voices.fadeStep[v] > 0 {
                let level = voices.fade[v] * voices.envelope[v]
                if level < quietestFade { quietestFade = level; quietestFading = v }
                continue
            }
            if fadesSameKey, Int(voices.channel[v]) == ch, voices.note[v] == note {
                startFade(voices, v, step: stealFadeStep)
                continue
            }
            playing += 1
            if voices.age[v] >= unheardAge {
                unheard += 1 // not yet heard: never the victim
            } else if s == Synth.Stage.release {
                if voices.envelope[v] < quietestLevel { quietestLevel = voices.envelope[v]; quietestReleased = v }
            } else if voices.age[v] < oldestAge {
                oldestAge = voices.age[v]; oldest = v
            }
        }
        if playing >= capacity {
            let victim = quietestReleased >= 0 ? quietestReleased : oldest
            guard victim >= 0 else { return -1 } // every sounding voice is new: the first notes keep theirs
            startFade(voices, victim, step: stealFadeStep)
        }
        if freeSlot < 0 && slotLimit < slotCount { freeSlot = slotLimit }
        if freeSlot < 0 { freeSlot = quietestFading } // every slot busy: cut the faintest fading tail
        if freeSlot >= 0 && voices.stage[freeSlot] != Synth.Stage.free { free(voices, freeSlot) }
        return freeSlot
    }

    /// Slot `v` (from `take`) starts sounding a note of `kind` in the attack stage: its control state set,
    /// its render state (`envelope`, filter states) cleared. `exclusive` is its exclusive class key, 0 none.
    @_noLocks
    mutating func start(_ voices: borrowing VoiceSlots, _ v: Int, kind: UInt8, channel ch: Int, note: UInt8,
                        exclusive: Int32 = 0) {
        slotLimit = max(slotLimit, v + 1)
        voices.stage[v] = Synth.Stage.attack
        voices.kind[v] = kind
        sounding += 1
        voices.held[v] = 0
        voices.channel[v] = UInt8(ch)
        voices.note[v] = note
        voices.age[v] = nextAge
        nextAge &+= 1
        voices.exclusive[v] = exclusive
        voices.envelope[v] = 0
        voices.ic1[v] = 0
        voices.ic2[v] = 0
        voices.fade[v] = 1
        voices.fadeStep[v] = 0
        voices.glide[v] = 0
    }

    /// The key of exclusive class `exclusive` (1...127) of preset `preset`, for `start` and `cut`.
    @_noLocks
    static func exclusiveKey(_ exclusive: Int, preset: Int) -> Int32 {
        exclusive > 0 && exclusive <= 127 ? Int32(truncatingIfNeeded: preset << 7 | exclusive) : 0
    }

    /// A note of an exclusive class (an open hi-hat closed by a pedal hi-hat): the other voices of that
    /// class (`key`, not 0) on the channel fade out as a stolen voice does (3 ms: no click).
    @_noLocks
    mutating func cut(_ voices: borrowing VoiceSlots, exclusive key: Int32, channel ch: Int) {
        for v in 0..<slotLimit where voices.exclusive[v] == key && voices.stage[v] != Synth.Stage.free {
            if Int(voices.channel[v]) == ch { startFade(voices, v, step: stealFadeStep) }
        }
    }

    /// Starts (or speeds up) a voice's fade-out: from now on it no longer counts as sounding.
    @_noLocks @inline(__always)
    mutating func startFade(_ voices: borrowing VoiceSlots, _ v: Int, step: Float) {
        if voices.fadeStep[v] == 0 { if voices.stage[v] != Synth.Stage.free { sounding -= 1 } }
        voices.fadeStep[v] = max(voices.fadeStep[v], step)
    }

    /// Slot `v` is free again (its voice ended, faded out, or the synth was reset).
    @_noLocks @inline(__always)
    mutating func free(_ voices: borrowing VoiceSlots, _ v: Int) {
        if voices.fadeStep[v] == 0 { if voices.stage[v] != Synth.Stage.free { sounding -= 1 } }
        voices.stage[v] = Synth.Stage.free
        voices.held[v] = 0
        voices.envelope[v] = 0
        voices.fade[v] = 1
        voices.fadeStep[v] = 0
    }

    /// After a `render`: every voice has been heard, and the free slots at the top leave the loops.
    @_noLocks
    mutating func rendered(_ voices: borrowing VoiceSlots) {
        unheardAge = nextAge
        var limit = slotLimit
        while limit > 0 && voices.stage[limit - 1] == Synth.Stage.free { limit -= 1 }
        slotLimit = limit
    }

    /// Every slot free (`prepare`).
    @_noLocks
    mutating func reset(_ voices: borrowing VoiceSlots) {
        for v in 0..<slotCount { free(voices, v) }
        slotLimit = 0
        sounding = 0
        unheardAge = nextAge
    }
}
