/// ITU-R BS.1770 K-weighting, designed for any sample rate from the analog prototypes of the 48 kHz
/// coefficients of the recommendation (the same derivation as libebur128): a high shelf of +4 dB near
/// 1.7 kHz (the head's effect), then the RLB high-pass near 38 Hz.
public enum KWeighting {
    public static func preFilter(sampleRate: Double) -> BiquadCoefficients {
        let f0 = 1681.974450955533, gain = 3.999843853973347, q = 0.7071752369554196
        let k = MeterMath.tan(Double.pi * f0 / sampleRate)
        let vh = MeterMath.power10(gain / 20)
        let vb = MeterMath.power(vh, 0.4996667741545416)
        let a0 = 1 + k / q + k * k
        return BiquadCoefficients(b0: (vh + vb * k / q + k * k) / a0, b1: 2 * (k * k - vh) / a0,
                                  b2: (vh - vb * k / q + k * k) / a0,
                                  a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
    }

    public static func rlbHighPass(sampleRate: Double) -> BiquadCoefficients {
        let f0 = 38.13547087602444, q = 0.5003270373238773
        let k = MeterMath.tan(Double.pi * f0 / sampleRate)
        let a0 = 1 + k / q + k * k
        return BiquadCoefficients(b0: 1, b1: -2, b2: 1, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
    }
}
