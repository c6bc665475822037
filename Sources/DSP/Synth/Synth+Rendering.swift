// Rendering one period: the global parameters smoothed per sample, each channel's pitch and gains, the
// sounding voices sorted into groups of eight (Synth+VoiceGroup.swift renders a group), then the mix.

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
        publishCount()
    }

    @_noLocks
    func renderSlice(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        if hasFont { prepareFontSlice() }
        prepareEffectsSlice()
        // Global parameters: targets from the atomics, smoothed per sample.
        let wave = min(max(Int(parameter(.waveform) + 0.5), 0), 3)
        let attackStep = inverseRate / parameter(.attack)
        let sustainLevel = parameter(.sustain)
        let decayCoefficient = FastMath.exp2(-13.287_712 * inverseRate / parameter(.decay)) // -80 dB
        let releaseCoefficient = FastMath.exp2(-16.609_64 * inverseRate / parameter(.release)) // -100 dB
        let cutoffTarget = FastMath.log2(parameter(.cutoff))
        let kTarget = damping(resonance: parameter(.resonance))
        let envelopeTarget = parameter(.filterEnvelopeAmount)
        let masterTarget = FastMath.linear(decibels: parameter(.masterGain)) * masterVolume
        var g = smoothed
        let a = g.coefficient
        // Smoothing moves monotonically toward its target: equal ends mean constant all through the slice.
        let filterBefore = (g.cutoffOctaves, g.resonanceK, g.envelopeOctaves)
        for n in 0..<frames {
            g.cutoffOctaves += a * (cutoffTarget - g.cutoffOctaves)
            g.resonanceK += a * (kTarget - g.resonanceK)
            g.envelopeOctaves += a * (envelopeTarget - g.envelopeOctaves)
            g.masterLinear += a * (masterTarget - g.masterLinear)
            scratch.cutoff[n] = g.cutoffOctaves
            scratch.damping[n] = g.resonanceK
            scratch.envelopeAmount[n] = g.envelopeOctaves
            scratch.master[n] = g.masterLinear
        }
        smoothed = g
        let filterAfter = (g.cutoffOctaves, g.resonanceK, g.envelopeOctaves)
        let filterSteady = filterBefore == filterAfter

        // Channel controls for the channels that have voices: pitch ratio and gains, per sample.
        var activeChannels: UInt16 = 0
        for v in 0..<slotLimit where voices.stage[v] != Stage.free { activeChannels |= 1 << UInt16(voices.channel[v]) }
        var pitchMoves: UInt16 = 0, gainsMove: UInt16 = 0
        let sineTable = wavetables.tables[0]
        for ch in 0..<channelCount where activeChannels & (1 << UInt16(ch)) != 0 {
            let pitch = scratch.pitch + ch * maxFrames
            let gl = scratch.left + ch * maxFrames
            let gr = scratch.right + ch * maxFrames
            let bendSemitones = controls.bend[ch]
            let depthTarget = controls.modulation[ch]
            let leftTarget = targetLeft(ch), rightTarget = targetRight(ch)
            var depth = controls.vibrato[ch], l = controls.gainLeft[ch], r = controls.gainRight[ch]
            var lfo = VibratoLFO(phase: controls.lfoPhase[ch], increment: lfoIncrement, sine: sineTable)
            let gainsBefore = (l, r)
            var highest: Float = 0
            if depthTarget == 0 && depth < 1e-6 {
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
                    highest = max(highest, ratio)
                    gl[n] = l
                    gr[n] = r
                }
            }
            if gainsBefore.0 != l || gainsBefore.1 != r { gainsMove |= 1 << UInt16(ch) }
            controls.vibrato[ch] = depth; controls.lfoPhase[ch] = lfo.phase; controls.gainLeft[ch] = l; controls.gainRight[ch] = r
            scratch.pitchMax[ch] = highest
        }

        // Voices in groups of eight. Steady voices (sustaining at a constant level, filter and channel
        // controls at rest) have the same coefficients and levels at every sample of the slice: they are
        // computed once for them; the others get them per sample. Steady ones first, the rest from the end.
        // Settled voices on a channel whose pitch moves (vibrato) or that glide (portamento) differ from
        // steady ones only in their phase steps: they are gathered apart.
        var steadyCount = 0, otherStart = slotCount, glidingCount = 0
        let sustainHolds = filterSteady && sustainLevel >= silenceLevel
        let stages = voices.stage, levels = voices.envelope, fadeSteps = voices.fadeStep, channels = voices.channel // `&&` must not capture self
        let kinds = voices.kind, sampleSlots = sampleVoices.activeSlots, glides = voices.glide
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
            let settled = LaneEnvelope.isSettled(levels[v], sustain: sustainLevel, decay: decayCoefficient)
            let chBit: UInt16 = 1 << UInt16(channels[v])
            let constantLevel = sustainHolds && stages[v] == Stage.decay && settled
                && fadeSteps[v] == 0 && gainsMove & chBit == 0
            if constantLevel && pitchMoves & chBit == 0 && glides[v] == 0 { // portamento glides with the vibrato
                voices.activeSlots[steadyCount] = Int32(v)
                steadyCount += 1
            } else if constantLevel {
                voices.glidingSlots[glidingCount] = Int32(v)
                glidingCount += 1
            } else {
                otherStart -= 1
                voices.activeSlots[otherStart] = Int32(v)
            }
        }
        scratch.sumLeft.update(repeating: .zero, count: 2 * frames)
        scratch.sumRight.update(repeating: .zero, count: 2 * frames)
        let envelopeShape = (attackStep, sustainLevel, decayCoefficient, releaseCoefficient)
        var start = 0
        if laneCache.isEnabled { // the same groups, kept in their lanes between slices (Synth+LaneCache.swift)
            renderSteadyGroups(count: steadyCount, wave: wave, frames: frames, activeChannels: activeChannels,
                               pitchMoves: pitchMoves, gainsMove: gainsMove, envelopeShape: envelopeShape)
        } else {
            while start < steadyCount {
                let count = min(8, steadyCount - start)
                renderGroup(voices.activeSlots + start, count: count, kind: .steady, wave: wave, frames: frames,
                            pitchMoves: pitchMoves, gainsMove: gainsMove, envelopeShape: envelopeShape)
                start += count
            }
        }
        start = 0
        while start < glidingCount {
            let count = min(8, glidingCount - start)
            renderGroup(voices.glidingSlots + start, count: count, kind: .gliding, wave: wave, frames: frames,
                        pitchMoves: pitchMoves, gainsMove: gainsMove, envelopeShape: envelopeShape)
            start += count
        }
        start = otherStart
        while start < slotCount {
            let count = min(8, slotCount - start)
            renderGroup(voices.activeSlots + start, count: count, kind: .moving, wave: wave, frames: frames,
                        pitchMoves: pitchMoves, gainsMove: gainsMove, envelopeShape: envelopeShape)
            start += count
        }

        if sampleCount > 0 { renderSampleVoices(count: sampleCount, frames: frames) }
        if drumCount > 0 { renderDrumVoices(frames: frames) } // Synth+Drums.swift

        // The send buses' output (Synth+Effects.swift) goes into the mix before the master gain.
        processEffects(left: left, right: right, frames: frames)

        // Sum the lanes, then master gain and a soft knee that keeps the output strictly inside -1...1.
        let knee = clipKnee
        let sl = scratch.sumLeft, sr = scratch.sumRight
        for n in 0..<frames {
            let l4 = sl[2 &* n] + sl[2 &* n &+ 1]
            let r4 = sr[2 &* n] + sr[2 &* n &+ 1]
            let g = scratch.master[n]
            left[n] = softClip((left[n] + ((l4[0] + l4[1]) + (l4[2] + l4[3]))) * g, knee: knee)
            right[n] = softClip((right[n] + ((r4[0] + r4[1]) + (r4[2] + r4[3]))) * g, knee: knee)
        }
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
