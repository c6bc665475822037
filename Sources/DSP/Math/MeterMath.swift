/// Math without Foundation (DSP imports none): accurate double-precision log, powers and trigonometry for
/// readouts and filter designs. Not for the real-time path.
public enum MeterMath {
    /// 20 log10(amplitude); -infinity for 0.
    public static func decibels(amplitude: Double) -> Double { amplitude > 0 ? 20 * log10(amplitude) : -.infinity }
    /// 10 log10(power); -infinity for 0.
    public static func decibels(power: Double) -> Double { power > 0 ? 10 * log10(power) : -.infinity }

    /// Natural logarithm (x > 0) to double precision: exponent from the bits, mantissa in [0.707, 1.414)
    /// through the atanh series.
    public static func ln(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        var exponent = Double(x.exponent)
        var m = x.significand  // 1 <= m < 2
        if m > 1.414_213_562_373_095 { m /= 2; exponent += 1 }
        let u = (m - 1) / (m + 1), u2 = u * u
        var term = u, sum = 0.0, k = 1.0
        for _ in 0..<16 {
            sum += term / k
            term *= u2
            k += 2
        }
        return 2 * sum + exponent * 0.693_147_180_559_945_3
    }

    public static func log10(_ x: Double) -> Double { ln(x) * 0.434_294_481_903_251_8 }
    public static func power10(_ x: Double) -> Double { FastMath.exp2(x * 3.321_928_094_887_362_3) }
    /// base^exponent for base > 0.
    public static func power(_ base: Double, _ exponent: Double) -> Double {
        FastMath.exp2(exponent * ln(base) * 1.442_695_040_888_963_4)
    }
    public static func sin(_ x: Double) -> Double { FastMath.sin(x) }
    public static func cos(_ x: Double) -> Double { FastMath.cos(x) }
    public static func tan(_ x: Double) -> Double { FastMath.sin(x) / FastMath.cos(x) }
}
