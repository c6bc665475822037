// Rendering SoundFont sample voices, eight at a time in the lanes of SIMD8 vectors, beside `renderGroup`:
// gather each voice's state, then per control block (up to `sampleControlInterval` samples) move the
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
        var low = SampleLanes(), high = SampleLanes()
        var fades = Lanes()
        for l in 0..<count {
            let v = Int(slots[l])
            let voice = sampleVoices.state + v
            let i = l & 3
            if l < 4 {
                low.position[i] = voice.pointee.position; low.fraction[i] = voice.pointee.fraction
                low.z1[i] = voices.ic1[v]; low.z2[i] = voices.ic2[v]
                low.left[i] = voice.pointee.lastLeft; low.right[i] = voice.pointee.lastRight
                low.alive[i] = 1
            } else {
                high.position[i] = voice.pointee.position; high.fraction[i] = voice.pointee.fraction
                high.z1[i] = voices.ic1[v]; high.z2[i] = voices.ic2[v]
                high.left[i] = voice.pointee.lastLeft; high.right[i] = voice.pointee.lastRight
                high.alive[i] = 1
            }
            fades[l] = voices.fade[v]
        }
        let dataCount = Int32(max(font.dataCount, 1))
        let sample = SampleData(data: font.data, lowBytes: font.lowBytes, lastIndex: HalfLaneInts(repeating: dataCount - 1))
        let floats = sampleVoices.controlFloats, ints = sampleVoices.controlInts
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
        // Empty lanes: silent, never wrapping or stopping.
        for l in count..<8 {
            for r in 0..<SampleControl.floatRows { floats[8 &* r &+ l] = 0 }
            floats[8 &* SampleControl.filterCents &+ l] = 13500
            floats[8 &* SampleControl.damping &+ l] = wideOpenDamping
            ints[8 &* SampleControl.wrapAt &+ l] = .max
            ints[8 &* SampleControl.stopAt &+ l] = .max
            ints[8 &* SampleControl.loopLength &+ l] = 0
        }
        var levels = Lanes()
        var n0 = 0
        while n0 < frames {
            let length = min(sampleControlInterval, frames - n0)
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
                let modLFO = s.modulationLFO.value, modEnv = s.modulationEnvelope.value, vibLFO = s.vibratoLFO.value
                floats[8 &* SampleControl.cents &+ l] = s.pitchCents + modLFO * s.modLFOToPitch
                    + vibLFO * s.vibLFOToPitch + modEnv * s.modEnvToPitch
                floats[8 &* SampleControl.centibels &+ l] = max(s.attenuation - modLFO * s.modLFOToVolume, 0)
                floats[8 &* SampleControl.filterCents &+ l] = min(max(s.filterCents + modLFO * s.modLFOToFilter
                    + modEnv * s.modEnvToFilter, 1500), 13500)
                floats[8 &* SampleControl.damping &+ l] = s.filterDamping
                floats[8 &* SampleControl.envelope &+ l] = s.volumeEnvelope.amplitude
                floats[8 &* SampleControl.panLeft &+ l] = s.panLeft
                floats[8 &* SampleControl.panRight &+ l] = s.panRight
                floats[8 &* SampleControl.ratio &+ l] = s.rateRatio
                floats[8 &* SampleControl.fadeStep &+ l] = voices.fadeStep[v]
                let loops = s.loops
                ints[8 &* SampleControl.wrapAt &+ l] = loops ? s.loopEnd : .max
                ints[8 &* SampleControl.loopLength &+ l] = loops ? s.loopEnd - s.loopStart : 0
                ints[8 &* SampleControl.stopAt &+ l] = loops ? .max : s.end
            }
            // Frames of sample per output sample, as 32.32 fixed point (at most 256: far above any use).
            let increments = minLanes(row(SampleControl.ratio) * exp2Lanes(row(SampleControl.cents) * (1.0 / 1200)),
                                      Lanes(repeating: 256))
            setRow(SampleControl.increment, increments)
            for l in 0..<8 {
                let x = floats[8 &* SampleControl.increment &+ l]
                let w = Int32(x)
                ints[8 &* SampleControl.whole &+ l] = w
                ints[8 &* SampleControl.part &+ l] = Int32(bitPattern: UInt32((x - Float(w)) * 4_294_967_296))
            }
            // A stolen voice's fade is folded into the block's ramp: linear from where it was to where it
            // will be. svfStep returns twice the low-pass output: the half is folded into the levels too.
            fades = maxLanes(fades - row(SampleControl.fadeStep) * Float(length), .zero)
            levels = row(SampleControl.envelope) * exp2Lanes(row(SampleControl.centibels) * -0.016_609_640_5)
                * (0.5 * sampleVoiceGain)
            setRow(SampleControl.targetLeft, levels * row(SampleControl.panLeft) * fades)
            setRow(SampleControl.targetRight, levels * row(SampleControl.panRight) * fades)
            let (b1, b2, b3) = sampleFilterCoefficients(octaves: row(SampleControl.filterCents) * (1.0 / 1200) + 3.031_33,
                                                         k: row(SampleControl.damping), inverseRate: inverseRate)
            setRow(SampleControl.b1, b1); setRow(SampleControl.b2, b2); setRow(SampleControl.b3, b3)
            // The four points i - 1 ... i + 2 are read at once while i - 1 <= this: before the loop's end and the
            // data's (else one by one, wrapping into the loop).
            var fastLimit = intRow(SampleControl.wrapAt)
            fastLimit.replace(with: dataCount, where: fastLimit .> dataCount)
            UnsafeMutableRawPointer(ints + 8 &* SampleControl.fastLimit).storeBytes(of: fastLimit &- 4, as: LaneInts.self)
            let inverseLength = 1 / Float(length)
            for h in 0..<(count > 4 ? 2 : 1) {
                var lanes = h == 0 ? low : high
                lanes.whole = halfInts(SampleControl.whole, h)
                lanes.part = HalfLaneBits(truncatingIfNeeded: halfInts(SampleControl.part, h))
                lanes.wrapAt = halfInts(SampleControl.wrapAt, h)
                lanes.loopLength = halfInts(SampleControl.loopLength, h)
                lanes.stopAt = halfInts(SampleControl.stopAt, h)
                lanes.fastLimit = halfInts(SampleControl.fastLimit, h)
                lanes.b1 = half(SampleControl.b1, h); lanes.b2 = half(SampleControl.b2, h); lanes.b3 = half(SampleControl.b3, h)
                lanes.stepLeft = (half(SampleControl.targetLeft, h) - lanes.left) * inverseLength
                lanes.stepRight = (half(SampleControl.targetRight, h) - lanes.right) * inverseLength
                let cutoffs = half(SampleControl.filterCents, h), dampings = half(SampleControl.damping, h)
                lanes.filtered = false
                for i in 0..<4 where cutoffs[i] < 13500 || dampings[i] < wideOpenDamping - 0.01 { lanes.filtered = true }
                playSamples(&lanes, sample, from: n0, count: length, half: h,
                            left: scratch.sumLeft, right: scratch.sumRight)
                if h == 0 { low = lanes } else { high = lanes }
            }
            n0 += length
        }

        for l in 0..<count {
            let v = Int(slots[l])
            let voice = sampleVoices.state + v
            let lanes = l < 4 ? low : high
            let i = l & 3
            let finished = voice.pointee.volumeEnvelope.stage == SampleEnvelope.done
            if lanes.alive[i] == 0 || finished || fades[l] <= 0 {
                freeVoice(v)
                continue
            }
            voice.pointee.position = lanes.position[i]
            voice.pointee.fraction = lanes.fraction[i]
            voice.pointee.lastLeft = lanes.left[i]
            voice.pointee.lastRight = lanes.right[i]
            voices.fade[v] = fades[l]
            voices.envelope[v] = levels[l] // for stealing: the quietest released voice goes first
            // Flush states too small to matter: denormal arithmetic is slow.
            voices.ic1[v] = abs(lanes.z1[i]) < 1e-30 ? 0 : lanes.z1[i]
            voices.ic2[v] = abs(lanes.z2[i]) < 1e-30 ? 0 : lanes.z2[i]
        }
    }
}

/// The four points i - 1 ... i + 2 around lane `l`'s position i, as one vector. The usual case is one 8-byte
/// read; near a loop's end (where the points continue from its start), near the ends of the data, or for
/// 24-bit samples, `carefulPoints` reads them one by one.
@_noLocks @inline(__always)
func lanePoints(_ s: SampleData, _ lanes: SampleLanes, _ l: Int) -> HalfLanes {
    let first = lanes.position[l] &- 1
    guard s.lowBytes == nil && UInt32(bitPattern: first) <= UInt32(bitPattern: lanes.fastLimit[l]) else {
        return carefulPoints(s, lanes.position[l], wrapAt: lanes.wrapAt[l], loopLength: lanes.loopLength[l])
    }
    let words = (UnsafeRawPointer(s.data) + 2 &* Int(first)).loadUnaligned(as: SIMD4<Int16>.self)
    return HalfLanes(HalfLaneInts(truncatingIfNeeded: words)) * (1.0 / 32768)
}

/// `lanePoints` the slow way: each point clamped into the data, and past a loop's end continued from its start.
@_noLocks @inline(never)
func carefulPoints(_ s: SampleData, _ p: Int32, wrapAt wrap: Int32, loopLength length: Int32) -> HalfLanes {
    let last = s.lastIndex[0]
    var i1 = p &+ 1, i2 = p &+ 2
    if i1 >= wrap { i1 = i1 &- length }
    if i2 >= wrap { i2 = i2 &- length }
    return HalfLanes(point(s, min(max(p &- 1, 0), last)), point(s, min(max(p, 0), last)),
                     point(s, min(max(i1, 0), last)), point(s, min(max(i2, 0), last)))
}

/// One sample point, 16 or 24 bits, as -1...1.
@_noLocks @inline(__always)
func point(_ s: SampleData, _ index: Int32) -> Float {
    if let low = s.lowBytes { return wideSample(s.data, low, index) }
    return Float(s.data[Int(index)]) * (1.0 / 32768)
}

/// Four sample voices over `count` samples from frame `start`: read and interpolate (cubic Hermite), filter,
/// ramp the levels, add into the lane sums (`left[2 n + half]`), move on through the sample and its loop.
/// Not inlined, and four lanes wide, so its state stays in registers (as `oscillateAndFilter`).
@_noLocks @inline(never)
func playSamples(_ lanes: inout SampleLanes, _ sample: SampleData, from start: Int, count: Int, half: Int,
                 left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    var s = lanes
    let sumLeft = left + half, sumRight = right + half
    if s.filtered {
        playLoop(&s, sample, from: start, count: count, sumLeft: sumLeft, sumRight: sumRight, filtered: true)
    } else {
        playLoop(&s, sample, from: start, count: count, sumLeft: sumLeft, sumRight: sumRight, filtered: false)
    }
    lanes = s
}

/// The loop of `playSamples`, with the filter or without.
@_noLocks @inline(__always)
func playLoop(_ s: inout SampleLanes, _ sample: SampleData, from start: Int, count: Int,
              sumLeft: UnsafeMutablePointer<HalfLanes>, sumRight: UnsafeMutablePointer<HalfLanes>, filtered: Bool) {
    var y = HalfLanes()
    for n in start..<(start + count) {
        let a = lanePoints(sample, s, 0), b = lanePoints(sample, s, 1)
        let c = lanePoints(sample, s, 2), d = lanePoints(sample, s, 3)
        // A 4 x 4 transpose in two rounds of interleaving (unpcklps/unpckhps, then movlhps/movhlps).
        let ab0 = HalfLanes(a[0], b[0], a[1], b[1]), cd0 = HalfLanes(c[0], d[0], c[1], d[1])
        let ab1 = HalfLanes(a[2], b[2], a[3], b[3]), cd1 = HalfLanes(c[2], d[2], c[3], d[3])
        let xm1 = HalfLanes(lowHalf: ab0.lowHalf, highHalf: cd0.lowHalf)
        let x0 = HalfLanes(lowHalf: ab0.highHalf, highHalf: cd0.highHalf)
        let x1 = HalfLanes(lowHalf: ab1.lowHalf, highHalf: cd1.lowHalf)
        let x2 = HalfLanes(lowHalf: ab1.highHalf, highHalf: cd1.highHalf)
        let t = HalfLanes(HalfLaneInts(truncatingIfNeeded: s.fraction &>> 8)) * (1.0 / 16_777_216)
        let c1 = 0.5 * (x1 - xm1)
        let c2 = xm1 - 2.5 * x0 + 2 * x1 - 0.5 * x2
        let c3 = 0.5 * (x2 - xm1) + 1.5 * (x0 - x1)
        y = ((c3 * t + c2) * t + c1) * t + x0
        let filteredTwice = filtered ? svfStep(y, z1: &s.z1, z2: &s.z2, b1: s.b1, b2: s.b2, b3: s.b3) : y + y
        let out = filteredTwice * s.alive
        s.left += s.stepLeft
        s.right += s.stepRight
        sumLeft[2 &* n] += out * s.left
        sumRight[2 &* n] += out * s.right

        let next = s.fraction &+ s.part
        s.position &+= s.whole
        s.position.replace(with: s.position &+ 1, where: next .< s.fraction)
        s.fraction = next
        s.position.replace(with: s.position &- s.loopLength, where: s.position .>= s.wrapAt)
        s.alive.replace(with: 0, where: s.position .>= s.stopAt)
    }
    if !filtered {
        // The filter's state as if it had run wide open (it settles to its input within a few samples),
        // so that it takes over without a step when the cutoff comes down.
        s.z1 = HalfLanes()
        s.z2 = y
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
