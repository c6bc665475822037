// A group's envelopes, LFOs and glide moved on per control block as vector arithmetic on eight lanes
// (`renderSampleGroup`'s rows, `SampleControl`), gathered from the voices once a call and written back at its
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

extension Synth {
    /// Lane `l`'s envelope (the volume one at `value` = `SampleControl.volumeValue`, the modulation one at
    /// `modulationValue`: value, step, low, high; and its `wait` row) and its stage into the rows.
    @_noLocks @inline(__always)
    func setEnvelopeRows(_ rows: SampleRows, _ l: Int, _ e: SampleEnvelope, value: Int, wait: Int, stage: Int) {
        let floats = rows.floats
        let ramp = e.ramp
        floats[8 &* value &+ l] = e.value
        floats[8 &* (value &+ 1) &+ l] = ramp.step
        floats[8 &* (value &+ 2) &+ l] = ramp.low
        floats[8 &* (value &+ 3) &+ l] = ramp.high
        floats[8 &* wait &+ l] = ramp.wait
        rows.ints[8 &* stage &+ l] = e.stage
    }

    /// Lane `l`'s voice's envelopes, LFOs and glide into the rows, once a call.
    @_noLocks @inline(__always)
    func gatherControls(_ rows: SampleRows, _ l: Int, voice: UnsafeMutablePointer<SampleVoice>, slot v: Int) {
        let floats = rows.floats
        setEnvelopeRows(rows, l, voice.pointee.volumeEnvelope, value: SampleControl.volumeValue, wait: SampleControl.volumeWait,
                        stage: SampleControl.volumeStage)
        setEnvelopeRows(rows, l, voice.pointee.modulationEnvelope, value: SampleControl.modulationValue,
                        wait: SampleControl.modulationWait, stage: SampleControl.modulationStage)
        floats[8 &* SampleControl.modLFOPhase &+ l] = voice.pointee.modulationLFO.phase
        floats[8 &* SampleControl.modLFOIncrement &+ l] = voice.pointee.modulationLFO.increment
        floats[8 &* SampleControl.modLFOWait &+ l] = voice.pointee.modulationLFO.remaining
        floats[8 &* SampleControl.vibLFOPhase &+ l] = voice.pointee.vibratoLFO.phase
        floats[8 &* SampleControl.vibLFOIncrement &+ l] = voice.pointee.vibratoLFO.increment
        floats[8 &* SampleControl.vibLFOWait &+ l] = voice.pointee.vibratoLFO.remaining
        floats[8 &* SampleControl.glide &+ l] = voices.glide[v]
        floats[8 &* SampleControl.glideStep &+ l] = voices.glideStep[v]
    }

    /// The rows' moving values back into lane `l`'s voice at the end of a call.
    @_noLocks @inline(__always)
    func scatterControls(_ rows: SampleRows, _ l: Int, voice: UnsafeMutablePointer<SampleVoice>, slot v: Int) {
        let floats = rows.floats
        voice.pointee.volumeEnvelope.value = floats[8 &* SampleControl.volumeValue &+ l]
        voice.pointee.modulationEnvelope.value = floats[8 &* SampleControl.modulationValue &+ l]
        if voice.pointee.volumeEnvelope.waits {
            voice.pointee.volumeEnvelope.remaining = floats[8 &* SampleControl.volumeWait &+ l]
        }
        if voice.pointee.modulationEnvelope.waits {
            voice.pointee.modulationEnvelope.remaining = floats[8 &* SampleControl.modulationWait &+ l]
        }
        voice.pointee.modulationLFO.phase = floats[8 &* SampleControl.modLFOPhase &+ l]
        voice.pointee.vibratoLFO.phase = floats[8 &* SampleControl.vibLFOPhase &+ l]
        voices.glide[v] = floats[8 &* SampleControl.glide &+ l]
    }

    /// One control block of `samples` samples for the group's `count` lanes (`slots`): the envelopes and
    /// LFOs moved on, and the rows the block's pitch, level and cutoff are made of (`modLFO`, `vibLFO`,
    /// `modEnv`, `glide` as it was at the block's start, `envelope`, `envelopeCentibels`); the glide moved on.
    @_noLocks @inline(__always)
    func stepControls(_ rows: SampleRows, _ slots: UnsafeMutablePointer<Int32>, count: Int, samples: Int) {
        let floats = rows.floats, ints = rows.ints
        @inline(__always) func row(_ r: Int) -> Lanes { UnsafeRawPointer(floats + 8 &* r).loadUnaligned(as: Lanes.self) }
        @inline(__always) func setRow(_ r: Int, _ x: Lanes) { UnsafeMutableRawPointer(floats + 8 &* r).storeBytes(of: x, as: Lanes.self) }
        @inline(__always) func intRow(_ r: Int) -> LaneInts { UnsafeRawPointer(ints + 8 &* r).loadUnaligned(as: LaneInts.self) }
        let n = Float(samples), block = Lanes(repeating: n)
        let used = LaneInts(0, 1, 2, 3, 4, 5, 6, 7) .< LaneInts(repeating: Int32(truncatingIfNeeded: count))

        // The envelopes: each a ramp within its stage; a lane that leaves it goes through `advance`.
        @inline(__always) func envelope(_ value: Int, wait: Int, stage: Int, volume: Bool) {
            let next = row(value) + row(value &+ 1) * block
            let left = row(wait)
            let stays = next .> row(value &+ 2) .& next .< row(value &+ 3) .& left .> block
            var moved = row(value)
            moved.replace(with: next, where: stays)
            setRow(value, moved)
            setRow(wait, left - block)
            let leaves = .!stays .& used
            guard anyLane(leaves) else { return }
            for l in 0..<count where leaves[l] {
                let voice = self.samples.slots.state.baseAddress + Int(slots[l])
                var e = volume ? voice.pointee.volumeEnvelope : voice.pointee.modulationEnvelope
                e.value = floats[8 &* value &+ l]
                if e.waits { e.remaining = left[l] }
                e.advance(n)
                if volume { voice.pointee.volumeEnvelope = e } else { voice.pointee.modulationEnvelope = e }
                setEnvelopeRows(rows, l, e, value: value, wait: wait, stage: stage)
            }
        }
        envelope(SampleControl.volumeValue, wait: SampleControl.volumeWait, stage: SampleControl.volumeStage, volume: true)
        envelope(SampleControl.modulationValue, wait: SampleControl.modulationWait, stage: SampleControl.modulationStage,
                 volume: false)

        // The LFOs: the phase on by the block, less one past 1 (at most once a block below a 4 kHz rate);
        // a lane still in its delay, or past 2, through `advance`.
        @inline(__always) func lfo(_ phaseRow: Int, modulation: Bool) -> Lanes {
            let before = row(phaseRow)
            let waits = row(phaseRow &+ 2) .> Lanes.zero .& used
            var phase = before + block * row(phaseRow &+ 1)
            let one = Lanes(repeating: 1)
            phase.replace(with: phase - one, where: phase .>= one)
            let slow = waits .| phase .>= one
            if anyLane(slow) {
                for l in 0..<count where slow[l] {
                    if waits[l] { // from where it was, through its delay
                        let voice = self.samples.slots.state.baseAddress + Int(slots[l])
                        var lfo = modulation ? voice.pointee.modulationLFO : voice.pointee.vibratoLFO
                        lfo.phase = before[l]
                        lfo.advance(n)
                        if modulation { voice.pointee.modulationLFO = lfo } else { voice.pointee.vibratoLFO = lfo }
                        phase[l] = lfo.phase
                        floats[8 &* (phaseRow &+ 2) &+ l] = lfo.remaining
                    } else { // two or more past 1
                        let p = phase[l] + 1
                        phase[l] = p - Float(Int(p))
                    }
                }
            }
            setRow(phaseRow, phase)
            // The triangle: 4p below 1/4, 2 - 4p to 3/4, 4p - 4 above (the same values without a branch).
            let p4 = phase * 4
            return maxLanes(minLanes(p4, Lanes(repeating: 2) - p4), p4 - 4)
        }
        setRow(SampleControl.modLFO, lfo(SampleControl.modLFOPhase, modulation: true))
        setRow(SampleControl.vibLFO, lfo(SampleControl.vibLFOPhase, modulation: false))
        setRow(SampleControl.modEnv, row(SampleControl.modulationValue))

        // The volume envelope past its attack is 96 dB x (1 - value) of attenuation: added to the voice's
        // centibels, so one vector exp2 per block turns both into the level.
        let stages = intRow(SampleControl.volumeStage), value = row(SampleControl.volumeValue)
        let attack = stages .== LaneInts(repeating: SampleEnvelope.attack)
        let silent = stages .== LaneInts(repeating: SampleEnvelope.delay) .| stages .== LaneInts(repeating: SampleEnvelope.done)
        var centibels = (Lanes(repeating: 1) - value) * 960
        centibels.replace(with: 0, where: attack .| silent)
        setRow(SampleControl.envelopeCentibels, centibels)
        var level = Lanes(repeating: 1)
        level.replace(with: value, where: attack)
        level.replace(with: 0, where: silent)
        setRow(SampleControl.envelope, level)

        // Portamento (Synth+Portamento.swift), stepped per block as FluidSynth's: the block plays the glide as
        // it was (the `glide` row), which then moves toward 0 by its step.
        let glide = row(SampleControl.glide)
        setRow(SampleControl.glideNow, glide)
        if anyLane(glide .!= Lanes.zero) {
            let moved = row(SampleControl.glideStep) * n
            var down = glide - moved
            down.replace(with: 0, where: Lanes.zero .>= down) // Swift.max(x, 0)
            var up = glide + moved
            up.replace(with: 0, where: Lanes.zero .< up) // Swift.min(x, 0)
            var next = glide
            next.replace(with: down, where: glide .> Lanes.zero)
            next.replace(with: up, where: glide .< Lanes.zero)
            setRow(SampleControl.glide, next)
        }
    }
}
