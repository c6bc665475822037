// The synth's filter: a state-variable low-pass (Cytomic / Andrew Simper's trapezoidal SVF), its
// coefficients for eight voices at once (its per-sample step, `svfStep`, is in VoiceLoops, shared
// with the AVX-512 loops). Every function is `@_noLocks`.

/// SVF damping for a resonance of 0...1: k = 1/Q from 2 (Q 0.5) down to 0.06 (Q about 17).
@_noLocks @inline(__always)
func damping(resonance: Float) -> Float { 2 - 1.94 * resonance }

/// The state-variable low-pass coefficients for cutoffs `octaves` (log2 Hz), damping `k`, in the form
/// `svfStep` uses: b1 = 2 a1 - 1, b2 = 2 a2, b3 = 2 a3 of the Cytomic (Simper) SVF, with
/// g = tan(pi fc / fs) as the Padé quotient N / D and one division.
/// One damping for all lanes (the built-in synth's filter).
@_noLocks @_transparent
func filterCoefficients(octaves: Lanes, k: Float, inverseRate: Float) -> (b1: Lanes, b2: Lanes, b3: Lanes) {
    filterCoefficients(octaves: octaves, k: Lanes(repeating: k), inverseRate: inverseRate)
}

/// A damping per lane (sample voices, each with its own resonance): the same arithmetic lane by lane.
@_noLocks @_transparent
func filterCoefficients(octaves: Lanes, k: Lanes, inverseRate: Float) -> (b1: Lanes, b2: Lanes, b3: Lanes) {
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

