/// Coefficients of a biquad, `a0` normalized to 1: y = b0 x + b1 x1 + b2 x2 - a1 y1 - a2 y2.
public struct BiquadCoefficients: Sendable, Equatable {
    public var b0, b1, b2, a1, a2: Double
    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0; self.b1 = b1; self.b2 = b2; self.a1 = a1; self.a2 = a2
    }

    /// Gain in dB at `frequency` (for checks against the BS.1770 response).
    public func gainDecibels(at frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        // H(e^jw) with z^-1 = e^-jw.
        let (c1, s1, c2, s2) = (MeterMath.cos(w), -MeterMath.sin(w), MeterMath.cos(2 * w), -MeterMath.sin(2 * w))
        let nr = b0 + b1 * c1 + b2 * c2, ni = b1 * s1 + b2 * s2
        let dr = 1 + a1 * c1 + a2 * c2, di = a1 * s1 + a2 * s2
        return 10 * MeterMath.log10((nr * nr + ni * ni) / (dr * dr + di * di))
    }
}
