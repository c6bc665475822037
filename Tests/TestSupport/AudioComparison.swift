// Comparing two renderings of the same music (Backbeat's and a reference synth's): pitch, spectra, loudness
// envelopes. Levels differ between synths, so everything here compares shapes (normalised, in dB, or
// correlated), never absolute levels.
import Foundation

public enum AudioComparison {
    /// The mono mix (L+R)/2 of a recording's first two channels (the one channel of a mono file).
    public static func mono(_ recording: WAVRecording) -> [Float] {
        guard recording.channels.count > 1 else { return recording.channels.first ?? [] }
        return zip(recording.channels[0], recording.channels[1]).map { ($0 + $1) / 2 }
    }

    /// `samples[from ..< to]` in seconds, clamped to the signal.
    public static func slice(_ samples: [Float], from: Double, to: Double, rate: Int) -> ArraySlice<Float> {
        let a = min(max(0, Int(from * Double(rate))), samples.count)
        let b = min(max(a, Int(to * Double(rate))), samples.count)
        return samples[a..<b]
    }

    /// Magnitude of the component at `frequency` (Goertzel over a Hann-windowed segment).
    public static func magnitude(_ samples: ArraySlice<Float>, at frequency: Double, rate: Int) -> Double {
        let n = samples.count
        guard n > 1 else { return 0 }
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(rate))
        var s1 = 0.0, s2 = 0.0
        let step = 2 * Double.pi / Double(n - 1)
        var i = 0
        for x in samples {
            let s0 = Double(x) * (0.5 - 0.5 * cos(step * Double(i))) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
            i += 1
        }
        return sqrt(max(s1 * s1 + s2 * s2 - coefficient * s1 * s2, 0)) / Double(n) * 2
    }

    /// The strongest frequency between `low` and `high` (a coarse scan, then refined to `resolution` Hz), and
    /// its magnitude relative to the segment's RMS (a pure sine gives about 0.7; a frequency the segment does
    /// not hold, far less).
    public static func strongestFrequency(_ samples: ArraySlice<Float>, rate: Int, low: Double, high: Double,
                                          resolution: Double = 0.02) -> (frequency: Double, strength: Double) {
        func best(_ from: Double, _ to: Double, _ step: Double) -> (Double, Double) {
            var result = (from, -1.0)
            var f = from
            while f <= to {
                let m = magnitude(samples, at: f, rate: rate)
                if m > result.1 { result = (f, m) }
                f += step
            }
            return result
        }
        let coarseStep = max(resolution, (high - low) / 60)
        let coarse = best(low, high, coarseStep)
        let fine = best(max(low, coarse.0 - coarseStep), min(high, coarse.0 + coarseStep), resolution)
        let level = rms(samples)
        return (fine.0, level > 0 ? fine.1 / level : 0)
    }

    public static func rms(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    public static func decibels(_ x: Double) -> Double { 20 * log10(max(x, 1e-12)) }

    /// RMS per `window` seconds in dB relative to the loudest window, floored at `floor` dB: the loudness
    /// envelope, independent of the synth's overall level.
    public static func loudnessEnvelope(_ samples: [Float], rate: Int, window: Double = 0.01, floor: Double = -60) -> [Double] {
        let n = max(1, Int(window * Double(rate)))
        let levels = stride(from: 0, to: samples.count - n + 1, by: n).map { rms(samples[$0..<$0 + n]) }
        let loudest = levels.max() ?? 0
        return levels.map { max(decibels($0 / max(loudest, 1e-12)), floor) }
    }

    /// Pearson correlation of the common prefix of two series.
    public static func pearson(_ a: [Double], _ b: [Double]) -> Double {
        let n = min(a.count, b.count)
        guard n > 1 else { return 0 }
        let x = a.prefix(n), y = b.prefix(n)
        let mx = x.reduce(0, +) / Double(n), my = y.reduce(0, +) / Double(n)
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (u, v) in zip(x, y) {
            sxy += (u - mx) * (v - my); sxx += (u - mx) * (u - mx); syy += (v - my) * (v - my)
        }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }

    /// Power spectrum (bins 0...n/2) of the first `n` samples (a power of two; zero-padded when the segment
    /// is shorter) under a Hann window.
    public static func powerSpectrum(_ samples: ArraySlice<Float>, n: Int) -> [Double] {
        precondition(n > 1 && n & (n - 1) == 0)
        var re = [Double](repeating: 0, count: n), im = [Double](repeating: 0, count: n)
        for (i, x) in samples.prefix(n).enumerated() {
            re[i] = Double(x) * (0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n)))
        }
        fft(&re, &im)
        return (0...n / 2).map { re[$0] * re[$0] + im[$0] * im[$0] }
    }

    /// Energies (dB, relative to the strongest band) of `bands` bands of equal width in log frequency from
    /// `low` to `high` Hz: a spectrum's shape, comparable between synths of different levels.
    public static func bandEnergies(_ samples: ArraySlice<Float>, rate: Int, n: Int = 8192, bands: Int = 24,
                                    low: Double = 40, high: Double = 16_000) -> [Double] {
        let power = powerSpectrum(samples, n: n)
        let binWidth = Double(rate) / Double(n)
        var energies = [Double](repeating: 0, count: bands)
        for (bin, p) in power.enumerated() {
            let f = Double(bin) * binWidth
            guard f >= low, f < high else { continue }
            let band = Int(log(f / low) / log(high / low) * Double(bands))
            energies[min(band, bands - 1)] += p
        }
        let strongest = energies.max() ?? 0
        return energies.map { 10 * log10(max($0 / max(strongest, 1e-30), 1e-9)) }
    }

    /// Spectral flatness (geometric over arithmetic mean of the power) between `low` and `high` Hz: about 0
    /// for a pure tone, near 1 for white noise. Drums lie in between; tones stay far below them.
    public static func spectralFlatness(_ samples: ArraySlice<Float>, rate: Int, n: Int = 8192,
                                        low: Double = 40, high: Double = 16_000) -> Double {
        let power = powerSpectrum(samples, n: n)
        let binWidth = Double(rate) / Double(n)
        let bins = power.indices.filter { Double($0) * binWidth >= low && Double($0) * binWidth < high }
        guard !bins.isEmpty else { return 0 }
        let floor = (power.max() ?? 0) * 1e-12 + 1e-30
        let logMean = bins.reduce(0.0) { $0 + log(power[$1] + floor) } / Double(bins.count)
        let mean = bins.reduce(0.0) { $0 + power[$1] + floor } / Double(bins.count)
        return exp(logMean) / mean
    }

    /// In-place iterative radix-2 FFT.
    public static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: n, by: length) {
                for k in 0..<length / 2 {
                    let wr = cos(angle * Double(k)), wi = sin(angle * Double(k))
                    let a = start + k, b = a + length / 2
                    let tr = re[b] * wr - im[b] * wi, ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                }
            }
            length <<= 1
        }
    }
}
