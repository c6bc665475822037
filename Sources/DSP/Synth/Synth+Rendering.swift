// Rendering one period: each sounding patch's parameters smoothed per sample, each channel's pitch and gains,
// the sounding voices sorted into groups of eight of one patch (Synth+VoiceGroup.swift renders a group), then
// the mix.

extension Synth {
    /// Writes (does not add) `frames` stereo samples, `frames <= maxFrames`. Events handled between two calls
    /// take effect at the first sample of the second; nothing is delayed to a control-rate block.
    @_noLocks
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        left.update(repeating: 0, count: frames)
        right.update(repeating: 0, count: frames)
        guard maxFrames > 0 else { return }
        var offset = 0
        while offset < frames { // tolerate frames > maxFrames by rendering in slices
            let count = min(frames - offset, maxFrames)
            renderSlice(left: left + offset, right: right + offset, frames: count)
            offset += count
        }
        allocator.rendered(voices)
        advanceStreamClocks() // a streamed instrument's evictions wait two render calls (Synth+SampleStream.swift)
        publishCount()
    }

    @_noLocks
    func renderSlice(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        prepareFontSlice(frames: frames) // the sample voices' presets and modulators (Synth+SoundFont.swift)
        prepareEffectsSlice()
        let a = rates.smoothing
        // The channels that have voices, and how many built-in voices play each patch (the patches in use:
        // bits of `patchesInUse`; the counts of the last slice's are set back to 0 first).
        let states = builtIn.patchStates.state
        let sounded = builtIn.patchesInUse // the last slice's
        var bits = sounded
        while true {
            let p = bits.popFirst()
            if p < 0 { break }
            states[p].voices = 0
        }
        var activeChannels: UInt16 = 0, inUse = PatchSet()
        do {
            let stages = voices.stage, kinds = voices.kind, patchOf = builtIn.slots.patch, channels = voices.channel
            for v in 0..<slotLimit where stages[v] != Stage.free {
                activeChannels |= 1 << UInt16(channels[v])
                if kinds[v] == VoiceKind.wavetable {
                    let p = Int(patchOf[v])
                    states[p].voices &+= 1
                    inUse.insert(p)
                }
            }
        }
        builtIn.patchesInUse = inUse
        // Master gain, then each patch in use's values: targets from the atomics, smoothed per sample into the
        // scratch (a patch that had no voices in the last slice starts at its targets: no one heard it move).
        // A patch's voices get a region of the slot lists.
        let masterTarget = FastMath.linear(decibels: parameter(.masterGain)) * masterVolume
        let masterRow = mix.scratch.master
        var master = mix.masterLinear
        for n in 0..<frames {
            master += a * (masterTarget - master)
            masterRow[n] = master
        }
        mix.masterLinear = master
        var regionStart = 0
        bits = inUse
        while true {
            let p = bits.popFirst()
            if p < 0 { break }
            var s = states[p]
            s.wave = min(max(Int(parameter(.waveform, patch: p) + 0.5), 0), Waveform.last)
            s.attackStep = rates.inverseRate / parameter(.attack, patch: p)
            s.sustain = parameter(.sustain, patch: p)
            s.decay = FastMath.exp2(-13.287_712 * rates.inverseRate / parameter(.decay, patch: p)) // -80 dB
            s.release = FastMath.exp2(-16.609_64 * rates.inverseRate / parameter(.release, patch: p)) // -100 dB
            let cutoffTarget = FastMath.log2(parameter(.cutoff, patch: p))
            let kTarget = damping(resonance: parameter(.resonance, patch: p))
            let envelopeTarget = parameter(.filterEnvelopeAmount, patch: p)
            if !sounded.contains(p) {
                s.cutoffOctaves = cutoffTarget; s.resonanceK = kTarget; s.envelopeOctaves = envelopeTarget
            }
            let row = p &* maxFrames
            let cutoffs = mix.scratch.cutoff + row, dampings = mix.scratch.damping + row, amounts = mix.scratch.envelopeAmount + row
            var c = s.cutoffOctaves, k = s.resonanceK, e = s.envelopeOctaves
            // Smoothing moves monotonically toward its target: equal ends mean constant all through the slice.
            let filterBefore = (c, k, e)
            for n in 0..<frames {
                c += a * (cutoffTarget - c)
                k += a * (kTarget - k)
                e += a * (envelopeTarget - e)
                cutoffs[n] = c
                dampings[n] = k
                amounts[n] = e
            }
            s.cutoffOctaves = c; s.resonanceK = k; s.envelopeOctaves = e
            s.sustainHolds = filterBefore == (c, k, e) && s.sustain >= silenceLevel
            s.steadyStart = regionStart
            s.steadyCount = 0
            s.glidingCount = 0
            regionStart += s.voices
            s.otherStart = regionStart
            s.end = regionStart
            states[p] = s
        }

        // Channel controls for the channels that have voices: pitch ratio and gains, per sample.
        var pitchMoves: UInt16 = 0, gainsMove: UInt16 = 0
        let sineTable = builtIn.wavetables.sine
        for ch in 0..<channelCount where activeChannels & (1 << UInt16(ch)) != 0 {
            let pitch = mix.scratch.pitch + ch * maxFrames
            let gl = mix.scratch.left + ch * maxFrames
            let gr = mix.scratch.right + ch * maxFrames
            let state = controls.channels[ch]
            let bendSemitones = state.pitch.bend
            let depthTarget = state.vibrato.modulation
            let leftTarget = targetLeft(ch), rightTarget = targetRight(ch)
            var depth = state.vibrato.vibrato, l = state.levels.gainLeft, r = state.levels.gainRight
            var lfo = VibratoLFO(phase: state.vibrato.lfoPhase, increment: rates.lfoIncrement, sine: sineTable)
            let gainsBefore = (l, r)
            var highest: Float = 0
            let keyVibrato = updateKeyVibrato(ch) // polyphonic key pressure's per-key vibrato (Synth+KeyPressure.swift)
            let lfoRow = mix.scratch.vibrato + ch * maxFrames
            if depthTarget == 0 && depth < 1e-6 && !keyVibrato {
                // No vibrato (the usual case): a constant pitch ratio; the LFO keeps its pace.
                depth = 0
                let ratio = FastMath.exp2(bendSemitones * (1.0 / 12))
                highest = ratio
                lfo.skip(frames)
                for n in 0..<frames {
                    l += a * (leftTarget - l)
                    r += a * (rightTarget - r)
                    pitch[n] = ratio
                    gl[n] = l
                    gr[n] = r
                }
            } else {
                pitchMoves |= 1 << UInt16(ch)
                for n in 0..<frames {
                    depth += a * (depthTarget - depth)
                    l += a * (leftTarget - l)
                    r += a * (rightTarget - r)
                    let s = lfo.process()
                    let ratio = FastMath.exp2((bendSemitones + depth * s) * (1.0 / 12))
                    pitch[n] = ratio
                    lfoRow[n] = s
                    highest = max(highest, ratio)
                    gl[n] = l
                    gr[n] = r
                }
            }
            if keyVibrato { highest *= KeyVibrato.highest }
            if gainsBefore.0 != l || gainsBefore.1 != r { gainsMove |= 1 << UInt16(ch) }
            controls.channels[ch].vibrato.vibrato = depth
            controls.channels[ch].vibrato.lfoPhase = lfo.phase
            controls.channels[ch].levels.gainLeft = l
            controls.channels[ch].levels.gainRight = r
            mix.scratch.pitchMax[ch] = highest
        }

        // Voices in groups of eight, each group of one patch. Steady voices (sustaining at a constant level,
        // filter and channel controls at rest) have the same coefficients and levels at every sample of the
        // slice: they are computed once for them; the others get them per sample. Each patch's steady ones
        // first in its region of the slot list, the rest from the region's end. Settled voices on a channel
        // whose pitch moves (vibrato) or that glide (portamento) differ from steady ones only in their phase
        // steps: they are gathered apart.
        let stages = voices.stage, levels = voices.envelope, fadeSteps = voices.fadeStep, channels = voices.channel
        let kinds = voices.kind, sampleSlots = samples.slots.activeSlots.baseAddress, glides = voices.glide, patchOf = builtIn.slots.patch
        let active = builtIn.slots.activeSlots, gliding = builtIn.slots.glidingSlots
        var sampleCount = 0, drumCount = 0
        for v in 0..<slotLimit where stages[v] != Stage.free {
            if kinds[v] == VoiceKind.drum { // the built-in drum kit: renderDrumVoices below
                drumCount += 1
                continue
            }
            if kinds[v] != VoiceKind.wavetable { // SoundFont voices: renderSampleVoices below
                sampleSlots[sampleCount] = Int32(v)
                sampleCount += 1
                continue
            }
            let state = states + Int(patchOf[v])
            let settled = LaneEnvelope.isSettled(levels[v], sustain: state.pointee.sustain, decay: state.pointee.decay)
            let chBit: UInt16 = 1 << UInt16(channels[v])
            let constantLevel = state.pointee.sustainHolds && stages[v] == Stage.decay && settled
                && fadeSteps[v] == 0 && gainsMove & chBit == 0
            if constantLevel && pitchMoves & chBit == 0 && glides[v] == 0 { // portamento glides with the vibrato
                active[state.pointee.steadyStart &+ state.pointee.steadyCount] = Int32(v)
                state.pointee.steadyCount &+= 1
            } else if constantLevel {
                gliding[state.pointee.steadyStart &+ state.pointee.glidingCount] = Int32(v)
                state.pointee.glidingCount &+= 1
            } else {
                state.pointee.otherStart &-= 1
                active[state.pointee.otherStart] = Int32(v)
            }
        }
        mix.scratch.sumLeft.update(repeating: .zero, count: 2 * frames)
        mix.scratch.sumRight.update(repeating: .zero, count: 2 * frames)
        if mix.outputs.isOn { mix.outputs.beginSlice(frames: frames) } // Synth+ChannelOutputs.swift
        // Each kind's groups patch by patch: steady (unless kept in the lane cache between slices:
        // Synth+LaneCache.swift), gliding, moving. A case per kind: each `renderGroup` is inlined for its kind.
        if builtIn.laneCache.isEnabled {
            renderSteadyGroups(frames: frames, activeChannels: activeChannels, pitchMoves: pitchMoves,
                               gainsMove: gainsMove)
        }
        for pass in (builtIn.laneCache.isEnabled ? 1 : 0)..<3 {
            bits = inUse
            while true {
                let p = bits.popFirst()
                if p < 0 { break }
                let s = states[p]
                var start = pass == 2 ? s.otherStart : s.steadyStart
                let end = pass == 0 ? start + s.steadyCount : pass == 1 ? start + s.glidingCount : s.end
                while start < end {
                    let count = min(8, end - start)
                    switch pass {
                    case 0: renderGroup(active + start, count: count, kind: .steady, patch: p, frames: frames,
                                        pitchMoves: pitchMoves, gainsMove: gainsMove)
                    case 1: renderGroup(gliding + start, count: count, kind: .gliding, patch: p, frames: frames,
                                        pitchMoves: pitchMoves, gainsMove: gainsMove)
                    default: renderGroup(active + start, count: count, kind: .moving, patch: p, frames: frames,
                                         pitchMoves: pitchMoves, gainsMove: gainsMove)
                    }
                    start += count
                }
            }
        }

        if sampleCount > 0 { renderSampleVoices(count: sampleCount, frames: frames) }
        if drumCount > 0 { renderDrumVoices(frames: frames) } // Synth+Drums.swift

        // The send buses' output (Synth+Effects.swift) goes into the mix before the master gain.
        processEffects(left: left, right: right, frames: frames)

        // Sum the lanes, then master gain and a soft knee that keeps the output strictly inside -1...1.
        let knee = clipKnee
        let sl = mix.scratch.sumLeft, sr = mix.scratch.sumRight
        for n in 0..<frames {
            let l4 = sl[2 &* n] + sl[2 &* n &+ 1]
            let r4 = sr[2 &* n] + sr[2 &* n &+ 1]
            let g = mix.scratch.master[n]
            left[n] = softClip((left[n] + ((l4[0] + l4[1]) + (l4[2] + l4[3]))) * g, knee: knee)
            right[n] = softClip((right[n] + ((r4[0] + r4[1]) + (r4[2] + r4[3]))) * g, knee: knee)
        }
        if mix.outputs.isOn { mix.outputs.finishSlice(master: mix.scratch.master, frames: frames) }
    }

    @_noLocks @inline(__always)
    func softClip(_ x: Float, knee: Float) -> Float {
        let magnitude = abs(x)
        guard magnitude > knee else { return x }
        let u = (magnitude - knee) / (1 - knee)
        let y = min(knee + (1 - knee) * u / (1 + u), 0.999_99) // slope 1 at the knee, approaches 1
        return x < 0 ? -y : y
    }
}
