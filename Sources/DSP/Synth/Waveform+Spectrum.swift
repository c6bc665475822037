// Each waveform's harmonics: the Fourier sine coefficients `WavetableBank` adds up into its tables. The
// functions are Backbeat's own (`FastMath`, `MeterMath`), not the platform's libm, so the tables, and the
// renders, are the same bits on every machine, as the classic waves' are.

extension Waveform {
    /// The last harmonic that is not zero (1023 for the waves whose series goes on): the bank's levels above
    /// it share one table.
    var lastHarmonic: Int {
        switch self {
        case .sine: 1
        case .organ: 16
        case .clarinet: 31
        case .nasal: 48
        case .tine: 14
        case .mallet: 10
        case .bell: 15
        case .vocal: 40
        case .fifths: 9
        case .noise: 128
        case .plucked, .bass: 256
        case .triangle, .saw, .square, .brassy, .pulse, .bowed: WavetableBank.maxHarmonics
        }
    }

    /// The RMS level the bank scales this wave's tables to, by its richest table; nil for the four classic
    /// waves, which keep their ideal series' scale (a saw and a square span -1...1 before the Gibbs
    /// overshoot), as they always have. An RMS level (a saw's is 0.58, a sine's 0.71) rather than a peak:
    /// a series that falls slowly has a peak that grows with its harmonics while its power stays, so a
    /// peak of 1 would leave the tables a note plays quieter the more harmonics the richest one has. The
    /// noise, whose peaks stand far above its power, sits lower.
    var normalizedRMS: Double? {
        switch self {
        case .sine, .triangle, .saw, .square: nil
        case .noise: 0.45
        default: 0.5
        }
    }

    /// Fourier sine coefficient of harmonic k (1...), before normalizing. The saw alternates signs so it
    /// starts at 0 mid-ramp (no step at a note's first sample).
    func amplitude(harmonic k: Int) -> Double {
        guard k <= lastHarmonic else { return 0 }
        let d = Double(k)
        // Signs alternating as the saw's: a ramp's edge rather than one spike a cycle, so a series that falls
        // slowly keeps its level at a peak of 1.
        let alternate: Double = k % 2 == 1 ? 1 : -1
        switch self {
        case .sine: return k == 1 ? 1 : 0
        case .saw: return (k % 2 == 1 ? 2 : -2) / (Double.pi * d)
        case .square: return k % 2 == 1 ? 4 / (Double.pi * d) : 0
        case .triangle:
            guard k % 2 == 1 else { return 0 }
            return ((k / 2) % 2 == 0 ? 8 : -8) / (Double.pi * Double.pi * d * d)
        case .organ: return Self.partial(k, [1: 1, 2: 0.8, 3: 0.6, 4: 0.5, 6: 0.3, 8: 0.25, 10: 0.1, 12: 0.1, 16: 0.08])
        case .clarinet: return k % 2 == 1 ? 1 / d : 0.04 / d
        case .nasal: return alternate * (0.35 / d + Self.exp(-(d - 4) * (d - 4) / 6))
        case .brassy: return alternate * MeterMath.power(d, -0.75)
        case .tine: return Self.partial(k, [1: 1, 2: 0.3, 3: 0.08, 7: 0.12, 14: 0.05])
        case .mallet: return Self.partial(k, [1: 1, 4: 0.35, 10: 0.12])
        case .bell: return Self.partial(k, [1: 1, 2: 0.55, 3: 0.5, 4: 0.2, 5: 0.4, 6: 0.15, 8: 0.3, 11: 0.2, 15: 0.12])
        case .vocal: return alternate * (1 + 2 * Self.exp(-(d - 3) * (d - 3) / 2) + 1.2 * Self.exp(-(d - 6) * (d - 6) / 3)) / d
        case .pulse: return FastMath.sin(Double.pi * d / 4) * 2 / (Double.pi * d)
        case .noise: return Self.randomSign(k)
        case .bowed: return alternate * (1 + 0.6 * FastMath.sin(1.3 * d) * FastMath.sin(1.3 * d)) / d
        case .plucked: return FastMath.sin(Double.pi * d / 5) / (d * d)
        case .bass: return alternate * MeterMath.power(d, -1.6)
        case .fifths: return Self.partial(k, [1: 1, 2: 0.5, 3: 0.8, 6: 0.4, 9: 0.15])
        }
    }

    /// e^x, through `FastMath.exp2`.
    private static func exp(_ x: Double) -> Double { FastMath.exp2(x * 1.442_695_040_888_963_4) }

    private static func partial(_ k: Int, _ table: [Int: Double]) -> Double { table[k] ?? 0 }

    /// +1 or -1 for harmonic k, from a fixed hash: the same noise wave in every process.
    private static func randomSign(_ k: Int) -> Double {
        var x = UInt64(k) &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 31
        x = x &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 29
        return x & 1 == 0 ? 1 : -1
    }
}
