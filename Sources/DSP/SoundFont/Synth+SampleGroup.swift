// Rendering SoundFont sample voices, eight at a time in the lanes of SIMD8 vectors, beside `renderGroup`:
// gather each voice's state, then per control block (up to `sampleControlInterval` samples) move the
// envelopes and LFOs on and compute pitch, level and filter coefficients, then per sample read the sample
// data (4-point cubic Hermite interpolation, loops), filter it (the synth's SVF step) and add it into the
// same lane sums as the wavetable voices. Levels ramp linearly across a block; a voice starts at the first
// sample of its slice, so note starts stay sample-accurate.

/// Sample voices get pitch, levels and filter coefficients once per this many samples (levels ramp between).
var sampleControlInterval: Int { @_noLocks get { 32 } }
/// A full-level sample voice's gain before pan: FluidSynth's default synth.gain, so levels match it.
var sampleVoiceGain: Float { @_noLocks get { 0.2 } }

typealias LaneInts = SIMD8<Int32>

extension Synth {
    /// Renders the sample voices `sampleVoices.activeSlots[0..<count]` into the lane sums.
    @_noLocks
    func renderSampleVoices(count: Int, frames: Int) {
        var start = 0
        while start < count {
            let n = min(8, count - start)
            renderSampleGroup(sampleVoices.activeSlots + start, count: n, frames: frames)
            start += n
        }
    }

    /// Up to eight sample voices (`slots[0..<count]`) over `frames` samples, added into the lane sums.
    @_noLocks
    func renderSampleGroup(_ slots: UnsafeMutablePointer<Int32>, count: Int, frames: Int) {
        var position = LaneInts(), fraction = LaneBits()
        var z1 = Lanes(), z2 = Lanes(), fades = Lanes(), fadeSteps = Lanes(), alive = Lanes()
        var left = Lanes(), right = Lanes()
        for l in 0..<count {
            let v = Int(slots[l])
            let voice = sampleVoices.state + v
            position[l] = voice.pointee.position
            fraction[l] = voice.pointee.fraction
            z1[l] = voices.ic1[v]; z2[l] = voices.ic2[v]
            fades[l] = voices.fade[v]; fadeSteps[l] = voices.fadeStep[v]
            left[l] = voice.pointee.lastLeft; right[l] = voice.pointee.lastRight
            alive[l] = 1
        }
        let data = font.data, lowBytes = font.lowBytes, lastIndex = LaneInts(repeating: Int32(max(font.dataCount - 1, 0)))
        let sumLeft = scratch.sumLeft, sumRight = scratch.sumRight
        var levels = Lanes()
        var n0 = 0
        while n0 < frames {
            let length = min(sampleControlInterval, frames - n0)
            var cents = Lanes(), centibels = Lanes(), filterCents = Lanes(repeating: 13500), damping = Lanes(repeating: 1.4)
            var envelopes = Lanes(), panLeft = Lanes(), panRight = Lanes(), ratios = Lanes()
            var wrapAt = LaneInts(repeating: .max), stopAt = LaneInts(repeating: .max), loopLength = LaneInts()
            for l in 0..<count {
                let v = Int(slots[l])
                let voice = sampleVoices.state + v
                if voices.stage[v] == Stage.release && voice.pointee.released == 0 {
                    voice.pointee.released = 1
                    voice.pointee.volumeEnvelope.release(decibelValue: true)
                    voice.pointee.modulationEnvelope.release(decibelValue: false)
                }
                let step = Float(length)
                voice.pointee.volumeEnvelope.advance(step)
                voice.pointee.modulationEnvelope.advance(step)
                voice.pointee.modulationLFO.advance(step)
                voice.pointee.vibratoLFO.advance(step)
                let s = voice.pointee
                let modLFO = s.modulationLFO.value, modEnv = s.modulationEnvelope.value
                cents[l] = s.pitchCents + modLFO * s.modLFOToPitch + s.vibratoLFO.value * s.vibLFOToPitch
                    + modEnv * s.modEnvToPitch
                centibels[l] = max(s.attenuation - modLFO * s.modLFOToVolume, 0)
                filterCents[l] = min(max(s.filterCents + modLFO * s.modLFOToFilter + modEnv * s.modEnvToFilter, 1500), 13500)
                damping[l] = s.filterDamping
                envelopes[l] = s.volumeEnvelope.amplitude
                panLeft[l] = s.panLeft; panRight[l] = s.panRight
                ratios[l] = s.rateRatio
                if s.loops {
                    wrapAt[l] = s.loopEnd
                    loopLength[l] = s.loopEnd - s.loopStart
                } else {
                    stopAt[l] = s.end
                }
            }
            // Frames of sample per output sample, as 32.32 fixed point (at most 256: far above any use).
            let increments = minLanes(ratios * exp2Lanes(cents * (1.0 / 1200)), Lanes(repeating: 256))
            var whole = LaneInts(), part = LaneBits()
            for l in 0..<8 {
                let w = Int32(increments[l])
                whole[l] = w
                part[l] = UInt32((increments[l] - Float(w)) * 4_294_967_296)
            }
            // svfStep returns twice the low-pass output: the half is folded into the levels.
            levels = envelopes * exp2Lanes(centibels * -0.016_609_640_5) * (0.5 * sampleVoiceGain)
            let stepLeft = (levels * panLeft - left) * (1 / Float(length))
            let stepRight = (levels * panRight - right) * (1 / Float(length))
            let (b1, b2, b3) = sampleFilterCoefficients(octaves: filterCents * (1.0 / 1200) + 3.031_33, k: damping,
                                                         inverseRate: inverseRate)
            for n in n0..<(n0 + length) {
                // The four points around the position; past a loop's end they continue from its start.
                var i1 = position &+ 1, i2 = position &+ 2
                i1.replace(with: i1 &- loopLength, where: i1 .>= wrapAt)
                i2.replace(with: i2 &- loopLength, where: i2 .>= wrapAt)
                let im1 = clampLanes(position &- 1, lastIndex), i0 = clampLanes(position, lastIndex)
                i1 = clampLanes(i1, lastIndex)
                i2 = clampLanes(i2, lastIndex)
                var xm1 = Lanes(), x0 = Lanes(), x1 = Lanes(), x2 = Lanes()
                if let low = lowBytes {
                    for l in 0..<8 {
                        xm1[l] = wideSample(data, low, im1[l]); x0[l] = wideSample(data, low, i0[l])
                        x1[l] = wideSample(data, low, i1[l]); x2[l] = wideSample(data, low, i2[l])
                    }
                } else {
                    for l in 0..<8 {
                        xm1[l] = Float(data[Int(im1[l])]); x0[l] = Float(data[Int(i0[l])])
                        x1[l] = Float(data[Int(i1[l])]); x2[l] = Float(data[Int(i2[l])])
                    }
                    let scale: Float = 1.0 / 32768
                    xm1 *= scale; x0 *= scale; x1 *= scale; x2 *= scale
                }
                let t = Lanes(LaneInts(truncatingIfNeeded: fraction &>> 8)) * (1.0 / 16_777_216)
                let c1 = 0.5 * (x1 - xm1)
                let c2 = xm1 - 2.5 * x0 + 2 * x1 - 0.5 * x2
                let c3 = 0.5 * (x2 - xm1) + 1.5 * (x0 - x1)
                let y = ((c3 * t + c2) * t + c1) * t + x0

                var lowZ1 = z1.lowHalf, lowZ2 = z2.lowHalf, highZ1 = z1.highHalf, highZ2 = z2.highHalf
                let outLow = svfStep(y.lowHalf, z1: &lowZ1, z2: &lowZ2, b1: b1.lowHalf, b2: b2.lowHalf, b3: b3.lowHalf)
                let outHigh = svfStep(y.highHalf, z1: &highZ1, z2: &highZ2, b1: b1.highHalf, b2: b2.highHalf, b3: b3.highHalf)
                z1 = Lanes(lowHalf: lowZ1, highHalf: highZ1)
                z2 = Lanes(lowHalf: lowZ2, highHalf: highZ2)
                left += stepLeft
                right += stepRight
                fades = maxLanes(fades - fadeSteps, .zero)
                let out = Lanes(lowHalf: outLow, highHalf: outHigh) * fades * alive
                let l8 = out * left, r8 = out * right
                sumLeft[2 &* n] += l8.lowHalf
                sumLeft[2 &* n &+ 1] += l8.highHalf
                sumRight[2 &* n] += r8.lowHalf
                sumRight[2 &* n &+ 1] += r8.highHalf

                let next = fraction &+ part
                position &+= whole
                position.replace(with: position &+ 1, where: next .< fraction)
                fraction = next
                position.replace(with: position &- loopLength, where: position .>= wrapAt)
                let stopped = position .>= stopAt
                if any(stopped) {
                    alive.replace(with: 0, where: stopped)
                    position.replace(with: stopAt &- 1, where: stopped)
                }
            }
            n0 += length
        }

        for l in 0..<count {
            let v = Int(slots[l])
            let voice = sampleVoices.state + v
            let finished = voice.pointee.volumeEnvelope.stage == SampleEnvelope.done
            if alive[l] == 0 || finished || fades[l] <= 0 {
                freeVoice(v)
                continue
            }
            voice.pointee.position = position[l]
            voice.pointee.fraction = fraction[l]
            voice.pointee.lastLeft = left[l]
            voice.pointee.lastRight = right[l]
            voices.fade[v] = fades[l]
            voices.envelope[v] = levels[l] // for stealing: the quietest released voice goes first
            // Flush states too small to matter: denormal arithmetic is slow.
            voices.ic1[v] = abs(z1[l]) < 1e-30 ? 0 : z1[l]
            voices.ic2[v] = abs(z2[l]) < 1e-30 ? 0 : z2[l]
        }
    }
}

/// A 24-bit sample point: the 16-bit word and its low byte.
@_noLocks @inline(__always)
func wideSample(_ data: UnsafePointer<Int16>, _ low: UnsafePointer<UInt8>, _ index: Int32) -> Float {
    Float(Int32(data[Int(index)]) << 8 | Int32(low[Int(index)])) * (1.0 / 8_388_608)
}

/// Lane by lane into 0...`upper`.
@_noLocks @inline(__always)
func clampLanes(_ x: LaneInts, _ upper: LaneInts) -> LaneInts {
    var result = x
    result.replace(with: upper, where: x .> upper)
    let zero = LaneInts()
    result.replace(with: zero, where: result .< zero)
    return result
}

/// `filterCoefficients` (StateVariableFilter.swift) with a damping per lane: the same Padé-warped SVF.
@_noLocks @inline(__always)
func sampleFilterCoefficients(octaves: Lanes, k: Lanes, inverseRate: Float) -> (b1: Lanes, b2: Lanes, b3: Lanes) {
    let normalized = minLanes(exp2Lanes(octaves) * inverseRate, Lanes(repeating: 0.45))
    let w = Float.pi * normalized
    let w2 = w * w
    let num = w * (15 - w2)
    let den = 15 - 6 * w2
    let den2 = den * den
    let inv = 1 / (den2 + num * (num + k * den))
    let twice = inv + inv
    return (den2 * twice - 1, num * den * twice, num * num * twice)
}
