// The filter step of sample voices whose filter is not a low-pass (SFZ's `fil_type`): the same SVF as
// `svfStep`, its output a mix of the input, the band-pass and the low-pass. The low-pass voices keep
// `svfStep` and its loops as they are; only a group with another shape plays this step.

/// `svfStep` with the output mixed: `input x + band (2 v1) + low (2 v2)`, where v1 and v2 are the SVF's
/// band-pass and low-pass outputs (2 v1 = z1 + z1', 2 v2 = z2 + z2'). With the SVF's denominator
/// s^2 + k s + 1, the mix (0, 0, 1) is `svfStep`'s low-pass, (2, -k, -1) the high-pass, (0, k, 0) the band-pass
/// with 0 dB at its peak, (2, -k, 0) the notch; at k = 2 (a double pole) (0, 1, 1) is the one-pole low-pass and
/// (2, -1, -1) the one-pole high-pass (a zero cancels one of the poles). Twice the output, as `svfStep`'s.
@_alwaysEmitIntoClient @inline(__always)
public func svfMixStep<Lanes: SIMD>(_ x: Lanes, z1 s1: inout Lanes, z2 s2: inout Lanes, b1: Lanes, b2: Lanes, b3: Lanes,
                                    input: Lanes, band: Lanes, low: Lanes) -> Lanes where Lanes.Scalar == Float {
    let v3 = x - s2
    let next1 = b1 * s1 + b2 * v3
    let next2 = (s2 + b2 * s1) + b3 * v3
    let out = (input * x + band * (s1 + next1)) + low * (s2 + next2)
    s1 = next1
    s2 = next2
    return out
}
