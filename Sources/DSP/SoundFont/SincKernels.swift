import Glibc // sin, for the kernels (built off the real-time thread)

// The sample voices' high-quality interpolation (`SampleInterpolation.sinc`): windowed-sinc kernels, looked up
// by the voice's step through its sample (its pitch ratio) and the fraction of its position.

/// How the sample voices read between the frames of their samples. Chosen with `--interpolation`, the
/// config's and a preset's `interpolation` key and the synth panel; changed live (`Synth.setInterpolation`).
public enum SampleInterpolation: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// 4-point cubic Hermite (`InterpolationTable`), FluidSynth's default 4th order: the default.
    case cubic = 0
    /// A Kaiser-windowed sinc of 32 points (up to 128 for a sample pitched up two octaves), band-limited to the
    /// output's Nyquist frequency when a sample plays faster than its rate (`SincKernels`).
    case sinc = 1

    public var description: String { self == .cubic ? "cubic" : "sinc" }

    /// "cubic" or "sinc" (any case); nil for anything else.
    public init?(name: String) {
        switch name.lowercased() {
        case "cubic": self = .cubic
        case "sinc": self = .sinc
        default: return nil
        }
    }

    public static var names: String { allCases.map(\.description).joined(separator: ", ") }
}

/// The windowed-sinc kernels of the sinc interpolation, one table per class of step (frames of sample per
/// output sample): a voice stepping r frames reads the class of the least step r' >= r (1 for any r <= 1).
/// Class r' has 32 r' taps (16 r' zero crossings each side; rounded up to a multiple of 16: 48 for 1.25) and
/// cuts off at 1/r' of the sample's Nyquist frequency, so that a sample played faster than its rate is band-limited to the output's Nyquist frequency
/// before it is read at the output's rate: what lies above it is removed instead of folded back (aliasing).
/// Above the last class (4: two octaves up at equal rates) the kernel is the last class's, and aliasing returns.
///
/// The window is Kaiser's with beta 8 (stopband about 80 dB below the passband). Each class has 2048 rows of
/// phase (the top 11 bits of the voice's fraction, `row(fraction:)`). Each weight is an integer in units of 2^-22
/// (each row's summing to exactly 2^22) kept in two 16-bit parts: a high part in units of 2^-14 and the rest,
/// from -128 to 127 in units of 2^-22; a row holds, for each run of sixteen taps, the sixteen high parts and then
/// the sixteen low ones. A row's sums of 16-bit sample words times each part are exact integers in 32 bits (a
/// row's high parts' magnitudes add up to at most 2.4 x 2^14, its low parts' to 128 x 128), put together as
/// high x 2^8 + low in 64 bits and converted to the cubic's units (2^-30: 16-bit words times 2^-15) at the end:
/// the same on every compilation of the loops (`sincSums`), and the filter and levels after it are the
/// cubic's. Built once per process, off the real-time thread; about 4 MB.
///
/// Rounded to 2^-14 alone the weights left rounding noise 72 dB below a tone, and 1024 rows of phase left 82 dB
/// (docs/soundfont.md, "Sinc interpolation").
///
/// The longest kernel reaches 63 frames before a voice's position and 64 after: reads before the sample's first
/// frame are silence (`sincFrame`, `SampleLanes.startAt`), and the silent tail the sample store keeps after each
/// sample (`SoundFontSampleStore.tailFrames`) covers that much past a sample's end.
public struct SincKernels: @unchecked Sendable {
    /// The steps that bound the classes: class c serves steps up to `classSteps[c]`.
    public static let classSteps: [Double] = [1, 1.25, 1.5, 2, 2.5, 3, 4]
    static var classCount: Int { @_noLocks get { 7 } }
    /// The most taps of any class (the scratch a careful read fills per lane).
    static var maxTaps: Int { @_noLocks get { 128 } }
    static var rows: Int { @_noLocks get { 2048 } }
    /// Per class: its taps, and its table's first 16-bit word in `weights` (a row is `2 taps` words).
    let taps: SIMD8<Int32>
    let starts: SIMD8<Int32>
    /// Every class's rows one after the other, each weight's two parts as above; never freed (one table per process).
    let weights: UnsafeMutablePointer<Int16>

    /// The process's table, built the first time it is asked for (`Synth.setInterpolation(.sinc)`).
    public static let shared = SincKernels()
    /// `shared` where the real-time thread can read it through a pointer (`SoundFontVoices.sincKernels`).
    nonisolated(unsafe) static let sharedAddress: UnsafeRawPointer = {
        let p = UnsafeMutablePointer<SincKernels>.allocate(capacity: 1)
        p.initialize(to: shared)
        return UnsafeRawPointer(p)
    }()

    /// Taps of class `c`: 32 per unit of its step, rounded up to a multiple of 16 (the loops' runs).
    static func taps(ofClass c: Int) -> Int { Int((32 * classSteps[c] / 16).rounded(.up)) * 16 }

    private init() {
        var taps = SIMD8<Int32>(), starts = SIMD8<Int32>()
        var total = 0
        for c in 0..<Self.classCount {
            taps[c] = Int32(Self.taps(ofClass: c))
            starts[c] = Int32(total)
            total += 2 * Self.taps(ofClass: c) * Self.rows
        }
        self.taps = taps
        self.starts = starts
        weights = .allocate(capacity: total)
        for c in 0..<Self.classCount {
            Self.fill(weights + Int(starts[c]), taps: Self.taps(ofClass: c), step: Self.classSteps[c])
        }
    }

    /// The zeroth-order modified Bessel function of the first kind (Kaiser's window), by its series.
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        let q = x * x / 4
        repeat {
            term *= q / (k * k)
            sum += term
            k += 1
        } while term > sum * 1e-17
        return sum
    }

    /// The rows of a class of `taps` taps for steps up to `step`. Row r is the kernel at fraction
    /// t = r / rows: tap j weights the frame i - (taps/2 - 1) + j of a voice at i + t, at the distance
    /// x = j - (taps/2 - 1) - t, h(x) = sinc(x / step) / step times Kaiser's window over the kernel's half-width.
    static func fill(_ out: UnsafeMutablePointer<Int16>, taps: Int, step: Double, beta: Double = 8) {
        let half = Double(taps / 2)
        let i0Beta = besselI0(beta)
        var h = [Double](repeating: 0, count: taps)
        for r in 0..<rows {
            let t = Double(r) / Double(rows)
            var sum = 0.0
            for j in 0..<taps {
                let x = Double(j) - (half - 1) - t
                let u = x / step
                let sinc = u == 0 ? 1 : sin(Double.pi * u) / (Double.pi * u)
                let edge = x / half
                let window = abs(edge) >= 1 ? 0 : besselI0(beta * (1 - edge * edge).squareRoot()) / i0Beta
                h[j] = sinc * window
                sum += h[j]
            }
            // Each row's gain at 0 Hz exactly 1: the rounded weights' sum made 2^22 at the largest weight.
            var units = h.map { Int(($0 / sum * 4_194_304).rounded()) }
            let largest = units.indices.max { abs(units[$0]) < abs(units[$1]) }!
            units[largest] += 4_194_304 - units.reduce(0, +)
            let row = out + 2 * taps * r
            for j in 0..<taps {
                let high = (units[j] + 128) >> 8 // to the nearest 2^-14; the rest in -128...127
                row[(j >> 4) << 5 | j & 15] = Int16(high)
                row[(j >> 4) << 5 | 16 | j & 15] = Int16(units[j] - high << 8)
            }
        }
    }

    /// Weight `j` of a row (`weights + start + 2 taps r`) in units of 2^-22: its high part times 2^8 plus its low part.
    @_noLocks @inline(__always)
    static func weight(_ row: UnsafePointer<Int16>, _ j: Int) -> Int {
        Int(row[(j &>> 4) &<< 5 | j & 15]) &<< 8 &+ Int(row[(j &>> 4) &<< 5 | 16 | j & 15])
    }

    /// The row of a voice's fraction (of 2^32): its top 11 bits.
    @_noLocks @inline(__always)
    static func row(fraction: UInt32) -> Int { Int(truncatingIfNeeded: fraction >> 21) }

    /// The class of a step of `whole` frames and `part` / 2^32.
    @_noLocks @inline(__always)
    static func classOf(whole: Int32, part: UInt32) -> Int {
        // Bounds in 32.32 fixed point, compared as 64-bit integers.
        let step = UInt64(UInt32(bitPattern: whole)) << 32 | UInt64(part)
        if step <= 1 << 32 { return 0 }
        if step <= 5 << 30 { return 1 }
        if step <= 3 << 31 { return 2 }
        if step <= 2 << 32 { return 3 }
        if step <= 5 << 31 { return 4 }
        if step <= 3 << 32 { return 5 }
        return 6
    }
}

/// `SampleInterpolation.sinc.rawValue` as the real-time thread reads it (an enum's own rawValue is not visible
/// to the performance checker outside its file).
var sincInterpolationValue: Int { @_noLocks get { 1 } }

extension Synth {
    /// Sets how the sample voices interpolate, from any thread: an atomic the real-time thread reads at its
    /// next slice's start, so a render switches between two samples, never within a block's loop.
    public func setInterpolation(_ mode: SampleInterpolation) {
        if mode == .sinc && samples.hasFont { samples.sincKernels.store(SincKernels.sharedAddress, ordering: .releasing) }
        samples.interpolationRequest.store(mode.rawValue, ordering: .relaxed)
    }

    /// The interpolation last asked for (`setInterpolation`). Any thread.
    public var interpolation: SampleInterpolation {
        SampleInterpolation(rawValue: samples.interpolationRequest.load(ordering: .relaxed)) ?? .cubic
    }
}
