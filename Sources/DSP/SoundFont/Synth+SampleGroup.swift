// Rendering SoundFont sample voices, eight at a time in the lanes of SIMD8 vectors, beside `renderGroup`:
// gather each voice's state into the group's rows (or find them kept from the last slice:
// Synth+SampleLaneCache.swift), then per control block (up to `sampleControlInterval` samples) move the
// envelopes and LFOs on and compute pitch, level and filter coefficients, then per sample read the sample
// data (4-point cubic Hermite interpolation, loops), filter it (the synth's SVF step) and add it into the
// same lane sums as the wavetable voices. Levels ramp linearly across a block; a voice starts at the first
// sample of its slice, so note starts stay sample-accurate.

/// Sample voices get pitch, levels and filter coefficients once per this many samples (levels ramp between),
/// as FluidSynth does.
var sampleControlInterval: Int { @_noLocks get { 64 } }
/// A full-level sample voice's gain before pan: FluidSynth's default synth.gain, so levels match it.
var sampleVoiceGain: Float { @_noLocks get { 0.2 } }

typealias LaneInts = SIMD8<Int32>

/// The filter's damping with initialFilterQ 0 (Q = 1/sqrt(2)): no resonance.
var wideOpenDamping: Float { @_noLocks get { 1.414_2 } }

extension Synth {
    /// Renders the sample voices `samples.slots.activeSlots[0..<count]` into the lane sums. With a stack of
    /// fonts the slots are first gathered by layer (a group's eight lanes read one sample data).
    @_noLocks
    func renderSampleVoices(count: Int, frames: Int) {
        let slots = samples.slots.activeSlots.baseAddress, layerEnds = samples.slots.layerEnds.baseAddress
        samples.slots.loops.copyClock[0] &+= 1 // a new slice for the loop copies' stamps (`loopCopy`)
        var begin = 0
        for layer in 0..<samples.font.layerCount {
            var end = begin
            if samples.font.layerCount > 1 {
                for i in begin..<count where Int(samples.slots.state[Int(slots[i])].layer) == layer {
                    let slot = slots[i]
                    slots[i] = slots[end]
                    slots[end] = slot
                    end += 1
                }
            } else {
                end = count
            }
            layerEnds[layer] = end
            begin = end
        }
        keepSampleGroups() // the groups kept from the last slice that are not this slice's give their voices back
        var g = 0
        begin = 0
        for layer in 0..<samples.font.layerCount {
            let end = layerEnds[layer]
            var start = begin
            while start < end {
                let n = min(8, end - start)
                renderSampleGroup(slots + start, count: n, frames: frames, layer: layer, group: g)
                start += n
                g += 1
            }
            begin = end
        }
    }

    /// Up to eight sample voices (`slots[0..<count]`, all of stack layer `layer`) over `frames` samples,
    /// added into the lane sums: the slice's group `g`, from its rows as kept from the last slice when it is
    /// kept (Synth+SampleLaneCache.swift), else gathered from the voices; kept at the end unless a voice ended.
    @_noLocks
    func renderSampleGroup(_ slots: UnsafeMutablePointer<Int32>, count: Int, frames: Int, layer: Int, group g: Int) {
        let count = min(count, 8) // so that the compiler sees each lane index in range: the lanes' reads and writes unchecked
        let dataCount = Int32(max(samples.font.layerDataCount[layer], 1))
        let sample = SampleData(data: samples.font.layerData[layer], lowBytes: samples.font.layerLowBytes[layer],
                                lastIndex: HalfLaneInts(repeating: dataCount - 1))
        let rows = samples.slots.rows(g), keep = samples.slots.kept.baseAddress + g
        // Lanes whose short loop (`unrollLane`) is to be unrolled once the voice reaches it.
        var unrollable: UInt8 = 0
        // The last block's inputs of the exp2s (none yet in a group gathered now: NaN differs from everything).
        var centsBefore = Lanes(repeating: .nan), filterCentsBefore = Lanes(repeating: .nan)
        var centibelsBefore = Lanes(repeating: .nan), envelopeBefore = Lanes(repeating: .nan)
        var levels = Lanes()
        let reverbOn = mix.effects.reverbOn, chorusOn = mix.effects.chorusOn
        if keep.pointee.count > 0 {
            // Kept: the rows are as the last slice left them. Its copies of loops are played from in this slice.
            unrollable = keep.pointee.unrollable
            centsBefore = keep.pointee.cents; filterCentsBefore = keep.pointee.filterCents
            centibelsBefore = keep.pointee.centibels; envelopeBefore = keep.pointee.envelope
            levels = rows.pointee.output.level
            samples.keptRenders &+= 1
            for l in 0..<count where rows.pointee.play.unrolledSpan[l] != 0 {
                samples.slots.loops.copyStamps[Int(rows.pointee.play.copy[l])] = samples.slots.loops.copyClock[0]
            }
        } else {
            gatherSampleGroup(rows, slots, count: count, layer: layer, sample: sample, unrollable: &unrollable)
        }
        var low = SampleLanes(), high = SampleLanes()
        @inline(__always) func gathered(_ h: Int) -> SampleLanes {
            var lanes = SampleLanes()
            lanes.position = rows.pointee.play.position.half(h)
            lanes.fraction = HalfLaneBits(truncatingIfNeeded: rows.pointee.play.fraction.half(h))
            // In the sample loop's units (`SampleLanes`).
            lanes.z1 = rows.pointee.output.z1.half(h) * InterpolationTable.integerUnits
            lanes.z2 = rows.pointee.output.z2.half(h) * InterpolationTable.integerUnits
            lanes.left = rows.pointee.output.lastLeft.half(h) * InterpolationTable.integerScale
            lanes.right = rows.pointee.output.lastRight.half(h) * InterpolationTable.integerScale
            lanes.alive = rows.pointee.output.alive.half(h)
            lanes.takeFilterMix(rows, half: h)
            return lanes
        }
        low = gathered(0)
        if count > 4 { high = gathered(1) }
        let shaped = low.shaped || high.shaped
        var fades = rows.pointee.output.fade
        var n0 = 0
        // A group that sends to the effects is rendered apart, then folded into the sums (Synth+Effects.swift).
        let sends = (reverb: rows.pointee.parameters.reverbSend, chorus: rows.pointee.parameters.chorusSend)
        let sendsAny = anyLane(sends.reverb .> Lanes.zero .| sends.chorus .> Lanes.zero)
        let split = mix.outputs.isOn // per-channel outputs: every group apart (Synth+ChannelOutputs.swift)
        let outLeft = sendsAny || split ? mix.effects.groupLeft : mix.scratch.sumLeft
        let outRight = sendsAny || split ? mix.effects.groupRight : mix.scratch.sumRight
        // Eight lanes wide where the path says so (`VoiceLoopPath.playsSampleGroupsEightWide`).
        let path = voiceLoops, wideAllowed = playsWideLoops, forced = samples.forcesEightLanes
        let playsWide = wideAllowed && (path.playsSampleGroupsEightWide || forced)
        let sinc = samples.sincOn
        let streamed = samples.font.layerStream[layer] != nil
        while n0 < frames {
            let length = min(sampleControlInterval, frames - n0)
            stepControls(rows, slots, count: count, samples: length)
            // A short loop is played from its copy from the block the voice is in it (`unrollLane`).
            var pending = unrollable
            while pending != 0 {
                let l = pending.trailingZeroBitCount
                pending &= pending &- 1
                let voice = samples.slots.state.baseAddress + Int(slots[l])
                let start = voice.pointee.playback.loopStart, end = voice.pointee.playback.loopEnd
                let p = l < 4 ? low.position[l] : high.position[l &- 4]
                if p >= start && p < end {
                    // No copy free (every one played from in this slice or the last): from the font's data for now.
                    if unrollLane(rows, l, slot: Int(slots[l]), layer: layer, sample: sample, start: start, length: end &- start) {
                        unrollable &= ~(1 << UInt8(l))
                    }
                }
            }
            // Pitch, attenuation and cutoff of the eight lanes from their parts: the arithmetic each voice had
            // done alone, in the same order (so the same values), once for the group.
            let modLFO = rows.pointee.block.modLFO, modEnv = rows.pointee.block.modEnv
            rows.pointee.block.cents = rows.pointee.parameters.pitchCents + modLFO * rows.pointee.parameters.modLFOToPitch
                + rows.pointee.block.vibLFO * rows.pointee.parameters.vibLFOToPitch + modEnv * rows.pointee.parameters.modEnvToPitch
                + rows.pointee.block.glideNow
            rows.pointee.block.centibels = atLeast(rows.pointee.parameters.attenuation - modLFO * rows.pointee.parameters.modLFOToVolume, 0)
                + rows.pointee.block.envelopeCentibels
            rows.pointee.block.filterCents = minLanes(atLeast(rows.pointee.parameters.filterBase + modLFO * rows.pointee.parameters.modLFOToFilter
                + modEnv * rows.pointee.parameters.modEnvToFilter, 1500), Lanes(repeating: 13500))
            // Each of the three exp2s below only when its input moved since the last block (of the call, or of
            // the last slice for a kept group; the rows hold its results): a held voice's pitch and cutoff
            // usually stay, its level often does.
            // Frames of sample per output sample, as 32.32 fixed point (at most 256: far above any use).
            let cents = rows.pointee.block.cents
            if anyLane(cents .!= centsBefore) {
                centsBefore = cents
                let increments = minLanes(rows.pointee.parameters.ratio * exp2Lanes(cents * (1.0 / 1200)), Lanes(repeating: 256))
                let (whole, part) = fixedPoint(increments)
                rows.pointee.play.whole = whole
                rows.pointee.play.part = part
            }
            // A stolen voice's fade is folded into the block's ramp: linear from where it was to where it
            // will be. svfStep returns twice the low-pass output: the half is folded into the levels too.
            fades = maxLanes(fades - rows.pointee.output.fadeStep * Float(length), .zero)
            let centibels = rows.pointee.block.centibels, envelope = rows.pointee.block.envelope
            if anyLane(centibels .!= centibelsBefore .| envelope .!= envelopeBefore) {
                centibelsBefore = centibels
                envelopeBefore = envelope
                levels = envelope * exp2Lanes(centibels * -0.016_609_640_5) * (0.5 * sampleVoiceGain)
            }
            rows.pointee.block.targetLeft = levels * rows.pointee.parameters.panLeft * fades
            rows.pointee.block.targetRight = levels * rows.pointee.parameters.panRight * fades
            let filterCents = rows.pointee.block.filterCents
            if anyLane(filterCents .!= filterCentsBefore) {
                filterCentsBefore = filterCents
                let (b1, b2, b3) = filterCoefficients(octaves: filterCents * (1.0 / 1200) + 3.031_33,
                                                      k: rows.pointee.parameters.damping, inverseRate: rates.inverseRate)
                rows.pointee.block.b1 = b1; rows.pointee.block.b2 = b2; rows.pointee.block.b3 = b3
            }
            let inverseLength = 1 / Float(length)
            // Each half in place, not copied in and out of its lanes (350 bytes a half and block).
            low.startBlock(rows, half: 0, inverseLength: inverseLength)
            if count > 4 {
                high.startBlock(rows, half: 1, inverseLength: inverseLength)
            }
            // A streamed instrument: lanes whose frames are not loaded end here (Synth+SampleStream.swift).
            if streamed { endLateLanes(&low, &high, slots, count: count, layer: layer, frames: length) }
            // A filter other than the low-pass: the mixing loop (SampleLanes+Shaped.swift), four lanes wide.
            if shaped {
                playSamplesShaped(&low, sample, samples.slots.interpolation, from: n0, count: length, half: 0, left: outLeft, right: outRight)
                if count > 4 {
                    playSamplesShaped(&high, sample, samples.slots.interpolation, from: n0, count: length, half: 1, left: outLeft, right: outRight)
                }
            } else if sinc, let kernels = samples.sinc {
                // Both halves at once (WideLoops.swift): the same samples.
                playSamplesSinc(path, &low, &high, wide: count > 4, sample, kernels, scratch: samples.slots.sincScratch.baseAddress,
                                from: n0, count: length, left: outLeft, right: outRight)
            } else if playsWide && count > 4 && low.filtered && high.filtered && sample.lowBytes == nil {
                playSamplesWide(path, &low, &high, sample, samples.slots.interpolation, from: n0, count: length,
                                left: outLeft, right: outRight)
                samples.wideBlocks &+= 1
            } else {
                playSamples(&low, sample, samples.slots.interpolation, from: n0, count: length, half: 0, left: outLeft, right: outRight)
                if count > 4 {
                    playSamples(&high, sample, samples.slots.interpolation, from: n0, count: length, half: 1, left: outLeft, right: outRight)
                }
            }
            n0 += length
        }
        if split {
            foldSplit(slots, count: count, frames: frames, reverb: sends.reverb, chorus: sends.chorus, sends: sendsAny)
        } else if sendsAny { mix.foldGroup(frames: frames, reverb: sends.reverb, chorus: sends.chorus) }

        // The lanes back into the rows as vectors (out of the sample loop's units, `SampleLanes`).
        @inline(__always) func scattered(_ lanes: borrowing SampleLanes, _ h: Int) {
            rows.pointee.play.position.setHalf(h, lanes.position)
            rows.pointee.play.fraction.setHalf(h, HalfLaneInts(truncatingIfNeeded: lanes.fraction))
            rows.pointee.output.lastLeft.setHalf(h, lanes.left * InterpolationTable.integerUnits)
            rows.pointee.output.lastRight.setHalf(h, lanes.right * InterpolationTable.integerUnits)
            rows.pointee.output.z1.setHalf(h, lanes.z1 * InterpolationTable.integerScale)
            rows.pointee.output.z2.setHalf(h, lanes.z2 * InterpolationTable.integerScale)
            rows.pointee.output.alive.setHalf(h, lanes.alive)
        }
        scattered(low, 0)
        if count > 4 { scattered(high, 1) }
        rows.pointee.output.fade = fades
        rows.pointee.output.level = levels
        // Filter states too small to matter flushed to 0 (denormal arithmetic is slow).
        rows.pointee.output.z1 = flushTiny(rows.pointee.output.z1)
        rows.pointee.output.z2 = flushTiny(rows.pointee.output.z2)
        // Kept for the next slice while none of its voices ended (Synth+SampleLaneCache.swift); else its
        // voices get their state back, those that ended are freed.
        let used = LaneInts(0, 1, 2, 3, 4, 5, 6, 7) .< LaneInts(repeating: Int32(truncatingIfNeeded: count))
        let ended = (rows.pointee.output.alive .== Lanes.zero .| rows.pointee.output.fade .<= Lanes.zero
            .| rows.pointee.controls.volumeEnvelope.stage .== LaneInts(repeating: SampleEnvelope.done)) .& used
        let keeps = samples.keepsGroups
        guard anyLane(ended) || !keeps else {
            if count == 8 {
                keep.pointee.slots = UnsafeRawPointer(slots).loadUnaligned(as: SIMD8<Int32>.self)
            } else {
                keep.pointee.slots = SIMD8()
                for l in 0..<count { keep.pointee.slots[l] = slots[l] }
            }
            keep.pointee.count = Int32(truncatingIfNeeded: count)
            keep.pointee.reverbOn = reverbOn
            keep.pointee.chorusOn = chorusOn
            keep.pointee.unrollable = unrollable
            keep.pointee.cents = centsBefore; keep.pointee.filterCents = filterCentsBefore
            keep.pointee.centibels = centibelsBefore; keep.pointee.envelope = envelopeBefore
            return
        }
        keep.pointee.count = 0
        for l in 0..<count {
            let v = Int(slots[l])
            if ended[l] {
                scatterControls(rows, l, voice: samples.slots.state.baseAddress + v, slot: v)
                freeVoice(v)
            } else {
                writeBackLane(rows, l, slot: v)
            }
        }
    }
}


extension Synth {
    /// Group `rows`' lanes from its voices `slots[0..<count]` (of stack layer `layer`), the empty lanes past
    /// them parked, and the lanes whose short loop is to be unrolled once the voice reaches it (`unrollable`).
    @_noLocks @inline(__always)
    func gatherSampleGroup(_ rows: UnsafeMutablePointer<SampleGroupRows>, _ slots: UnsafeMutablePointer<Int32>, count: Int, layer: Int,
                           sample: SampleData, unrollable: inout UInt8) {
        let dataCount = sample.lastIndex[0] &+ 1
        let streamed = samples.font.layerStream[layer] != nil, sinc = samples.sincOn
        // Per lane: the frames its unrolled copy's loop spans (a whole number of passes), 0 while it plays
        // from the font's data (rows, as the others: scalar writes).
        for l in 0..<8 {
            rows.pointee.play.unrolledSpan[l] = 0
            rows.pointee.play.lastIndex[l] = dataCount &- 1
            rows.pointee.play.offsets[l] = 0
        }
        // The voices' state into the lanes, through the rows (as scalars, read back as vectors).
        let reverbOn = mix.effects.reverbOn, chorusOn = mix.effects.chorusOn
        for l in 0..<count {
            let v = Int(slots[l])
            let voice = samples.slots.state.baseAddress + v
            // A key let go takes effect between calls: the envelopes enter their release before the first block.
            if voices.stage[v] == Stage.release && voice.pointee.released == 0 {
                voice.pointee.released = 1
                voice.pointee.volumeEnvelope.release(decibelValue: true)
                voice.pointee.modulationEnvelope.release(decibelValue: false)
            }
            gatherControls(rows, l, voice: voice, slot: v)
            let loops = voice.pointee.loops
            let loopStart = voice.pointee.playback.loopStart, loopEnd = voice.pointee.playback.loopEnd
            rows.pointee.play.wrapAt[l] = loops ? loopEnd : .max
            rows.pointee.play.loopLength[l] = loops ? loopEnd - loopStart : 0
            rows.pointee.play.stopAt[l] = loops ? .max : voice.pointee.playback.end
            rows.pointee.play.first[l] = voice.pointee.playback.first
            let length = loopEnd &- loopStart
            // The sinc's kernels reach up to 64 frames either side of a position, past a copy's ends (the reads
            // there were of whatever lay beside the copies): with the sinc a voice plays its loop from the font's
            // data, where the careful reads wrap.
            if loops && voice.pointee.playback.unrolledSpan != 0 && !sinc {
                _ = unrollLane(rows, l, slot: v, layer: layer, sample: sample, start: loopStart, length: length)
            } else if loops && length >= 2 && Int(length) <= (unrolledLoopFrames - 3) / 2 && sample.lowBytes == nil
                        && !streamed && !sinc { // a streamed loop's copy could hold frames not read yet
                unrollable |= 1 << UInt8(l)
            }
            var leavesCopy = !loops
            if sinc { leavesCopy = true }
            if voice.pointee.playback.unrolledSpan != 0 && leavesCopy && voice.pointee.playback.position >= loopStart {
                // Let go (loop mode 3), or the sinc chosen, while in its loop's copy: back to the font's data, in
                // the loop's one pass.
                voice.pointee.playback.position = loopStart &+ (voice.pointee.playback.position &- loopStart) % length
                voice.pointee.playback.unrolledSpan = 0
            }
            rows.pointee.play.position[l] = voice.pointee.playback.position
            rows.pointee.play.fraction[l] = Int32(bitPattern: voice.pointee.playback.fraction)
            rows.pointee.output.z1[l] = voices.ic1[v]
            rows.pointee.output.z2[l] = voices.ic2[v]
            rows.pointee.output.lastLeft[l] = voice.pointee.playback.lastLeft
            rows.pointee.output.lastRight[l] = voice.pointee.playback.lastRight
            rows.pointee.output.alive[l] = 1
            rows.pointee.output.fade[l] = voices.fade[v]
            rows.pointee.output.fadeStep[l] = voices.fadeStep[v]
            // What stays the same for the whole call (the channel's controllers change between calls).
            rows.pointee.parameters.set(lane: l, voice.pointee.modulation, ratio: voice.pointee.playback.rateRatio,
                                        reverb: reverbOn, chorus: chorusOn)
        }
        // Empty lanes: silent, never wrapping or stopping, parked at frame 1 (`SampleLanes`).
        for l in count..<8 {
            SampleGroupRows.clearLane(rows, l)
            rows.pointee.parameters.filterBase[l] = 13500
            rows.pointee.parameters.damping[l] = wideOpenDamping
            rows.pointee.play.wrapAt[l] = .max
            rows.pointee.play.stopAt[l] = .max
            rows.pointee.play.loopLength[l] = 0
            rows.pointee.controls.volumeEnvelope.stage[l] = SampleEnvelope.done
            rows.pointee.controls.modulationEnvelope.stage[l] = SampleEnvelope.done
            rows.pointee.play.position[l] = 1
            rows.pointee.play.fraction[l] = 0
        }
        // The four points i - 1 ... i + 2 are read at once while i - 1 <= this: before the loop's end and the
        // data's (else one by one, wrapping into the loop); an unrolled loop's up to wrapAt + 1 (`unrollLane`).
        var fastLimit = rows.pointee.play.wrapAt
        let dataCounts = LaneInts(repeating: dataCount) // a vector compare: with a scalar it is a loop
        fastLimit.replace(with: dataCounts, where: fastLimit .> dataCounts)
        let unrolled = rows.pointee.play.unrolledSpan .!= LaneInts()
        fastLimit.replace(with: rows.pointee.play.wrapAt &+ 2, where: unrolled)
        rows.pointee.play.fastLimit = fastLimit &- 4
    }
}


/// `Swift.max(x, floor)` lane by lane, as it picks: the floor where it is >= x (`maxLanes` keeps x on a tie,
/// which differs for -0 against 0).
@_noLocks @inline(__always)
func atLeast(_ x: Lanes, _ floor: Float) -> Lanes {
    var result = x
    let bound = Lanes(repeating: floor)
    result.replace(with: bound, where: bound .>= x)
    return result
}

extension SampleLanes {
    /// Half `h` of a group's rows (`SampleGroupRows`) for the next block, `inverseLength` the block's 1 / samples.
    @_noLocks @inline(__always)
    mutating func startBlock(_ rows: UnsafeMutablePointer<SampleGroupRows>, half h: Int, inverseLength: Float) {
        // A lane whose sample has ended stays parked and silent (`carefulStep`).
        let ended = alive .== HalfLanes()
        whole = rows.pointee.play.whole.half(h)
        whole.replace(with: HalfLaneInts(), where: ended)
        part = HalfLaneBits(truncatingIfNeeded: rows.pointee.play.part.half(h))
        part.replace(with: HalfLaneBits(), where: ended)
        wrapAt = rows.pointee.play.wrapAt.half(h)
        loopLength = rows.pointee.play.loopLength.half(h)
        stopAt = rows.pointee.play.stopAt.half(h)
        fastLimit = rows.pointee.play.fastLimit.half(h)
        lastIndex = rows.pointee.play.lastIndex.half(h)
        let span = rows.pointee.play.unrolledSpan.half(h)
        startAt = rows.pointee.play.first.half(h)
        firstIndex = startAt
        firstIndex.replace(with: wrapAt &- span &- 1, where: span .!= HalfLaneInts())
        offset = rows.pointee.play.offsets.half(h)
        b1 = rows.pointee.block.b1.half(h); b2 = rows.pointee.block.b2.half(h); b3 = rows.pointee.block.b3.half(h)
        let scale = InterpolationTable.integerScale
        stepLeft = (rows.pointee.block.targetLeft.half(h) * scale - left) * inverseLength * alive
        stepRight = (rows.pointee.block.targetRight.half(h) * scale - right) * inverseLength * alive
        filtered = unsafeBitCast(ended, to: SIMD2<UInt64>.self) != SIMD2(repeating: .max)
    }
}

/// 0...256 as 32.32 fixed point, lane by lane: the whole part (`Int32(x)`) and the fraction's 32 bits
/// (`UInt32((x - Float(whole)) * 2^32)`, as a bit pattern), the same values as those scalar conversions,
/// in vector arithmetic (they are a loop of range-checked scalar conversions). Each truncation is the
/// rounding of y + 2^23 (exact for 0 <= y < 2^22), less one where that rounded up; the fraction's 32 bits
/// are two such truncations of 16 bits each (2^16 times the fraction and what is left of it, both exact).
@_noLocks @inline(__always)
func fixedPoint(_ x: Lanes) -> (whole: LaneInts, part: LaneInts) {
    @inline(__always) func truncated(_ y: Lanes) -> (value: Lanes, bits: LaneInts) {
        let shifted = y + 8_388_608
        var value = shifted - 8_388_608
        var bits = unsafeBitCast(shifted, to: LaneInts.self) &- 0x4B00_0000
        let over = value .> y
        value.replace(with: value - 1, where: over)
        bits.replace(with: bits &- 1, where: over)
        return (value, bits)
    }
    let whole = truncated(x)
    let high = (x - whole.value) * 65_536
    let top = truncated(high)
    let low = truncated((high - top.value) * 65_536)
    return (whole.bits, top.bits &<< 16 | low.bits)
}
