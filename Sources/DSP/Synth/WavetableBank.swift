
/// Band-limited wavetables with mip-maps: for every waveform, one additive table per harmonic count in
/// a fine ladder (1...12, then steps of a quarter octave up to 1023). A voice reads the richest table
/// whose top harmonic stays below Nyquist, so nothing aliases; linear interpolation in a 2048-point
/// table keeps its own images below -80 dB. Tables do not depend on the sample rate, so one bank is
/// built once per process and shared by every `Synth` (read-only after init).
final class WavetableBank: @unchecked Sendable {
    /// Points per table cycle; each table stores `tableSize + 1` points so interpolation never wraps.
    static let tableSize = 2048
    static let maxHarmonics = 1023

    /// Built on first use (outside the real-time path: `Synth.init` touches it).
    static let shared = WavetableBank()

    /// Harmonic count of each mip level, ascending.
    let harmonicCounts: [Int]
    /// `tables[wave * levelCount + level]`: first point of that table.
    let tables: FixedArray<UnsafePointer<Float>>
    /// For a maximum allowed harmonic count m (1...maxHarmonics), the richest level whose count <= m.
    let levelForMaxHarmonics: FixedArray<Int32>
    let levelCount: Int
    /// The same tables as (value, next value - value) pairs, `tableSize` per table, so one 8-byte load
    /// per voice fetches both interpolation terms (the SIMD voice loop gathers lane by lane).
    let pairs: FixedArray<SIMD2<Float>>
    /// `pairOffsets[wave * levelCount + level]`: index of that table's first pair in `pairs`.
    let pairOffsets: FixedArray<UInt32>
    private let storage: FixedArray<Float>

    private init() {
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
        let stride = size + 1
        let waves = Waveform.allCases.count
        // One sine table plus one table per level for each of the three harmonic-rich waves.
        let tableCount = 1 + (waves - 1) * levelCount
        storage = FixedArray(tableCount * stride, Float(0))
        tables = FixedArray(waves * levelCount, UnsafePointer(storage.baseAddress))
        levelForMaxHarmonics = FixedArray(Self.maxHarmonics + 1, Int32(0))

        var sines = [Double](repeating: 0, count: size)
        for j in 0..<size { sines[j] = FastMath.sin(2 * Double.pi * Double(j) / Double(size)) }

        // Sine: one table shared by every level.
        for j in 0...size { storage[j] = Float(sines[j & (size - 1)]) }
        for level in 0..<levelCount { tables[level] = UnsafePointer(storage.baseAddress) }

        // Additive synthesis, accumulating harmonics so each level costs only its new harmonics.
        var next = stride
        for wave in [Waveform.triangle, .saw, .square] {
            var sum = [Double](repeating: 0, count: size)
            var level = 0
            for k in 1...Self.maxHarmonics {
                let amplitude = Self.amplitude(of: wave, harmonic: k)
                if amplitude != 0 {
                    for j in 0..<size { sum[j] += amplitude * sines[(k * j) & (size - 1)] }
                }
                if level < levelCount && counts[level] == k {
                    let table = storage.baseAddress + next
                    for j in 0...size { table[j] = Float(sum[j & (size - 1)]) }
                    tables[wave.rawValue * levelCount + level] = UnsafePointer(table)
                    next += stride
                    level += 1
                }
            }
        }

        // The deltas are the very subtraction the scalar interpolation did, so lookups are unchanged.
        pairs = FixedArray(tableCount * size, SIMD2<Float>(0, 0))
        for t in 0..<tableCount {
            let table = storage.baseAddress + t * stride
            for j in 0..<size { pairs[t * size + j] = SIMD2(table[j], table[j + 1] - table[j]) }
        }
        pairOffsets = FixedArray(waves * levelCount, UInt32(0))
        for entry in 0..<waves * levelCount {
            let t = (UnsafePointer(storage.baseAddress).distance(to: tables[entry])) / stride
            pairOffsets[entry] = UInt32(t * size)
        }

        var level: Int32 = 0
        levelForMaxHarmonics[0] = 0
        for m in 1...Self.maxHarmonics {
            while Int(level) + 1 < levelCount && counts[Int(level) + 1] <= m { level += 1 }
            levelForMaxHarmonics[m] = level
        }
    }

    /// Fourier sine coefficient of harmonic k, scaled so the ideal wave spans -1...1.
    /// The saw alternates signs so it starts at 0 mid-ramp (no step at a note's first sample).
    private static func amplitude(of wave: Waveform, harmonic k: Int) -> Double {
        let d = Double(k)
        switch wave {
        case .sine: return k == 1 ? 1 : 0
        case .saw: return (k % 2 == 1 ? 2 : -2) / (Double.pi * d)
        case .square: return k % 2 == 1 ? 4 / (Double.pi * d) : 0
        case .triangle:
            guard k % 2 == 1 else { return 0 }
            return ((k / 2) % 2 == 0 ? 8 : -8) / (Double.pi * Double.pi * d * d)
        }
    }

    /// The table a voice should read for a phase increment (cycles per sample) no higher than `increment`.
    @inline(__always)
    func table(_ wave: Int, maxIncrement increment: Float) -> UnsafePointer<Float> {
        let allowed = Int(min(0.5 / max(increment, 1e-6), Float(Self.maxHarmonics)))
        let level = Int(levelForMaxHarmonics[max(allowed, 1)])
        return tables[wave * levelCount + level]
    }
}

/// The shared bank's lookup pointers as the real-time path reads them: which table (and pair run) a voice
/// plays, for its waveform and the harmonics its pitch allows. Plain pointers into the bank, which lives
/// for the process.
struct WavetableLookup {
    let bank: WavetableBank
    /// `tables[wave * levelCount + level]`: first point of that table.
    let tables: UnsafeMutablePointer<UnsafePointer<Float>>
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
        tables = bank.tables.baseAddress
        levelForMaxHarmonics = bank.levelForMaxHarmonics.baseAddress
        levelCount = bank.levelCount
        pairs = UnsafePointer(bank.pairs.baseAddress)
        pairOffsets = bank.pairOffsets.baseAddress
    }
}
