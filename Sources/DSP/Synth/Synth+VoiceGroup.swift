// One group of up to eight voices, one per SIMD lane: envelopes (LaneEnvelope.swift), filter coefficient planning, then the
// oscillator-and-filter loops of VoiceLanes.swift.

extension Synth {
    /// Phase steps per sample for lanes whose channel's pitch moves, into `incrementScratch`: exact at every
    /// `coefficientInterval`-th sample and the last, linear in between (in fixed point). Vibrato moves the
    /// pitch by at most 0.5 semitone at 5.5 Hz: a straight line over 8 samples is off by under 1e-7 of it.
    /// Portamento (`glides`, cents now, moving to 0 by `glideSteps` a sample) is in the exact points too.
    @_noLocks @inline(never)
    func fillIncrements(frames: Int, bases: Lanes, channelOffsets: SIMD8<Int32>, count: Int,
                        glides: Lanes = .zero, glideSteps: Lanes = .zero, gliding: Bool = false,
                        keys: KeyVibratoLanes = KeyVibratoLanes()) {
        let pitch = mix.scratch.pitch, out = mix.scratch.increments, lfoRows = mix.scratch.vibrato
        @inline(__always) func steps(at n: Int) -> LaneBits {
            var ratios = Lanes(repeating: 1)
            for l in 0..<count { ratios[l] = pitch[Int(channelOffsets[l]) &+ n] }
            if gliding { ratios *= exp2Lanes(glideAt(glides, glideSteps, frames: Float(n)) * (1.0 / 1200)) }
            if keys.isOn { ratios *= keys.ratios(at: n, lfoRows: lfoRows, channelOffsets: channelOffsets, count: count) }
            let cycles = minLanes(bases * ratios, Lanes(repeating: 0.49)) * phaseStepsPerCycle
            var result = LaneBits()
            for l in 0..<8 { result[l] = UInt32(cycles[l]) }
            return result
        }
        let interval = coefficientInterval
        var n0 = 0
        var s0 = steps(at: 0)
        while n0 < frames - 1 {
            let n1 = min(n0 + interval, frames - 1)
            let s1 = steps(at: n1)
            // Steps stay below 2^31 (0.49 cycle): differences fit in Int32.
            let difference = SIMD8<Int32>(truncatingIfNeeded: s1) &- SIMD8<Int32>(truncatingIfNeeded: s0)
            let slope = n1 - n0 == 8 ? difference &>> 3 : difference / Int32(n1 - n0)
            var current = SIMD8<Int32>(truncatingIfNeeded: s0)
            for n in n0..<n1 {
                out[n] = LaneBits(truncatingIfNeeded: current)
                current &+= slope
            }
            s0 = s1
            n0 = n1
        }
        out[frames - 1] = s0
    }

    /// Renders up to eight voices (`slots[0..<count]`) of built-in patch `patch` in the lanes of SIMD8 vectors,
    /// adding into the lane sums: the patch's waveform, envelope shape and smoothed filter values of this slice
    /// (`patchStates`, its rows of the scratch). A steady group's lanes are also stored into `keep` if given
    /// (Synth+LaneCache.swift).
    @_noLocks @inline(__always)
    func renderGroup(_ slots: UnsafeMutablePointer<Int32>, count: Int, kind: GroupKind, patch: Int, frames: Int,
                             pitchMoves: UInt16, gainsMove: UInt16,
                             keep: UnsafeMutablePointer<LaneCache.Entry>? = nil) {
        let state = builtIn.patchStates.state + patch
        let wave = state.pointee.wave
        let envelopeShape = state.pointee.shape
        var phases = LaneBits(), steps = LaneBits(), offsets = LaneBits()
        var z1 = Lanes(), z2 = Lanes(), fades = Lanes(), fadeSteps = Lanes()
        var gains = Lanes(), scales = Lanes(), bases = Lanes(), halfLeft = Lanes(), halfRight = Lanes()
        var envelope = LaneEnvelope(shape: envelopeShape, count: count)
        var channelOffsets = SIMD8<Int32>()
        var pitchVaries = false, gainsVary = false
        var glides = Lanes(), glideSteps = Lanes(), gliding = false
        var keys = KeyVibratoLanes() // polyphonic key pressure (Synth+KeyPressure.swift)
        // A gliding group whose channels have no vibrato and whose glides go on through the slice, each
        // moving at most `rampLimitCents`, ramps its phase steps linearly (`rampAndFilter`).
        var rampable = true
        let frameCount = maxFrames
        let row = patch &* frameCount // the patch's smoothed filter values
        let cutoffs = mix.scratch.cutoff + row, amounts = mix.scratch.envelopeAmount + row, damping = mix.scratch.damping + row
        // A group that sends to the effects is rendered apart, then folded into the sums (Synth+Effects.swift).
        let sends = wavetableSends(slots, count: count)
        let split = mix.outputs.isOn // per-channel outputs: every group apart (Synth+ChannelOutputs.swift)
        let outLeft = sends.any || split ? mix.effects.groupLeft : mix.scratch.sumLeft
        let outRight = sends.any || split ? mix.effects.groupRight : mix.scratch.sumRight
        let pitchRows = mix.scratch.pitch, pitchMax = mix.scratch.pitchMax
        let gainRowsLeft = mix.scratch.left, gainRowsRight = mix.scratch.right
        let pairOffsets = builtIn.wavetables.pairOffsets, levels = builtIn.wavetables.levelForMaxHarmonics
        let levelCount = builtIn.wavetables.levelCount
        for l in 0..<count {
            let v = Int(slots[l])
            let ch = Int(voices.channel[v])
            let chBit: UInt16 = 1 << UInt16(ch)
            let base = builtIn.slots.increment[v]
            envelope.gather(lane: l, stage: voices.stage[v], level: voices.envelope[v])
            phases[l] = builtIn.slots.phase[v]
            z1[l] = voices.ic1[v]; z2[l] = voices.ic2[v]
            fades[l] = voices.fade[v]; fadeSteps[l] = voices.fadeStep[v]
            gains[l] = voices.amplitude[v]; scales[l] = builtIn.slots.filterScale[v]; bases[l] = base
            channelOffsets[l] = Int32(ch * frameCount)
            // The richest table whose harmonics stay below Nyquist at this slice's highest pitch.
            var maxIncrement = min(base * pitchMax[ch], 0.49)
            let glide = voices.glide[v]
            if glide != 0 { // portamento: the phase steps ramp (it starts above its note when positive)
                glides[l] = glide; glideSteps[l] = voices.glideStep[v]
                gliding = true; pitchVaries = true
                let moved = voices.glideStep[v] * Float(frames)
                if abs(glide) <= moved || moved > rampLimitCents { rampable = false }
                maxIncrement = min(maxIncrement * FastMath.exp2(max(glide, 0) * (1.0 / 1200)), 0.49)
            }
            let allowed = Int(min(0.5 / max(maxIncrement, 1e-6), maxHarmonics))
            offsets[l] = pairOffsets[wave * levelCount + Int(levels[max(allowed, 1)])]
            if controls.channels[ch].vibrato.keyVibrato { gatherKeyVibrato(v, channel: ch, lane: l, frames: frames, into: &keys) }
            if pitchMoves & chBit != 0 { pitchVaries = true; rampable = false } else {
                steps[l] = UInt32(min(base * pitchRows[ch * frameCount], 0.49) * phaseStepsPerCycle)
            }
            if gainsMove & chBit != 0 { gainsVary = true }
            // Both gains are halved: the filter's output form yields twice its v2.
            halfLeft[l] = 0.5 * gainRowsLeft[ch * frameCount]
            halfRight[l] = 0.5 * gainRowsRight[ch * frameCount]
        }

        let perSample = mix.scratch.lanes, stride = frameCount
        var isMoving = false // pattern matching: an enum's `==` lives in another file, out of the checker's sight
        if case .moving = kind { isMoving = true }
        var b1 = Lanes(), b2 = Lanes(), b3 = Lanes(), levelLeft = Lanes(), levelRight = Lanes()
        var slopes = LaneBits()
        if case .gliding = kind {
            if rampable { // exact steps at the slice's first sample and one past its last, a line between
                var ratios = Lanes(repeating: 1)
                for l in 0..<count { ratios[l] = mix.scratch.pitch[Int(channelOffsets[l])] }
                let first = minLanes(bases * ratios * exp2Lanes(glides * (1.0 / 1200)), Lanes(repeating: 0.49))
                    * phaseStepsPerCycle
                let end = glideAt(glides, glideSteps, frames: Float(frames))
                let last = minLanes(bases * ratios * exp2Lanes(end * (1.0 / 1200)), Lanes(repeating: 0.49))
                    * phaseStepsPerCycle
                var s0 = SIMD8<Int32>(), s1 = SIMD8<Int32>()
                for l in 0..<8 { s0[l] = Int32(first[l]); s1[l] = Int32(last[l]) } // below 2^31: 0.49 cycle
                steps = LaneBits(truncatingIfNeeded: s0)
                slopes = LaneBits(truncatingIfNeeded: (s1 &- s0) / Int32(frames))
            } else {
                fillIncrements(frames: frames, bases: bases, channelOffsets: channelOffsets, count: count,
                               glides: glides, glideSteps: glideSteps, gliding: gliding, keys: keys)
            }
        }
        if !isMoving {
            let env = envelope.level
            // Settled in the decay stage: each step returns env unchanged, as does the fade (step 0).
            (b1, b2, b3) = filterCoefficients(octaves: cutoffs[0] + (amounts[0] * scales) * env,
                                              k: damping[0], inverseRate: rates.inverseRate)
            let level = env * gains * fades
            levelLeft = level * halfLeft
            levelRight = level * halfRight
        } else {
            let rate = rates.inverseRate
            let gl = mix.scratch.left, gr = mix.scratch.right
            if pitchVaries {
                fillIncrements(frames: frames, bases: bases, channelOffsets: channelOffsets, count: count,
                               glides: glides, glideSteps: glideSteps, gliding: gliding, keys: keys)
            }
            let zero = Lanes.zero
            for n in 0..<frames {
                let env = envelope.process()
                fades = maxLanes(fades - fadeSteps, zero)
                let level = env * gains * fades
                if gainsVary {
                    for l in 0..<count {
                        halfLeft[l] = 0.5 * gl[Int(channelOffsets[l]) + n]
                        halfRight[l] = 0.5 * gr[Int(channelOffsets[l]) + n]
                    }
                }
                perSample[2 * stride + n] = env // read back by the coefficient pass below
                perSample[3 * stride + n] = level * halfLeft
                perSample[4 * stride + n] = level * halfRight
            }
            planCoefficients(frames: frames, scales: scales, cutoffs: cutoffs, amounts: amounts, damping: damping,
                             inverseRate: rate, perSample: perSample, stride: stride)
        }

        // Steady groups and rampable glides share the ramp loop: a steady group's slopes are zero (`slopes`
        // is set only for a ramp above), so its steps stay constant, the same samples as a constant-step loop.
        var ramps = false
        if case .steady = kind { ramps = true } else if case .gliding = kind, rampable { ramps = true }
        let halves = count > 4 ? 2 : 1 // a group's loops run half a group at a time (VoiceLanes.swift)
        if ramps {
            for half in 0..<halves {
                rampAndFilter(frames: frames, half: half, pairs: builtIn.wavetables.pairs, tableOffsets: offsets, phase: &phases,
                              increment: steps, slope: slopes, z1: &z1, z2: &z2, b1: b1, b2: b2, b3: b3,
                              levelLeft: levelLeft, levelRight: levelRight, left: outLeft, right: outRight)
            }
        } else if case .gliding = kind {
            let halfSteps = UnsafeRawPointer(mix.scratch.increments).assumingMemoryBound(to: HalfLaneBits.self)
            for half in 0..<halves {
                glideAndFilter(frames: frames, half: half, pairs: builtIn.wavetables.pairs, tableOffsets: offsets, phase: &phases,
                               increments: halfSteps, z1: &z1, z2: &z2, b1: b1, b2: b2, b3: b3,
                               levelLeft: levelLeft, levelRight: levelRight, left: outLeft, right: outRight)
            }
        } else {
            oscillateAndFilter(frames: frames, pairs: builtIn.wavetables.pairs, tableOffsets: offsets, phase: &phases, increment: steps,
                               increments: mix.scratch.increments, incrementsVary: pitchVaries, z1: &z1, z2: &z2,
                               perSample: perSample, stride: stride, left: outLeft, right: outRight)
        }

        if split {
            foldSplit(slots, count: count, frames: frames, reverb: sends.reverb, chorus: sends.chorus, sends: sends.any)
        } else if sends.any { mix.foldGroup(frames: frames, reverb: sends.reverb, chorus: sends.chorus) }

        for l in 0..<count {
            let v = Int(slots[l])
            if envelope.stages[l] == Stage.free || fades[l] <= 0 {
                freeVoice(v)
                continue
            }
            voices.stage[v] = envelope.stages[l]
            builtIn.slots.phase[v] = phases[l]
            voices.envelope[v] = envelope.level[l]
            voices.fade[v] = fades[l]
            if gliding { voices.glide[v] = glideAt(glides, glideSteps, frames: Float(frames))[l] }
            // Flush states too small to matter: denormal arithmetic is slow.
            voices.ic1[v] = abs(z1[l]) < 1e-30 ? 0 : z1[l]
            voices.ic2[v] = abs(z2[l]) < 1e-30 ? 0 : z2[l]
        }
        if let keep, case .steady = kind { // field by field: an initializer in another file is out of the checker's sight
            keep.pointee.phase = phases; keep.pointee.step = steps; keep.pointee.offset = offsets
            keep.pointee.z1 = flushTiny(z1); keep.pointee.z2 = flushTiny(z2)
            keep.pointee.b1 = b1; keep.pointee.b2 = b2; keep.pointee.b3 = b3
            keep.pointee.levelLeft = levelLeft; keep.pointee.levelRight = levelRight
            keep.pointee.reverb = sends.reverb; keep.pointee.chorus = sends.chorus
            var kept = SIMD8<Int32>(repeating: -1), channels: UInt16 = 0
            for l in 0..<count {
                kept[l] = slots[l]
                channels |= 1 << UInt16(voices.channel[Int(slots[l])])
            }
            keep.pointee.slots = kept
            keep.pointee.channels = channels
            keep.pointee.count = count
        }
    }
}

/// A glide that moves at most this many cents over a slice is ramped linearly in phase steps (`rampAndFilter`):
/// the straight line is then off the exponential curve by under 0.2 cent.
var rampLimitCents: Float { @_noLocks get { 50 } }

/// Portamento glides (cents, lane by lane) `frames` samples on: each moved toward 0 by its step, stopping there.
@_noLocks @inline(__always)
func glideAt(_ glides: Lanes, _ steps: Lanes, frames: Float) -> Lanes {
    let moved = steps * frames
    return maxLanes(glides - moved, .zero) + minLanes(glides + moved, .zero)
}
