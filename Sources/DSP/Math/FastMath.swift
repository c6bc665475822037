// Small, allocation-free math so DSP needs no C module and the real-time path stays `@_noLocks`. Shared by
// the synth (render loop, tables) and the meters (`MeterMath`). Every function is `@_noLocks`: callers in
// other files then need not see the bodies for the checker to accept them.

/// Fast math for the render loop and for table building.
@usableFromInline
enum FastMath {
    /// 2^x to about 1e-7 relative error, for |x| < 126: pitch ratios, cutoffs, envelope coefficients.
    @inlinable @inline(__always) @_noLocks
    static func exp2(_ x: Float) -> Float {
        let clamped = min(max(x, -126), 126)
        // Adding 1.5 * 2^23 rounds to an integer n held in the low mantissa bits: no conversions, no traps.
        let shifted = clamped + 12_582_912
        let whole = shifted - 12_582_912
        let f = (clamped - whole) * 0.693_147_18 // f * ln 2, |f| <= 0.347
        // Taylor series of e^f to degree 6: error < 1.2e-7.
        let p = 1 + f * (1 + f * (0.5 + f * (1.0 / 6 + f * (1.0 / 24 + f * (1.0 / 120 + f * (1.0 / 720))))))
        // The low 9 bits of the pattern are n + 127 (mod 512) after adding 127: shifted up, 2^n's exponent.
        let scale = Float(bitPattern: (shifted.bitPattern &+ 127) &<< 23)
        return p * scale
    }

    /// 2^x in double precision (|x| < 1000), for note frequencies and coefficients computed once.
    @inlinable @_noLocks
    static func exp2(_ x: Double) -> Double {
        let clamped = min(max(x, -1000), 1000)
        let whole = nearest(clamped)
        let f = (clamped - whole) * 0.693_147_180_559_945_3
        var term = 1.0
        var sum = 1.0
        for n in 1...14 {
            term *= f / Double(n)
            sum += term
        }
        return sum * Double(bitPattern: UInt64(Int64(whole) + 1023) << 52)
    }

    /// sin(x) in double precision: quadrant reduction, then Taylor series on |r| <= pi/4.
    @inlinable @_noLocks
    static func sin(_ x: Double) -> Double {
        let halfPi = Double.pi / 2
        let quadrant = nearest(x / halfPi)
        let r = x - quadrant * halfPi
        let q = Int(quadrant) & 3
        switch q {
        case 0: return sinSeries(r)
        case 1: return cosSeries(r)
        case 2: return -sinSeries(r)
        default: return -cosSeries(r)
        }
    }

    @inlinable @_noLocks
    static func cos(_ x: Double) -> Double { sin(x + Double.pi / 2) }

    @usableFromInline @_noLocks
    static func sinSeries(_ r: Double) -> Double { taylorSeries(r, first: r, power: 1) }

    @usableFromInline @_noLocks
    static func cosSeries(_ r: Double) -> Double { taylorSeries(r, first: 1, power: 0) }

    /// Eleven terms of the alternating Taylor series of sin (first term r, power 1) or cos (1, power 0).
    @usableFromInline @_noLocks
    static func taylorSeries(_ r: Double, first: Double, power: Double) -> Double {
        let r2 = r * r
        var term = first
        var sum = first
        var n = power
        for _ in 0..<10 {
            term *= -r2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }
}

extension FastMath {
    /// x rounded to the nearest integer (ties away from zero), without `FloatingPointRoundingRule`,
    /// whose metadata the `@_noLocks` checker rejects in debug builds.
    @inline(__always) @usableFromInline @_noLocks
    static func nearest(_ x: Float) -> Float { Float(Int(x >= 0 ? x + 0.5 : x - 0.5)) }

    @inline(__always) @usableFromInline @_noLocks
    static func nearest(_ x: Double) -> Double { Double(Int(x >= 0 ? x + 0.5 : x - 0.5)) }

    /// log2(x) for x > 0 to about 1e-6: exponent from the bits, mantissa through the atanh series of ln.
    @inlinable @inline(__always) @_noLocks
    static func log2(_ x: Float) -> Float {
        let bits = max(x, Float.leastNormalMagnitude).bitPattern
        let exponent = Float(Int32((bits >> 23) & 0xFF) - 127)
        let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000) // 1 <= m < 2
        let u = (m - 1) / (m + 1)
        let u2 = u * u
        let ln = 2 * u * (1 + u2 * (1.0 / 3 + u2 * (1.0 / 5 + u2 * (1.0 / 7 + u2 * (1.0 / 9 + u2 / 11)))))
        return exponent + ln * 1.442_695_04
    }

    /// tan(x) for 0 <= x <= 1.45 (a Padé approximant): monotonic, good to 3 % at the top of the range,
    /// which is all a filter's cutoff warping needs.
    @inlinable @inline(__always) @_noLocks
    static func tan(_ x: Float) -> Float {
        let x2 = x * x
        return x * (15 - x2) / (15 - 6 * x2)
    }

    /// A gain in decibels as a linear factor: 10^(dB / 20) through `exp2`.
    @inline(__always) @usableFromInline @_noLocks
    static func linear(decibels: Float) -> Float { exp2(decibels * 0.166_096_4) }
}
