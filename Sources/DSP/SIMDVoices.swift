// The synth's per-sample voice math on eight voices at once, one per lane of SIMD8 vectors.
// Every function is `@_noLocks`: in debug builds the checker cannot see bodies in other files.

/// Eight voices' values of one quantity.
typealias Lanes = SIMD8<Float>
/// Eight voices' fixed-point phases (cycles times 2^32, wrapping) or table indices.
typealias LaneBits = SIMD8<UInt32>
/// Four voices (half a group): the settled-voice loop runs half a group at a time, which fits its state
/// in the 16 SSE registers (eight lanes spill) and skips empty halves.
typealias HalfLanes = SIMD4<Float>
typealias HalfLaneBits = SIMD4<UInt32>

/// Phase bits below the table index: 32 bits of phase, 11 of them (2048 points) index the table.
var phaseFractionBits: UInt32 { @_noLocks get { 21 } }
/// 2^-21: the phase bits below the index as a fraction of one table step.
var phaseFractionScale: Float { @_noLocks get { 1.0 / 2_097_152 } }
/// Cycles per sample to fixed-point phase steps.
var phaseStepsPerCycle: Float { @_noLocks get { 4_294_967_296 } }

/// The wavetable pair (value, delta) at each lane's index, split into values and deltas: one 8-byte
/// load per lane (x86 without AVX2 has no gather; the loads are lane by lane anyway).
@_noLocks @inline(__always)
func lookUp(_ pairs: UnsafePointer<SIMD2<Float>>, _ index: LaneBits) -> (values: Lanes, deltas: Lanes) {
    let a = SIMD4(lowHalf: pairs[Int(index[0])], highHalf: pairs[Int(index[1])])
    let b = SIMD4(lowHalf: pairs[Int(index[2])], highHalf: pairs[Int(index[3])])
    let c = SIMD4(lowHalf: pairs[Int(index[4])], highHalf: pairs[Int(index[5])])
    let d = SIMD4(lowHalf: pairs[Int(index[6])], highHalf: pairs[Int(index[7])])
    return (Lanes(a[0], a[2], b[0], b[2], c[0], c[2], d[0], d[2]),
            Lanes(a[1], a[3], b[1], b[3], c[1], c[3], d[1], d[3]))
}

/// `lookUp` for four lanes.
@_noLocks @inline(__always)
func lookUpHalf(_ pairs: UnsafePointer<SIMD2<Float>>, _ index: HalfLaneBits) -> (values: HalfLanes, deltas: HalfLanes) {
    let a = SIMD4(lowHalf: pairs[Int(index[0])], highHalf: pairs[Int(index[1])])
    let b = SIMD4(lowHalf: pairs[Int(index[2])], highHalf: pairs[Int(index[3])])
    return (HalfLanes(a[0], a[2], b[0], b[2]), HalfLanes(a[1], a[3], b[1], b[3]))
}

/// `min` lane by lane (the stdlib's `pointwiseMin` is not inlined).
@_noLocks @inline(__always)
func minLanes(_ a: Lanes, _ b: Lanes) -> Lanes {
    var result = a
    result.replace(with: b, where: b .< a)
    return result
}

/// `max` lane by lane.
@_noLocks @inline(__always)
func maxLanes(_ a: Lanes, _ b: Lanes) -> Lanes {
    var result = a
    result.replace(with: b, where: b .> a)
    return result
}

/// `FastMath.exp2` lane by lane, the same operations in the same order (bit-identical results).
@_noLocks @inline(__always)
func exp2Lanes(_ x: Lanes) -> Lanes {
    let clamped = minLanes(maxLanes(x, Lanes(repeating: -126)), Lanes(repeating: 126))
    let shifted = clamped + 12_582_912
    let whole = shifted - 12_582_912
    let f = (clamped - whole) * 0.693_147_18
    let c6: Float = 1.0 / 720, c5: Float = 1.0 / 120, c4: Float = 1.0 / 24, c3: Float = 1.0 / 6
    var p: Lanes = f * c6 + c5
    p = p * f + c4
    p = p * f + c3
    p = p * f + 0.5
    p = p * f + 1
    p = p * f + 1
    let bits = unsafeBitCast(shifted, to: LaneBits.self)
    return p * unsafeBitCast((bits &+ 127) &<< 23, to: Lanes.self)
}

/// The state-variable low-pass coefficients for cutoffs `octaves` (log2 Hz), damping `k`, in the form
/// `oscillateAndFilter` uses: b1 = 2 a1 - 1, b2 = 2 a2, b3 = 2 a3 of the Cytomic (Simper) SVF, with
/// g = tan(pi fc / fs) as the Padé quotient N / D and one division.
@_noLocks @_transparent
func filterCoefficients(octaves: Lanes, k: Float, inverseRate: Float) -> (b1: Lanes, b2: Lanes, b3: Lanes) {
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

/// One sample of eight voices' oscillator and filter: advances the phases and filter states and returns
/// twice the filter's v2 (the 1/2 is folded into the levels).
///
/// The SVF step is Simper's rearranged to 9 operations: with v3 = x - z2,
///   z1' = b1 z1 + b2 v3,  u = b2 z1 + b3 v3,  z2' = z2 + u,  output 2 v2 = z2 + z2'.
@_noLocks @_transparent
func voiceStep(pairs: UnsafePointer<SIMD2<Float>>, tableOffsets: LaneBits, phase p: inout LaneBits,
               increment: LaneBits, z1 s1: inout Lanes, z2 s2: inout Lanes, b1: Lanes, b2: Lanes, b3: Lanes) -> Lanes {
    p &+= increment
    let (values, deltas) = lookUp(pairs, (p &>> phaseFractionBits) &+ tableOffsets)
    let fraction = Lanes(SIMD8<Int32>(truncatingIfNeeded: p & ((1 << phaseFractionBits) - 1))) * phaseFractionScale
    let x = values + fraction * deltas
    let v3 = x - s2
    let next1 = b1 * s1 + b2 * v3
    let u = b2 * s1 + b3 * v3
    let next2 = s2 + u
    let out = s2 + next2
    s1 = next1
    s2 = next2
    return out
}

/// Oscillator and filter of four voices (`half` 0 or 1 of a group) with coefficients, levels and phase
/// steps constant over the slice, adding each lane's output times its levels into the lane sums: four
/// lanes per half, `left[2 n + half]` (lanes summed later). `voiceStep` on four lanes.
@_noLocks @inline(__always)
func oscillateAndFilter(frames: Int, half: Int, pairs: UnsafePointer<SIMD2<Float>>, tableOffsets: HalfLaneBits,
                        phase: inout HalfLaneBits, increment: HalfLaneBits, z1: inout HalfLanes, z2: inout HalfLanes,
                        b1: HalfLanes, b2: HalfLanes, b3: HalfLanes, levelLeft: HalfLanes, levelRight: HalfLanes,
                        left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    var p = phase, s1 = z1, s2 = z2
    let sumLeft = left + half, sumRight = right + half
    for n in 0..<frames {
        p &+= increment
        let (values, deltas) = lookUpHalf(pairs, (p &>> phaseFractionBits) &+ tableOffsets)
        let fraction = HalfLanes(SIMD4<Int32>(truncatingIfNeeded: p & ((1 << phaseFractionBits) - 1)))
            * phaseFractionScale
        let x = values + fraction * deltas
        let v3 = x - s2
        let next1 = b1 * s1 + b2 * v3
        let u = b2 * s1 + b3 * v3
        let next2 = s2 + u
        let out = s2 + next2
        s1 = next1
        s2 = next2
        sumLeft[2 &* n] += out * levelLeft
        sumRight[2 &* n] += out * levelRight
    }
    phase = p
    z1 = s1
    z2 = s2
}

/// `oscillateAndFilter` of four voices with phase steps per sample: `increments[2 n + half]`.
@_noLocks @inline(never)
func glideAndFilter(frames: Int, half: Int, pairs: UnsafePointer<SIMD2<Float>>, tableOffsets: HalfLaneBits,
                    phase: inout HalfLaneBits, increments: UnsafePointer<HalfLaneBits>, z1: inout HalfLanes,
                    z2: inout HalfLanes, b1: HalfLanes, b2: HalfLanes, b3: HalfLanes, levelLeft: HalfLanes,
                    levelRight: HalfLanes, left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    var p = phase, s1 = z1, s2 = z2
    let sumLeft = left + half, sumRight = right + half, steps = increments + half
    for n in 0..<frames {
        p &+= steps[2 &* n]
        let (values, deltas) = lookUpHalf(pairs, (p &>> phaseFractionBits) &+ tableOffsets)
        let fraction = HalfLanes(SIMD4<Int32>(truncatingIfNeeded: p & ((1 << phaseFractionBits) - 1)))
            * phaseFractionScale
        let x = values + fraction * deltas
        let v3 = x - s2
        let next1 = b1 * s1 + b2 * v3
        let u = b2 * s1 + b3 * v3
        let next2 = s2 + u
        let out = s2 + next2
        s1 = next1
        s2 = next2
        sumLeft[2 &* n] += out * levelLeft
        sumRight[2 &* n] += out * levelRight
    }
    phase = p
    z1 = s1
    z2 = s2
}

/// As `oscillateAndFilter`, with coefficients and levels per sample from `perSample` (b1, b2, b3, left
/// level, right level, `stride` apart) and phase steps per sample from `increments` if `incrementsVary`.
@_noLocks @inline(__always)
func oscillateAndFilter(frames: Int, pairs: UnsafePointer<SIMD2<Float>>, tableOffsets: LaneBits,
                        phase: inout LaneBits, increment: LaneBits, increments: UnsafePointer<LaneBits>,
                        incrementsVary: Bool, z1: inout Lanes, z2: inout Lanes,
                        perSample: UnsafePointer<Lanes>, stride: Int,
                        left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    var p = phase, s1 = z1, s2 = z2
    for n in 0..<frames {
        let out = voiceStep(pairs: pairs, tableOffsets: tableOffsets, phase: &p,
                            increment: incrementsVary ? increments[n] : increment, z1: &s1, z2: &s2,
                            b1: perSample[n], b2: perSample[stride + n], b3: perSample[2 * stride + n])
        let outLeft = out * perSample[3 * stride + n], outRight = out * perSample[4 * stride + n]
        left[2 &* n] += outLeft.lowHalf
        left[2 &* n &+ 1] += outLeft.highHalf
        right[2 &* n] += outRight.lowHalf
        right[2 &* n &+ 1] += outRight.highHalf
    }
    phase = p
    z1 = s1
    z2 = s2
}
