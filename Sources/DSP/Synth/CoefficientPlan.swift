// Coefficient planning for a group of voices whose filter moves within a slice.

/// Writes a moving group's filter coefficients for every sample of the slice into `perSample` (b1, b2, b3
/// at offsets 0, `stride`, `2 stride`), from the smoothed `cutoffs`, envelope `amounts` and `damping` per
/// sample and the group's envelopes, which the envelope pass left at offset `2 stride` (each is read before
/// b3 overwrites it).
///
/// Filter coefficients exactly at every `coefficientInterval`-th sample and at the last one, and
/// linear in between where the cutoff moves less than `interpolationLimit` octaves from one to
/// the next (decays, releases, glides: error below 1e-4 of the cutoff); exact per sample where
/// it moves faster (attacks). Levels stay exact per sample (onsets, fades).
@_noLocks @inline(__always)
func planCoefficients(frames: Int, scales: Lanes, cutoffs: UnsafePointer<Float>, amounts: UnsafePointer<Float>,
                      damping: UnsafePointer<Float>, inverseRate rate: Float,
                      perSample: UnsafeMutablePointer<Lanes>, stride: Int) {
    let interval = coefficientInterval
    let limit = Lanes(repeating: interpolationLimit)
    let envelopes = perSample + 2 * stride
    var o0 = cutoffs[0] + (amounts[0] * scales) * envelopes[0]
    var (p1, p2, p3) = filterCoefficients(octaves: o0, k: damping[0], inverseRate: rate)
    var n0 = 0
    while n0 < frames - 1 {
        let n1 = min(n0 + interval, frames - 1)
        let o1 = cutoffs[n1] + (amounts[n1] * scales) * envelopes[n1]
        let (q1, q2, q3) = filterCoefficients(octaves: o1, k: damping[n1], inverseRate: rate)
        let jump = o1 - o0
        if anyLane((jump .> limit) .| (jump .< -limit)) {
            perSample[n0] = p1
            perSample[stride &+ n0] = p2
            perSample[2 &* stride &+ n0] = p3
            for n in (n0 + 1)..<n1 {
                let (c1, c2, c3) = filterCoefficients(octaves: cutoffs[n] + (amounts[n] * scales) * envelopes[n],
                                                      k: damping[n], inverseRate: rate)
                perSample[n] = c1
                perSample[stride &+ n] = c2
                perSample[2 &* stride &+ n] = c3
            }
        } else {
            let step = 1 / Float(n1 - n0)
            let d1 = (q1 - p1) * step, d2 = (q2 - p2) * step, d3 = (q3 - p3) * step
            var c1 = p1, c2 = p2, c3 = p3
            for n in n0..<n1 {
                perSample[n] = c1
                perSample[stride &+ n] = c2
                perSample[2 &* stride &+ n] = c3
                c1 += d1; c2 += d2; c3 += d3
            }
        }
        (p1, p2, p3) = (q1, q2, q3)
        o0 = o1
        n0 = n1
    }
    perSample[frames - 1] = p1
    perSample[stride &+ frames - 1] = p2
    perSample[2 &* stride &+ frames - 1] = p3
}
