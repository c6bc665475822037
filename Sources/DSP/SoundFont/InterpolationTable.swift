// The sample voices' interpolation weights, looked up rather than computed per sample, as FluidSynth does.

/// The 4-point cubic Hermite (Catmull-Rom) weights of the points i - 1, i, i + 1, i + 2 for 1024 fractions
/// t = r / 1024 between i and i + 1. The sample loop indexes a row with the top 10 bits of a voice's 32-bit
/// fraction, so the interpolated value is the polynomial's at t rounded down to 1/1024 of a frame:
/// FluidSynth's polynomial, with four times its rows (256), which makes the noise of that rounding 12 dB
/// lower (InterpolationQualityTests). Filled once, off the real-time path, into arrays its owner keeps
/// (`SampleVoiceSlots`): this value only points at them.
///
/// Each weight is kept as a 16-bit integer in units of 2^-15 (rounded; the weight 1 of row 0 as 32767), so
/// that the fast runs multiply four 16-bit sample words by their row and add the products pairwise in one
/// integer instruction (two voices at a time) with an exact 32-bit sum, as the careful steps take it too;
/// `weights` holds the same values as floats for fonts with 24-bit samples (read point by point). Either sum is in
/// units of 2^-30 (16-bit sample words times weights of 2^-15): the sample loop keeps its filter state and
/// levels in those units (`SampleLanes`) rather than scaling every interpolated value.
struct InterpolationTable {
    static var rows: Int { @_noLocks get { 1024 } }
    /// The row of a 32-bit fraction: its top 10 bits.
    @_noLocks @inline(__always)
    static func row(_ fraction: UInt32) -> Int { Int(truncatingIfNeeded: fraction >> 22) }
    /// What the integer sum of 16-bit words times `words` is multiplied by to give -1...1.
    static var integerScale: Float { @_noLocks get { 1.0 / 1_073_741_824 } } // 2^-30
    /// Its inverse: -1...1 into the sums' units.
    static var integerUnits: Float { @_noLocks get { 1_073_741_824 } } // 2^30
    let weights: UnsafeMutablePointer<HalfLanes>
    let words: UnsafeMutablePointer<SIMD4<Int16>>

    /// Fills `rows` entries at `weights` and `words` and points at them.
    init(weights: UnsafeMutablePointer<HalfLanes>, words: UnsafeMutablePointer<SIMD4<Int16>>) {
        self.weights = weights
        self.words = words
        for r in 0..<Self.rows {
            let t = Double(r) / Double(Self.rows)
            let w = [t * (-0.5 + t * (1 - 0.5 * t)),
                     1 + t * t * (1.5 * t - 2.5),
                     t * (0.5 + t * (2 - 1.5 * t)),
                     0.5 * t * t * (t - 1)]
            let q = w.map { Int16(clamping: Int(($0 * 32768).rounded())) }
            words[r] = SIMD4(q)
            weights[r] = HalfLanes(q.map { Float($0) })
        }
    }
}
