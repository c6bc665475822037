// The synth's per-sample voice math on eight voices at once, one per lane of SIMD8 vectors, and the loops
// that run oscillator and filter over a slice. The per-sample step itself is four lanes wide (the loops of
// settled voices run half a group at a time; a moving group runs both halves): `voiceStep` is the one
// oscillator-and-filter step, `svfStep` (VoiceLoops, shared with the eight-lane loops) the one filter step.
// Every function is `@_noLocks`: in debug builds the checker cannot see bodies in other files.
import VoiceLoops // svfStep, shared with the eight-lane loops

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

/// The wavetable pair (value, delta) at each of four lanes' indices, split into values and deltas: one
/// 8-byte load per lane (x86 without AVX2 has no gather; the loads are lane by lane anyway).
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

/// Whether any of eight lanes is set: `any` of the stdlib calls its 8-lane `min()`, not inlined here.
@_noLocks @inline(__always)
func anyLane(_ mask: SIMDMask<LaneInts>) -> Bool {
    let bits = unsafeBitCast(mask, to: LaneInts.self)
    let halves = unsafeBitCast(bits.lowHalf | bits.highHalf, to: SIMD2<UInt64>.self)
    return halves[0] | halves[1] != 0
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

/// One sample of four voices' oscillator and filter: advances the phases by `increment`, reads the tables
/// (linear interpolation), runs the filter, and returns twice the filter's v2 (the 1/2 is folded into the
/// levels).
@_noLocks @_transparent
func voiceStep(pairs: UnsafePointer<SIMD2<Float>>, tableOffsets: HalfLaneBits, phase p: inout HalfLaneBits,
               increment: HalfLaneBits, z1: inout HalfLanes, z2: inout HalfLanes,
               b1: HalfLanes, b2: HalfLanes, b3: HalfLanes) -> HalfLanes {
    p &+= increment
    let (values, deltas) = lookUpHalf(pairs, (p &>> phaseFractionBits) &+ tableOffsets)
    let fraction = HalfLanes(SIMD4<Int32>(truncatingIfNeeded: p & ((1 << phaseFractionBits) - 1))) * phaseFractionScale
    return svfStep(values + fraction * deltas, z1: &z1, z2: &z2, b1: b1, b2: b2, b3: b3)
}

/// Half `half` (0: lanes 0-3, 1: lanes 4-7) of eight lanes.
@_noLocks @inline(__always)
func laneHalf(_ x: Lanes, _ half: Int) -> HalfLanes { half == 0 ? x.lowHalf : x.highHalf }
@_noLocks @inline(__always)
func laneHalf(_ x: LaneBits, _ half: Int) -> HalfLaneBits { half == 0 ? x.lowHalf : x.highHalf }

/// Half `half` (0: lanes 0-3, 1: lanes 4-7) of a group's eight lanes as the half-group loops read them: its
/// phases and filter states (changed per sample), table offsets, coefficients and levels (constant).
struct HalfGroup {
    let half: Int
    var phase: HalfLaneBits, z1: HalfLanes, z2: HalfLanes
    let offsets: HalfLaneBits, b1: HalfLanes, b2: HalfLanes, b3: HalfLanes, levelLeft: HalfLanes, levelRight: HalfLanes

    @_noLocks @inline(__always)
    init(_ half: Int, tableOffsets: LaneBits, phase: LaneBits, z1: Lanes, z2: Lanes, b1: Lanes, b2: Lanes, b3: Lanes,
         levelLeft: Lanes, levelRight: Lanes) {
        self.half = half
        self.phase = laneHalf(phase, half); self.z1 = laneHalf(z1, half); self.z2 = laneHalf(z2, half)
        offsets = laneHalf(tableOffsets, half)
        self.b1 = laneHalf(b1, half); self.b2 = laneHalf(b2, half); self.b3 = laneHalf(b3, half)
        self.levelLeft = laneHalf(levelLeft, half); self.levelRight = laneHalf(levelRight, half)
    }

    /// Sample `n`: oscillator and filter with phase steps `increment`, added times the levels into the lane
    /// sums at `2 n + half`.
    @_noLocks @inline(__always)
    mutating func step(_ n: Int, pairs: UnsafePointer<SIMD2<Float>>, increment: HalfLaneBits,
                       left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
        let out = voiceStep(pairs: pairs, tableOffsets: offsets, phase: &phase, increment: increment,
                            z1: &z1, z2: &z2, b1: b1, b2: b2, b3: b3)
        left[2 &* n &+ half] += out * levelLeft
        right[2 &* n &+ half] += out * levelRight
    }

    /// The half's phases and filter states written back into the group's eight lanes.
    @_noLocks @inline(__always)
    func store(phase lanes: inout LaneBits, z1 first: inout Lanes, z2 second: inout Lanes) {
        if half == 0 {
            lanes.lowHalf = phase; first.lowHalf = z1; second.lowHalf = z2
        } else {
            lanes.highHalf = phase; first.highHalf = z1; second.highHalf = z2
        }
    }
}

/// Oscillator and filter of four voices, half `half` (0 or 1) of a group's eight lanes, with coefficients,
/// levels and phase steps constant over the slice, adding each lane's output times its levels into the lane
/// sums: four lanes per half, `left[2 n + half]` (lanes summed later); the half's phases and filter states
/// are updated in place. Not inlined, so that its loop has the registers to itself rather than sharing them
/// with the large body of `renderGroup`.
@_noLocks @inline(never)
func oscillateAndFilter(frames: Int, half: Int, pairs: UnsafePointer<SIMD2<Float>>, tableOffsets: LaneBits,
                        phase: inout LaneBits, increment: LaneBits, z1: inout Lanes, z2: inout Lanes,
                        b1: Lanes, b2: Lanes, b3: Lanes, levelLeft: Lanes, levelRight: Lanes,
                        left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    var g = HalfGroup(half, tableOffsets: tableOffsets, phase: phase, z1: z1, z2: z2, b1: b1, b2: b2, b3: b3,
                      levelLeft: levelLeft, levelRight: levelRight)
    let step = laneHalf(increment, half)
    for n in 0..<frames { g.step(n, pairs: pairs, increment: step, left: left, right: right) }
    g.store(phase: &phase, z1: &z1, z2: &z2)
}

/// `oscillateAndFilter` of four voices with phase steps per sample: `increments[2 n + half]`.
@_noLocks @inline(never)
func glideAndFilter(frames: Int, half: Int, pairs: UnsafePointer<SIMD2<Float>>, tableOffsets: LaneBits,
                    phase: inout LaneBits, increments: UnsafePointer<HalfLaneBits>, z1: inout Lanes,
                    z2: inout Lanes, b1: Lanes, b2: Lanes, b3: Lanes, levelLeft: Lanes,
                    levelRight: Lanes, left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    var g = HalfGroup(half, tableOffsets: tableOffsets, phase: phase, z1: z1, z2: z2, b1: b1, b2: b2, b3: b3,
                      levelLeft: levelLeft, levelRight: levelRight)
    for n in 0..<frames { g.step(n, pairs: pairs, increment: increments[2 &* n &+ half], left: left, right: right) }
    g.store(phase: &phase, z1: &z1, z2: &z2)
}

/// `oscillateAndFilter` of four voices whose phase steps ramp linearly: `increment` at the first sample,
/// `slope` more at each next (wrapping arithmetic: a falling ramp's slope is negative in two's complement).
/// A glide's exponential pitch curve as a straight line over one slice, where it moves at most
/// `rampLimitCents` (Synth+VoiceGroup.swift): one add a sample instead of a load of a per-sample step.
@_noLocks @inline(never)
func rampAndFilter(frames: Int, half: Int, pairs: UnsafePointer<SIMD2<Float>>, tableOffsets: LaneBits,
                   phase: inout LaneBits, increment: LaneBits, slope: LaneBits, z1: inout Lanes,
                   z2: inout Lanes, b1: Lanes, b2: Lanes, b3: Lanes, levelLeft: Lanes,
                   levelRight: Lanes, left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    var g = HalfGroup(half, tableOffsets: tableOffsets, phase: phase, z1: z1, z2: z2, b1: b1, b2: b2, b3: b3,
                      levelLeft: levelLeft, levelRight: levelRight)
    var step = laneHalf(increment, half)
    let ramp = laneHalf(slope, half)
    for n in 0..<frames {
        g.step(n, pairs: pairs, increment: step, left: left, right: right)
        step &+= ramp
    }
    g.store(phase: &phase, z1: &z1, z2: &z2)
}

/// As `oscillateAndFilter` for a whole group (both halves), with coefficients and levels per sample from
/// `perSample` (b1, b2, b3, left level, right level, `stride` apart) and phase steps per sample from
/// `increments` if `incrementsVary`.
@_noLocks @inline(__always)
func oscillateAndFilter(frames: Int, pairs: UnsafePointer<SIMD2<Float>>, tableOffsets: LaneBits,
                        phase: inout LaneBits, increment: LaneBits, increments: UnsafePointer<LaneBits>,
                        incrementsVary: Bool, z1: inout Lanes, z2: inout Lanes,
                        perSample: UnsafePointer<Lanes>, stride: Int,
                        left: UnsafeMutablePointer<HalfLanes>, right: UnsafeMutablePointer<HalfLanes>) {
    var pLow = phase.lowHalf, pHigh = phase.highHalf
    var s1Low = z1.lowHalf, s1High = z1.highHalf, s2Low = z2.lowHalf, s2High = z2.highHalf
    let offsetsLow = tableOffsets.lowHalf, offsetsHigh = tableOffsets.highHalf
    for n in 0..<frames {
        let step = incrementsVary ? increments[n] : increment
        let b1 = perSample[n], b2 = perSample[stride &+ n], b3 = perSample[2 &* stride &+ n]
        let outLow = voiceStep(pairs: pairs, tableOffsets: offsetsLow, phase: &pLow, increment: step.lowHalf,
                               z1: &s1Low, z2: &s2Low, b1: b1.lowHalf, b2: b2.lowHalf, b3: b3.lowHalf)
        let outHigh = voiceStep(pairs: pairs, tableOffsets: offsetsHigh, phase: &pHigh, increment: step.highHalf,
                                z1: &s1High, z2: &s2High, b1: b1.highHalf, b2: b2.highHalf, b3: b3.highHalf)
        let levelLeft = perSample[3 &* stride &+ n], levelRight = perSample[4 &* stride &+ n]
        left[2 &* n] += outLow * levelLeft.lowHalf
        left[2 &* n &+ 1] += outHigh * levelLeft.highHalf
        right[2 &* n] += outLow * levelRight.lowHalf
        right[2 &* n &+ 1] += outHigh * levelRight.highHalf
    }
    phase = LaneBits(lowHalf: pLow, highHalf: pHigh)
    z1 = Lanes(lowHalf: s1Low, highHalf: s1High)
    z2 = Lanes(lowHalf: s2Low, highHalf: s2High)
}
