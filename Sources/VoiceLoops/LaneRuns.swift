// What the voices' eight-lane loops share with their caller (DSP): the state of a run of eight lanes, and the
// filter steps, which are emitted into each caller and compiled for its CPU. The loops themselves are in
// Shared/EightLaneLoops.swift, written once and compiled three times: in VoiceLoopsPortable for any CPU (SSE2
// on x86-64, NEON on arm64), in VoiceLoopsAVX2 for AVX2 and FMA, in VoiceLoopsAVX512 for AVX-512. Each
// module's Gathers.swift reads the lanes' sample points and table entries the way its CPU does best. The
// arithmetic is the same in the same order in all three, so their samples are the same bit for bit (no fused
// multiply-adds: Swift does not contract `a * b + c`).

/// The state-variable low-pass step of every voice, built-in and sample (DSP's four-lane loops and the
/// eight-lane ones), Simper's step rearranged to 9 operations: with v3 = x - z2,
///   z1' = b1 z1 + b2 v3,  z2' = (z2 + b2 z1) + b3 v3,  output 2 v2 = z2 + z2'.
/// The integrator's sum is grouped so that its feedback is short: the state's loop through a sample is a
/// subtract, a multiply and an add. Returns twice the low-pass output v2 (the 1/2 is folded into the levels).
@_alwaysEmitIntoClient @inline(__always)
public func svfStep<Lanes: SIMD>(_ x: Lanes, z1 s1: inout Lanes, z2 s2: inout Lanes,
                                 b1: Lanes, b2: Lanes, b3: Lanes) -> Lanes where Lanes.Scalar == Float {
    let v3 = x - s2
    let next1 = b1 * s1 + b2 * v3
    let next2 = (s2 + b2 * s1) + b3 * v3
    let out = s2 + next2
    s1 = next1
    s2 = next2
    return out
}

/// The state of eight sample voices over a fast run (DSP's `fastSamples` says how long): lanes 0-3 are a
/// group's low half, 4-7 its high half, as the lane sums hold them (eight floats per output sample). Only
/// stored properties and an initializer emitted into the caller, so that building one runs no code of the
/// module a CPU may not run.
@frozen public struct WideSampleRun {
    /// Each lane's place in its sample in 32.32 fixed point (frame, fraction) and its step per output sample.
    public var phase: SIMD8<UInt64>
    public var increment: SIMD8<UInt64>
    /// Each lane's frame 0 as a 16-bit word index from address 0, less one: the word of its point i - 1.
    public var origin: SIMD8<Int64>
    /// The filter (`svfStep`) and the levels, in the units of DSP's `SampleLanes`.
    public var z1: SIMD8<Float>, z2: SIMD8<Float>, b1: SIMD8<Float>, b2: SIMD8<Float>, b3: SIMD8<Float>
    public var left: SIMD8<Float>, right: SIMD8<Float>, stepLeft: SIMD8<Float>, stepRight: SIMD8<Float>

    @_alwaysEmitIntoClient
    public init() {
        phase = SIMD8(); increment = SIMD8(); origin = SIMD8()
        z1 = SIMD8(); z2 = SIMD8(); b1 = SIMD8(); b2 = SIMD8(); b3 = SIMD8()
        left = SIMD8(); right = SIMD8(); stepLeft = SIMD8(); stepRight = SIMD8()
    }
}

/// Eight built-in voices of a steady group (phase steps, coefficients and levels constant over the slice):
/// their phases, their wavetables' offsets in the shared bank, the filter and the levels.
@frozen public struct WideWavetableRun {
    public var phase: SIMD8<UInt32>, increment: SIMD8<UInt32>, offsets: SIMD8<UInt32>
    public var z1: SIMD8<Float>, z2: SIMD8<Float>, b1: SIMD8<Float>, b2: SIMD8<Float>, b3: SIMD8<Float>
    public var levelLeft: SIMD8<Float>, levelRight: SIMD8<Float>

    @_alwaysEmitIntoClient
    public init() {
        phase = SIMD8(); increment = SIMD8(); offsets = SIMD8()
        z1 = SIMD8(); z2 = SIMD8(); b1 = SIMD8(); b2 = SIMD8(); b3 = SIMD8()
        levelLeft = SIMD8(); levelRight = SIMD8()
    }
}

/// Eight lanes' interpolated values from their four 16-bit points and their table rows of four 16-bit
/// weights: each lane's two products of pairs, added. Exact in 32 bits (the table's weights sum to 2^15), so
/// every way of computing it gives the same integers. Emitted into each loop module, for its CPU, by those
/// whose CPU has no gather (Gathers.swift).
@_noLocks @_alwaysEmitIntoClient @inline(__always)
public func portableInterpolation(points: SIMD8<Int64>, rows: UnsafeRawPointer, row: SIMD8<Int64>) -> SIMD8<Float> {
    @inline(__always) func lane(_ l: Int) -> Int32 {
        let p = UnsafeRawPointer(bitPattern: Int(points[l]) &* 2).unsafelyUnwrapped.loadUnaligned(as: SIMD4<Int16>.self)
        let w = rows.load(fromByteOffset: Int(row[l]) &* 8, as: SIMD4<Int16>.self)
        let products = SIMD4<Int32>(Int32(p[0]) &* Int32(w[0]), Int32(p[1]) &* Int32(w[1]),
                                    Int32(p[2]) &* Int32(w[2]), Int32(p[3]) &* Int32(w[3]))
        return (products[0] &+ products[1]) &+ (products[2] &+ products[3])
    }
    return SIMD8<Float>(SIMD8<Int32>(lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), lane(6), lane(7)))
}

/// Eight lanes' wavetable pairs (value, delta) at `index` in `pairs`, split into values and deltas: one 8-byte
/// load per lane. Emitted into each loop module whose CPU has no gather (Gathers.swift).
@_noLocks @_alwaysEmitIntoClient @inline(__always)
public func portablePairs(_ pairs: UnsafeRawPointer, _ index: SIMD8<UInt32>) -> (values: SIMD8<Float>, deltas: SIMD8<Float>) {
    @inline(__always) func pair(_ l: Int) -> SIMD2<Float> {
        pairs.load(fromByteOffset: Int(index[l]) &* 8, as: SIMD2<Float>.self)
    }
    let a = pair(0), b = pair(1), c = pair(2), d = pair(3), e = pair(4), f = pair(5), g = pair(6), h = pair(7)
    return (SIMD8(a[0], b[0], c[0], d[0], e[0], f[0], g[0], h[0]), SIMD8(a[1], b[1], c[1], d[1], e[1], f[1], g[1], h[1]))
}
