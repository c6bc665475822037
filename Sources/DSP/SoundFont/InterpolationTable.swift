// The sample voices' interpolation weights, looked up rather than computed per sample, as FluidSynth does.

/// The 4-point cubic Hermite (Catmull-Rom) weights of the points i - 1, i, i + 1, i + 2 for 256 fractions
/// t = r / 256 between i and i + 1, each row one vector, pre-scaled by 1/32768 so that 16-bit sample words
/// multiply straight into -1...1. The sample loop indexes a row with the top 8 bits of a voice's 32-bit
/// fraction: FluidSynth's table (256 rows of the same polynomial), so the interpolated value is the
/// polynomial's at t rounded down to 1/256 of a frame. Allocated once, off the real-time path.
struct InterpolationTable {
    static var rows: Int { @_noLocks get { 256 } }
    let weights: UnsafeMutablePointer<HalfLanes>

    init() {
        weights = .allocate(capacity: Self.rows)
        for r in 0..<Self.rows {
            let t = Double(r) / Double(Self.rows)
            let w = [t * (-0.5 + t * (1 - 0.5 * t)),
                     1 + t * t * (1.5 * t - 2.5),
                     t * (0.5 + t * (2 - 1.5 * t)),
                     0.5 * t * t * (t - 1)]
            weights[r] = HalfLanes(w.map { Float($0 / 32768) })
        }
    }

    func deallocate() { weights.deallocate() }
}
