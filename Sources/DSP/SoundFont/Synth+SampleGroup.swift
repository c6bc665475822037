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
        samples.slots.copyClock[0] &+= 1 // a new slice for the loop copies' stamps (`loopCopy`)
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
        let dataCount = Int32(max(samples.font.layerDataCount[layer], 1))
        let sample = SampleData(data: samples.font.layerData[layer], lowBytes: samples.font.layerLowBytes[layer],
                                lastIndex: HalfLaneInts(repeating: dataCount - 1))
        let rows = samples.slots.rows(g), keep = samples.slots.kept.baseAddress + g
        let floats = rows.floats, ints = rows.ints
        @inline(__always) func row(_ r: Int) -> Lanes { UnsafeRawPointer(floats + 8 &* r).loadUnaligned(as: Lanes.self) }
        @inline(__always) func setRow(_ r: Int, _ x: Lanes) { UnsafeMutableRawPointer(floats + 8 &* r).storeBytes(of: x, as: Lanes.self) }
        @inline(__always) func intRow(_ r: Int) -> LaneInts { UnsafeRawPointer(ints + 8 &* r).loadUnaligned(as: LaneInts.self) }
        @inline(__always) func half(_ r: Int, _ h: Int) -> HalfLanes {
            let i: Int = 8 &* r &+ 4 &* h
            return UnsafeRawPointer(floats + i).loadUnaligned(as: HalfLanes.self)
        }
        @inline(__always) func halfInts(_ r: Int, _ h: Int) -> HalfLaneInts {
            let i: Int = 8 &* r &+ 4 &* h
            return UnsafeRawPointer(ints + i).loadUnaligned(as: HalfLaneInts.self)
        }
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
            levels = row(SampleControl.level)
            samples.keptRenders &+= 1
            for l in 0..<count where ints[8 &* SampleControl.unrolledSpan &+ l] != 0 {
                samples.slots.copyStamps[Int(ints[8 &* SampleControl.copy &+ l])] = samples.slots.copyClock[0]
            }
        } else {
            gatherSampleGroup(rows, slots, count: count, layer: layer, sample: sample, unrollable: &unrollable)
        }
        var low = SampleLanes(), high = SampleLanes()
        @inline(__always) func gathered(_ h: Int) -> SampleLanes {
            var lanes = SampleLanes()
            lanes.position = halfInts(SampleControl.position, h)
            lanes.fraction = HalfLaneBits(truncatingIfNeeded: halfInts(SampleControl.fraction, h))
            // In the sample loop's units (`SampleLanes`).
            lanes.z1 = half(SampleControl.z1, h) * InterpolationTable.integerUnits
            lanes.z2 = half(SampleControl.z2, h) * InterpolationTable.integerUnits
            lanes.left = half(SampleControl.lastLeft, h) * InterpolationTable.integerScale
            lanes.right = half(SampleControl.lastRight, h) * InterpolationTable.integerScale
            lanes.alive = half(SampleControl.alive, h)
            return lanes
        }
        low = gathered(0)
        if count > 4 { high = gathered(1) }
        var fades = row(SampleControl.fade)
        var n0 = 0
        // A group that sends to the effects is rendered apart, then folded into the sums (Synth+Effects.swift).
        let sends = (reverb: row(SampleControl.reverbSend), chorus: row(SampleControl.chorusSend))
        let sendsAny = anyLane(sends.reverb .> Lanes.zero .| sends.chorus .> Lanes.zero)
        let outLeft = sendsAny ? mix.effects.groupLeft : mix.scratch.sumLeft
        let outRight = sendsAny ? mix.effects.groupRight : mix.scratch.sumRight
        // Eight lanes wide where the path says so (`VoiceLoopPath.playsSampleGroupsEightWide`).
        let path = voiceLoops, wideAllowed = playsWideLoops, forced = samples.forcesEightLanes
        let playsWide = wideAllowed && (path.playsSampleGroupsEightWide || forced)
        while n0 < frames {
            let length = min(sampleControlInterval, frames - n0)
            stepControls(rows, slots, count: count, samples: length)
            // A short loop is played from its copy from the block the voice is in it (`unrollLane`).
            var pending = unrollable
            while pending != 0 {
                let l = pending.trailingZeroBitCount
                pending &= pending &- 1
                let voice = samples.slots.state.baseAddress + Int(slots[l])
                let start = voice.pointee.loopStart, end = voice.pointee.loopEnd
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
            let modLFO = row(SampleControl.modLFO), modEnv = row(SampleControl.modEnv)
            setRow(SampleControl.cents, row(SampleControl.pitchCents) + modLFO * row(SampleControl.modLFOToPitch)
                + row(SampleControl.vibLFO) * row(SampleControl.vibLFOToPitch) + modEnv * row(SampleControl.modEnvToPitch)
                + row(SampleControl.glideNow))
            setRow(SampleControl.centibels, atLeast(row(SampleControl.attenuation) - modLFO * row(SampleControl.modLFOToVolume), 0)
                + row(SampleControl.envelopeCentibels))
            setRow(SampleControl.filterCents, minLanes(atLeast(row(SampleControl.filterBase) + modLFO * row(SampleControl.modLFOToFilter)
                + modEnv * row(SampleControl.modEnvToFilter), 1500), Lanes(repeating: 13500)))
            // Each of the three exp2s below only when its input moved since the last block (of the call, or of
            // the last slice for a kept group; the rows hold its results): a held voice's pitch and cutoff
            // usually stay, its level often does.
            // Frames of sample per output sample, as 32.32 fixed point (at most 256: far above any use).
            let cents = row(SampleControl.cents)
            if anyLane(cents .!= centsBefore) {
                centsBefore = cents
                let increments = minLanes(row(SampleControl.ratio) * exp2Lanes(cents * (1.0 / 1200)), Lanes(repeating: 256))
                let (whole, part) = fixedPoint(increments)
                UnsafeMutableRawPointer(ints + 8 &* SampleControl.whole).storeBytes(of: whole, as: LaneInts.self)
                UnsafeMutableRawPointer(ints + 8 &* SampleControl.part).storeBytes(of: part, as: LaneInts.self)
            }
            // A stolen voice's fade is folded into the block's ramp: linear from where it was to where it
            // will be. svfStep returns twice the low-pass output: the half is folded into the levels too.
            fades = maxLanes(fades - row(SampleControl.fadeStep) * Float(length), .zero)
            let centibels = row(SampleControl.centibels), envelope = row(SampleControl.envelope)
            if anyLane(centibels .!= centibelsBefore .| envelope .!= envelopeBefore) {
                centibelsBefore = centibels
                envelopeBefore = envelope
                levels = envelope * exp2Lanes(centibels * -0.016_609_640_5) * (0.5 * sampleVoiceGain)
            }
            setRow(SampleControl.targetLeft, levels * row(SampleControl.panLeft) * fades)
            setRow(SampleControl.targetRight, levels * row(SampleControl.panRight) * fades)
            let filterCents = row(SampleControl.filterCents)
            if anyLane(filterCents .!= filterCentsBefore) {
                filterCentsBefore = filterCents
                let (b1, b2, b3) = filterCoefficients(octaves: filterCents * (1.0 / 1200) + 3.031_33,
                                                      k: row(SampleControl.damping), inverseRate: rates.inverseRate)
                setRow(SampleControl.b1, b1); setRow(SampleControl.b2, b2); setRow(SampleControl.b3, b3)
            }
            let inverseLength = 1 / Float(length)
            // Each half in place, not copied in and out of its lanes (350 bytes a half and block).
            low.startBlock(floats, ints, half: 0, offsets: rows.offsets, inverseLength: inverseLength)
            if count > 4 {
                high.startBlock(floats, ints, half: 1, offsets: rows.offsets, inverseLength: inverseLength)
            }
            // Both halves at once (WideLoops.swift): the same samples.
            if playsWide && count > 4 && low.filtered && high.filtered && sample.lowBytes == nil {
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
        if sendsAny { mix.foldGroup(frames: frames, reverb: sends.reverb, chorus: sends.chorus) }

        // The lanes back into the rows as vectors (out of the sample loop's units, `SampleLanes`).
        @inline(__always) func setHalf(_ r: Int, _ h: Int, _ x: HalfLanes) {
            UnsafeMutableRawPointer(floats + (8 &* r &+ 4 &* h)).storeBytes(of: x, as: HalfLanes.self)
        }
        @inline(__always) func setHalfInts(_ r: Int, _ h: Int, _ x: HalfLaneInts) {
            UnsafeMutableRawPointer(ints + (8 &* r &+ 4 &* h)).storeBytes(of: x, as: HalfLaneInts.self)
        }
        @inline(__always) func scattered(_ lanes: borrowing SampleLanes, _ h: Int) {
            setHalfInts(SampleControl.position, h, lanes.position)
            setHalfInts(SampleControl.fraction, h, HalfLaneInts(truncatingIfNeeded: lanes.fraction))
            setHalf(SampleControl.lastLeft, h, lanes.left * InterpolationTable.integerUnits)
            setHalf(SampleControl.lastRight, h, lanes.right * InterpolationTable.integerUnits)
            setHalf(SampleControl.z1, h, lanes.z1 * InterpolationTable.integerScale)
            setHalf(SampleControl.z2, h, lanes.z2 * InterpolationTable.integerScale)
            setHalf(SampleControl.alive, h, lanes.alive)
        }
        scattered(low, 0)
        if count > 4 { scattered(high, 1) }
        setRow(SampleControl.fade, fades)
        setRow(SampleControl.level, levels)
        // Filter states too small to matter flushed to 0 (denormal arithmetic is slow).
        setRow(SampleControl.z1, flushTiny(row(SampleControl.z1)))
        setRow(SampleControl.z2, flushTiny(row(SampleControl.z2)))
        // Kept for the next slice while none of its voices ended (Synth+SampleLaneCache.swift); else its
        // voices get their state back, those that ended are freed.
        let used = LaneInts(0, 1, 2, 3, 4, 5, 6, 7) .< LaneInts(repeating: Int32(truncatingIfNeeded: count))
        let ended = (row(SampleControl.alive) .== Lanes.zero .| row(SampleControl.fade) .<= Lanes.zero
            .| intRow(SampleControl.volumeStage) .== LaneInts(repeating: SampleEnvelope.done)) .& used
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
    func gatherSampleGroup(_ rows: SampleRows, _ slots: UnsafeMutablePointer<Int32>, count: Int, layer: Int,
                           sample: SampleData, unrollable: inout UInt8) {
        let floats = rows.floats, ints = rows.ints
        @inline(__always) func intRow(_ r: Int) -> LaneInts { UnsafeRawPointer(ints + 8 &* r).loadUnaligned(as: LaneInts.self) }
        let dataCount = sample.lastIndex[0] &+ 1
        // Per lane: the frames its unrolled copy's loop spans (a whole number of passes), 0 while it plays
        // from the font's data (rows, as the others: scalar writes).
        for l in 0..<8 {
            ints[8 &* SampleControl.unrolledSpan &+ l] = 0
            ints[8 &* SampleControl.lastIndex &+ l] = dataCount &- 1
            rows.offsets[l] = 0
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
            let loopStart = voice.pointee.loopStart, loopEnd = voice.pointee.loopEnd
            ints[8 &* SampleControl.wrapAt &+ l] = loops ? loopEnd : .max
            ints[8 &* SampleControl.loopLength &+ l] = loops ? loopEnd - loopStart : 0
            ints[8 &* SampleControl.stopAt &+ l] = loops ? .max : voice.pointee.end
            let length = loopEnd &- loopStart
            if loops && voice.pointee.unrolledSpan != 0 {
                _ = unrollLane(rows, l, slot: v, layer: layer, sample: sample, start: loopStart, length: length)
            } else if loops && length >= 2 && Int(length) <= (unrolledLoopFrames - 3) / 2 && sample.lowBytes == nil {
                unrollable |= 1 << UInt8(l)
            }
            if voice.pointee.unrolledSpan != 0 && !loops && voice.pointee.position >= loopStart {
                // Let go (loop mode 3) while in its loop's copy: back to the font's data, in the loop's one pass.
                voice.pointee.position = loopStart &+ (voice.pointee.position &- loopStart) % length
                voice.pointee.unrolledSpan = 0
            }
            ints[8 &* SampleControl.position &+ l] = voice.pointee.position
            ints[8 &* SampleControl.fraction &+ l] = Int32(bitPattern: voice.pointee.fraction)
            floats[8 &* SampleControl.z1 &+ l] = voices.ic1[v]
            floats[8 &* SampleControl.z2 &+ l] = voices.ic2[v]
            floats[8 &* SampleControl.lastLeft &+ l] = voice.pointee.lastLeft
            floats[8 &* SampleControl.lastRight &+ l] = voice.pointee.lastRight
            floats[8 &* SampleControl.alive &+ l] = 1
            floats[8 &* SampleControl.fade &+ l] = voices.fade[v]
            floats[8 &* SampleControl.reverbSend &+ l] = reverbOn ? voice.pointee.reverbSend : 0
            floats[8 &* SampleControl.chorusSend &+ l] = chorusOn ? voice.pointee.chorusSend : 0
            // What stays the same for the whole call (the channel's controllers change between calls).
            floats[8 &* SampleControl.damping &+ l] = voice.pointee.filterDamping
            floats[8 &* SampleControl.panLeft &+ l] = voice.pointee.panLeft
            floats[8 &* SampleControl.panRight &+ l] = voice.pointee.panRight
            floats[8 &* SampleControl.ratio &+ l] = voice.pointee.rateRatio
            floats[8 &* SampleControl.fadeStep &+ l] = voices.fadeStep[v]
            floats[8 &* SampleControl.pitchCents &+ l] = voice.pointee.pitchCents
            floats[8 &* SampleControl.modLFOToPitch &+ l] = voice.pointee.modLFOToPitch
            floats[8 &* SampleControl.vibLFOToPitch &+ l] = voice.pointee.vibLFOToPitch
            floats[8 &* SampleControl.modEnvToPitch &+ l] = voice.pointee.modEnvToPitch
            floats[8 &* SampleControl.attenuation &+ l] = voice.pointee.attenuation
            floats[8 &* SampleControl.modLFOToVolume &+ l] = voice.pointee.modLFOToVolume
            floats[8 &* SampleControl.filterBase &+ l] = voice.pointee.filterCents
            floats[8 &* SampleControl.modLFOToFilter &+ l] = voice.pointee.modLFOToFilter
            floats[8 &* SampleControl.modEnvToFilter &+ l] = voice.pointee.modEnvToFilter
        }
        // Empty lanes: silent, never wrapping or stopping, parked at frame 1 (`SampleLanes`).
        for l in count..<8 {
            for r in 0..<SampleControl.allFloatRows { floats[8 &* r &+ l] = 0 }
            floats[8 &* SampleControl.filterBase &+ l] = 13500
            floats[8 &* SampleControl.damping &+ l] = wideOpenDamping
            ints[8 &* SampleControl.wrapAt &+ l] = .max
            ints[8 &* SampleControl.stopAt &+ l] = .max
            ints[8 &* SampleControl.loopLength &+ l] = 0
            ints[8 &* SampleControl.volumeStage &+ l] = SampleEnvelope.done
            ints[8 &* SampleControl.modulationStage &+ l] = SampleEnvelope.done
            ints[8 &* SampleControl.position &+ l] = 1
            ints[8 &* SampleControl.fraction &+ l] = 0
        }
        // The four points i - 1 ... i + 2 are read at once while i - 1 <= this: before the loop's end and the
        // data's (else one by one, wrapping into the loop); an unrolled loop's up to wrapAt + 1 (`unrollLane`).
        var fastLimit = intRow(SampleControl.wrapAt)
        let dataCounts = LaneInts(repeating: dataCount) // a vector compare: with a scalar it is a loop
        fastLimit.replace(with: dataCounts, where: fastLimit .> dataCounts)
        let unrolled = intRow(SampleControl.unrolledSpan) .!= LaneInts()
        fastLimit.replace(with: intRow(SampleControl.wrapAt) &+ 2, where: unrolled)
        UnsafeMutableRawPointer(ints + 8 &* SampleControl.fastLimit).storeBytes(of: fastLimit &- 4, as: LaneInts.self)
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
    /// Half `h` of a group's rows (`SampleControl`) for the next block, `inverseLength` the block's 1 / samples.
    @_noLocks @inline(__always)
    mutating func startBlock(_ floats: UnsafeMutablePointer<Float>, _ ints: UnsafeMutablePointer<Int32>, half h: Int,
                             offsets: UnsafeMutablePointer<Int>, inverseLength: Float) {
        @inline(__always) func half(_ r: Int) -> HalfLanes {
            UnsafeRawPointer(floats + (8 &* r &+ 4 &* h)).loadUnaligned(as: HalfLanes.self)
        }
        @inline(__always) func halfInts(_ r: Int) -> HalfLaneInts {
            UnsafeRawPointer(ints + (8 &* r &+ 4 &* h)).loadUnaligned(as: HalfLaneInts.self)
        }
        // A lane whose sample has ended stays parked and silent (`carefulStep`).
        let ended = alive .== HalfLanes()
        whole = halfInts(SampleControl.whole)
        whole.replace(with: HalfLaneInts(), where: ended)
        part = HalfLaneBits(truncatingIfNeeded: halfInts(SampleControl.part))
        part.replace(with: HalfLaneBits(), where: ended)
        wrapAt = halfInts(SampleControl.wrapAt)
        loopLength = halfInts(SampleControl.loopLength)
        stopAt = halfInts(SampleControl.stopAt)
        fastLimit = halfInts(SampleControl.fastLimit)
        lastIndex = halfInts(SampleControl.lastIndex)
        offset = UnsafeRawPointer(offsets + 4 &* h).loadUnaligned(as: SIMD4<Int>.self)
        b1 = half(SampleControl.b1); b2 = half(SampleControl.b2); b3 = half(SampleControl.b3)
        let scale = InterpolationTable.integerScale
        stepLeft = (half(SampleControl.targetLeft) * scale - left) * inverseLength * alive
        stepRight = (half(SampleControl.targetRight) * scale - right) * inverseLength * alive
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
