
/// Band-limited wavetables with mip-maps: for every waveform, one additive table per harmonic count in
/// a fine ladder (1...12, then steps of a quarter octave up to 1023; a wave's levels above its last
/// harmonic share one table). A voice reads the richest table whose top harmonic stays below Nyquist, so
/// nothing aliases; linear interpolation in a 2048-point table keeps its own images below -80 dB. The
/// tables are kept as the voices read them, (value, delta) pairs; the sine also as plain values, for the
/// vibrato LFOs. Tables do not depend on the sample rate, so one bank is
/// built once per process and shared by every `Synth` (read-only after init).
final class WavetableBank: @unchecked Sendable {
    /// Points per table cycle; each table stores `tableSize + 1` points so interpolation never wraps.
    static let tableSize = 2048
    static let maxHarmonics = 1023

    /// Built on first use (outside the real-time path: `Synth.init` touches it).
    static let shared = WavetableBank(tables: true)
    /// The bank of a synth whose sample voices play every channel, where no built-in voice sounds: the sine and
    /// the levels as `shared` has them, every table one silent table (16 KB where `shared` holds 7 MB and takes
    /// tens of milliseconds to build).
    static let silent = WavetableBank(tables: false)

    /// Harmonic count of each mip level, ascending.
    let harmonicCounts: [Int]
    /// One cycle of the sine, `tableSize + 1` points (the last is the first again).
    let sine: FixedArray<Float>
    /// For a maximum allowed harmonic count m (1...maxHarmonics), the richest level whose count <= m.
    let levelForMaxHarmonics: FixedArray<Int32>
    let levelCount: Int
    /// The same tables as (value, next value - value) pairs, `tableSize` per table, so one 8-byte load
    /// per voice fetches both interpolation terms (the SIMD voice loop gathers lane by lane).
    let pairs: FixedArray<SIMD2<Float>>
    /// `pairOffsets[wave * levelCount + level]`: index of that table's first pair in `pairs`.
    let pairOffsets: FixedArray<UInt32>

    private init(tables: Bool) {
        var counts = Array(1...12)
        var h = 12.0
        while true {
            h *= 1.189_207_115 // 2^(1/4)
            let n = Int(h.rounded())
            if n >= Self.maxHarmonics { break }
            counts.append(n)
        }
        counts.append(Self.maxHarmonics)
        harmonicCounts = counts
        levelCount = counts.count

        let size = Self.tableSize
        let waves = Waveform.allCases
        let levels = counts.count
        let tableCount = waves.reduce(0) { sum, wave in
            sum + (counts.firstIndex { $0 >= wave.lastHarmonic }.map { $0 + 1 } ?? levels)
        }
        pairs = FixedArray(tables ? tableCount * size : size, SIMD2<Float>(0, 0))
        pairOffsets = FixedArray(waves.count * levelCount, UInt32(0))
        levelForMaxHarmonics = FixedArray(Self.maxHarmonics + 1, Int32(0))

        var sines = [Double](repeating: 0, count: size)
        for j in 0..<size { sines[j] = FastMath.sin(2 * Double.pi * Double(j) / Double(size)) }
        sine = FixedArray(size + 1, Float(0))
        for j in 0...size { sine[j] = Float(sines[j & (size - 1)]) }

        // Additive synthesis, accumulating harmonics so each level costs only its new harmonics. Level L holds
        // the harmonics up to min(its count, the wave's last): stored once, shared by the levels above the last.
        var tablesOfWave: [[Float]] = []
        var next = 0
        var sum = [Double](repeating: 0, count: size)
        for wave in tables ? waves : [] {
            for j in 0..<size { sum[j] = 0 }
            var level = 0
            tablesOfWave.removeAll(keepingCapacity: true)
            var offsets: [Int] = []
            // The harmonics are added in runs that end where a level's table is taken (`addHarmonics`).
            var pending: [(harmonic: Int, amplitude: Double)] = []
            for k in 1...wave.lastHarmonic {
                let amplitude = wave.amplitude(harmonic: k)
                if amplitude != 0 { pending.append((k, amplitude)) }
                let taken = level < levelCount && min(counts[level], wave.lastHarmonic) == k
                guard taken || k == wave.lastHarmonic else { continue }
                Self.addHarmonics(pending, of: sines, into: &sum)
                pending.removeAll(keepingCapacity: true)
                while level < levelCount && min(counts[level], wave.lastHarmonic) == k {
                    if level == 0 || min(counts[level - 1], wave.lastHarmonic) != k {
                        tablesOfWave.append((0...size).map { Float(sum[$0 & (size - 1)]) })
                    }
                    offsets.append(next + (tablesOfWave.count - 1) * size)
                    level += 1
                }
            }
            // The newer waves are scaled to an RMS level (`Waveform.normalizedRMS`), by their richest table.
            if let target = wave.normalizedRMS, let richest = tablesOfWave.last {
                let power = richest[0..<size].reduce(0.0) { $0 + Double($1) * Double($1) }
                let scale = Float(target / (power / Double(size)).squareRoot())
                for t in tablesOfWave.indices { for j in 0...size { tablesOfWave[t][j] *= scale } }
            }
            // The deltas are the very subtraction the scalar interpolation did, so lookups are unchanged.
            for (t, table) in tablesOfWave.enumerated() {
                for j in 0..<size { pairs[next + t * size + j] = SIMD2(table[j], table[j + 1] - table[j]) }
            }
            for (level, offset) in offsets.enumerated() { pairOffsets[wave.rawValue * levelCount + level] = UInt32(offset) }
            next += tablesOfWave.count * size
        }

        var level: Int32 = 0
        levelForMaxHarmonics[0] = 0
        for m in 1...Self.maxHarmonics {
            while Int(level) + 1 < levelCount && counts[Int(level) + 1] <= m { level += 1 }
            levelForMaxHarmonics[m] = level
        }
    }

    /// Adds `harmonics` (in their order) to the cycle `sum`: point j gets `amplitude * sines[(k j) mod size]` of
    /// each harmonic k, one after the other, so each point's additions are the ones a harmonic-by-harmonic pass
    /// makes, in the same order (the same Doubles). Four harmonics a pass over the points, each point's sum kept
    /// in a register meanwhile, and each harmonic's index stepped by k rather than multiplied.
    private static func addHarmonics(_ harmonics: [(harmonic: Int, amplitude: Double)], of sines: [Double],
                                     into sum: inout [Double]) {
        let size = tableSize, mask = tableSize - 1
        sines.withUnsafeBufferPointer { table in
            sum.withUnsafeMutableBufferPointer { points in
                let t = table.baseAddress!, out = points.baseAddress!
                var h = 0
                while h + 4 <= harmonics.count {
                    let (k0, a0) = harmonics[h], (k1, a1) = harmonics[h + 1]
                    let (k2, a2) = harmonics[h + 2], (k3, a3) = harmonics[h + 3]
                    var i0 = 0, i1 = 0, i2 = 0, i3 = 0
                    for j in 0..<size {
                        var x = out[j]
                        x += a0 * t[i0]
                        x += a1 * t[i1]
                        x += a2 * t[i2]
                        x += a3 * t[i3]
                        out[j] = x
                        i0 = (i0 &+ k0) & mask; i1 = (i1 &+ k1) & mask; i2 = (i2 &+ k2) & mask; i3 = (i3 &+ k3) & mask
                    }
                    h += 4
                }
                while h < harmonics.count {
                    let (k, a) = harmonics[h]
                    var i = 0
                    for j in 0..<size {
                        out[j] += a * t[i]
                        i = (i &+ k) & mask
                    }
                    h += 1
                }
            }
        }
    }
}

/// The shared bank's lookup pointers as the real-time path reads them: which table (and pair run) a voice
/// plays, for its waveform and the harmonics its pitch allows. Plain pointers into the bank, which lives
/// for the process.
struct WavetableLookup {
    let bank: WavetableBank
    /// One cycle of the sine (`WavetableBank.sine`).
    let sine: UnsafePointer<Float>
    /// For a maximum allowed harmonic count m, the richest level whose count <= m.
    let levelForMaxHarmonics: UnsafeMutablePointer<Int32>
    let levelCount: Int
    /// (value, next value - value) pairs of every table.
    let pairs: UnsafePointer<SIMD2<Float>>
    /// `pairOffsets[wave * levelCount + level]`: index of that table's first pair in `pairs`.
    let pairOffsets: UnsafeMutablePointer<UInt32>

    init(_ bank: WavetableBank) {
        precondition(Float(WavetableBank.tableSize) == wavetableSize)
        self.bank = bank
        sine = UnsafePointer(bank.sine.baseAddress)
        levelForMaxHarmonics = bank.levelForMaxHarmonics.baseAddress
        levelCount = bank.levelCount
        pairs = UnsafePointer(bank.pairs.baseAddress)
        pairOffsets = bank.pairOffsets.baseAddress
    }
}
