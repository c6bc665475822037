// A group's envelopes, LFOs and glide moved on per control block as vector arithmetic on eight lanes
// (`SampleGroupRows`: `EnvelopeLanes`, `LFOLanes`), gathered from the voices once a call and written back at its
// end. A block that keeps every envelope in its stage and no LFO waiting (nearly all of them) takes a few
// vector operations for the group; a lane that leaves a stage, or whose LFO still waits, goes through its
// voice's own scalar code (`SampleEnvelope.advance`, `SampleLFO.advance`) and its rows are read back. The
// arithmetic is the scalar code's, operation for operation, so the values are the same.

extension SampleEnvelope {
    /// Whether it is in its delay or hold (`remaining` counts down).
    var waits: Bool { @_noLocks get { stage == SampleEnvelope.delay || stage == SampleEnvelope.holding } }

    /// The stage as a ramp: a block of n samples takes the value to value + step x n, and stays in the
    /// stage while that lies strictly between `low` and `high` and more than n samples are left to `wait`
    /// (what `advance` does: the decay and release step down, to the sustain level and 0; the attack up, to
    /// 1; delay and hold wait, their samples left going down by n; sustain and done hold).
    var ramp: (step: Float, low: Float, high: Float, wait: Float) {
        @_noLocks get {
            // Selects, not a switch: a group's voices are in different stages, so a jump on the stage would
            // mispredict; and not a table indexed by the stage, which would have to be built from the fields.
            let s = stage, inf = Float.infinity
            let step = s == SampleEnvelope.attack ? attackStep
                : s == SampleEnvelope.decay ? -decayStep : s == SampleEnvelope.release ? -releaseStep : 0
            let low = s == SampleEnvelope.decay ? sustain : s == SampleEnvelope.release ? 0 : -inf
            let high: Float = s == SampleEnvelope.attack ? 1 : inf
            let wait = waits ? remaining : inf
            return (step, low, high, wait)
        }
    }
}

extension EnvelopeLanes {
    /// Lane `l` takes envelope `e`: its value, its stage's ramp, its stage.
    @_noLocks @inline(__always)
    mutating func set(lane l: Int, _ e: SampleEnvelope) {
        let ramp = e.ramp
        value[l] = e.value
        step[l] = ramp.step
        low[l] = ramp.low
        high[l] = ramp.high
        wait[l] = ramp.wait
        stage[l] = e.stage
    }

    /// A block of `block` samples for the `count` lanes of `used` (the voices `voices[slots[l]]`, whose
    /// volume envelope this is, or their modulation one): a lane that stays in its stage moves along its
    /// ramp and its wait counts down; one that leaves it goes through its voice's `SampleEnvelope.advance`.
    @_noLocks @_transparent
    mutating func advance(_ block: Lanes, used: SIMDMask<LaneInts>, voices: UnsafeMutablePointer<SampleVoice>,
                          _ slots: UnsafeMutablePointer<Int32>, count: Int, volume: Bool) {
        let next = value + step * block
        let left = wait
        let stays = next .> low .& next .< high .& left .> block
        value.replace(with: next, where: stays)
        wait = left - block
        let leaves = .!stays .& used
        guard anyLane(leaves) else { return }
        for l in 0..<count where leaves[l] {
            let voice = voices + Int(slots[l])
            var e = volume ? voice.pointee.volumeEnvelope : voice.pointee.modulationEnvelope
            e.value = value[l]
            if e.waits { e.remaining = left[l] }
            e.advance(block[0])
            if volume { voice.pointee.volumeEnvelope = e } else { voice.pointee.modulationEnvelope = e }
            set(lane: l, e)
        }
    }
}

extension LFOLanes {
    /// A block of `block` samples for the `count` lanes of `used` (the voices `voices[slots[l]]`, whose
    /// modulation LFO this is, or their vibrato one): the phase on by the block, less one past 1 (at most
    /// once a block below a 4 kHz rate); a lane still in its delay, or past 2, through `SampleLFO.advance`.
    /// Returns the block's values: the triangle, 4p below 1/4, 2 - 4p to 3/4, 4p - 4 above (the same values
    /// without a branch).
    @_noLocks @_transparent
    mutating func advance(_ block: Lanes, used: SIMDMask<LaneInts>, voices: UnsafeMutablePointer<SampleVoice>,
                          _ slots: UnsafeMutablePointer<Int32>, count: Int, modulation: Bool) -> Lanes {
        let before = phase
        let waits = wait .> Lanes.zero .& used
        var moved = before + block * increment
        let one = Lanes(repeating: 1)
        moved.replace(with: moved - one, where: moved .>= one)
        let slow = waits .| moved .>= one
        if anyLane(slow) {
            for l in 0..<count where slow[l] {
                if waits[l] { // from where it was, through its delay
                    let voice = voices + Int(slots[l])
                    var lfo = modulation ? voice.pointee.modulationLFO : voice.pointee.vibratoLFO
                    lfo.phase = before[l]
                    lfo.advance(block[0])
                    if modulation { voice.pointee.modulationLFO = lfo } else { voice.pointee.vibratoLFO = lfo }
                    moved[l] = lfo.phase
                    wait[l] = lfo.remaining
                } else { // two or more past 1
                    let p = moved[l] + 1
                    moved[l] = p - Float(Int(p))
                }
            }
        }
        phase = moved
        let p4 = moved * 4
        var value = maxLanes(minLanes(p4, Lanes(repeating: 2) - p4), p4 - 4)
        let sines = sine .!= LaneInts.zero
        if anyLane(sines) { value.replace(with: sineOfTriangle(value), where: sines) }
        return value
    }
}

extension Synth {
    /// Lane `l`'s voice's envelopes, LFOs and glide into the rows, once a call.
    @_noLocks @inline(__always)
    func gatherControls(_ rows: UnsafeMutablePointer<SampleGroupRows>, _ l: Int, voice: UnsafeMutablePointer<SampleVoice>,
                        slot v: Int) {
        rows.pointee.controls.volumeEnvelope.set(lane: l, voice.pointee.volumeEnvelope)
        rows.pointee.controls.modulationEnvelope.set(lane: l, voice.pointee.modulationEnvelope)
        rows.pointee.controls.modulationLFO.phase[l] = voice.pointee.modulationLFO.phase
        rows.pointee.controls.modulationLFO.increment[l] = voice.pointee.modulationLFO.increment
        rows.pointee.controls.modulationLFO.wait[l] = voice.pointee.modulationLFO.remaining
        rows.pointee.controls.modulationLFO.sine[l] = voice.pointee.modulationLFO.isSine ? 1 : 0
        rows.pointee.controls.vibratoLFO.phase[l] = voice.pointee.vibratoLFO.phase
        rows.pointee.controls.vibratoLFO.increment[l] = voice.pointee.vibratoLFO.increment
        rows.pointee.controls.vibratoLFO.wait[l] = voice.pointee.vibratoLFO.remaining
        rows.pointee.controls.vibratoLFO.sine[l] = voice.pointee.vibratoLFO.isSine ? 1 : 0
        rows.pointee.controls.glide[l] = voices.glide[v]
        rows.pointee.controls.glideStep[l] = voices.glideStep[v]
    }

    /// The rows' moving values back into lane `l`'s voice at the end of a call.
    @_noLocks @inline(__always)
    func scatterControls(_ rows: UnsafeMutablePointer<SampleGroupRows>, _ l: Int, voice: UnsafeMutablePointer<SampleVoice>,
                         slot v: Int) {
        voice.pointee.volumeEnvelope.value = rows.pointee.controls.volumeEnvelope.value[l]
        voice.pointee.modulationEnvelope.value = rows.pointee.controls.modulationEnvelope.value[l]
        if voice.pointee.volumeEnvelope.waits {
            voice.pointee.volumeEnvelope.remaining = rows.pointee.controls.volumeEnvelope.wait[l]
        }
        if voice.pointee.modulationEnvelope.waits {
            voice.pointee.modulationEnvelope.remaining = rows.pointee.controls.modulationEnvelope.wait[l]
        }
        voice.pointee.modulationLFO.phase = rows.pointee.controls.modulationLFO.phase[l]
        voice.pointee.vibratoLFO.phase = rows.pointee.controls.vibratoLFO.phase[l]
        voices.glide[v] = rows.pointee.controls.glide[l]
    }

    /// One control block of `samples` samples for the group's `count` lanes (`slots`): the envelopes and
    /// LFOs moved on, and the rows the block's pitch, level and cutoff are made of (`modLFO`, `vibLFO`,
    /// `modEnv`, `glideNow`: the glide as it was at the block's start, `envelope`, `envelopeCentibels`); the
    /// glide moved on.
    @_noLocks @inline(__always)
    func stepControls(_ rows: UnsafeMutablePointer<SampleGroupRows>, _ slots: UnsafeMutablePointer<Int32>, count: Int,
                      samples: Int) {
        let n = Float(samples), block = Lanes(repeating: n)
        let used = LaneInts(0, 1, 2, 3, 4, 5, 6, 7) .< LaneInts(repeating: Int32(truncatingIfNeeded: count))

        let voices = self.samples.slots.state.baseAddress
        rows.pointee.controls.volumeEnvelope.advance(block, used: used, voices: voices, slots, count: count, volume: true)
        rows.pointee.controls.modulationEnvelope.advance(block, used: used, voices: voices, slots, count: count, volume: false)
        rows.pointee.block.modLFO = rows.pointee.controls.modulationLFO.advance(block, used: used, voices: voices, slots, count: count,
                                                                  modulation: true)
        rows.pointee.block.vibLFO = rows.pointee.controls.vibratoLFO.advance(block, used: used, voices: voices, slots, count: count,
                                                               modulation: false)
        rows.pointee.block.modEnv = rows.pointee.controls.modulationEnvelope.value

        // The volume envelope past its attack is 96 dB x (1 - value) of attenuation: added to the voice's
        // centibels, so one vector exp2 per block turns both into the level.
        let stages = rows.pointee.controls.volumeEnvelope.stage, value = rows.pointee.controls.volumeEnvelope.value
        let attack = stages .== LaneInts(repeating: SampleEnvelope.attack)
        let silent = stages .== LaneInts(repeating: SampleEnvelope.delay) .| stages .== LaneInts(repeating: SampleEnvelope.done)
        var centibels = (Lanes(repeating: 1) - value) * 960
        centibels.replace(with: 0, where: attack .| silent)
        rows.pointee.block.envelopeCentibels = centibels
        var level = Lanes(repeating: 1)
        level.replace(with: value, where: attack)
        level.replace(with: 0, where: silent)
        rows.pointee.block.envelope = level

        // Portamento (Synth+Portamento.swift), stepped per block as FluidSynth's: the block plays the glide as
        // it was (the `glide` row), which then moves toward 0 by its step.
        let glide = rows.pointee.controls.glide
        rows.pointee.block.glideNow = glide
        if anyLane(glide .!= Lanes.zero) {
            let moved = rows.pointee.controls.glideStep * n
            var down = glide - moved
            down.replace(with: 0, where: Lanes.zero .>= down) // Swift.max(x, 0)
            var up = glide + moved
            up.replace(with: 0, where: Lanes.zero .< up) // Swift.min(x, 0)
            var next = glide
            next.replace(with: down, where: glide .> Lanes.zero)
            next.replace(with: up, where: glide .< Lanes.zero)
            rows.pointee.controls.glide = next
        }
    }
}
