import Foundation

/// Sine "blueprints" with tolerances: what a recording is checked against.
public enum AudioAnalysis {
    /// Magnitude of the component at `frequency` (Goertzel over a Hann-windowed segment), normalised so a
    /// full-scale sine gives about 0.5.
    public static func magnitude(_ samples: ArraySlice<Float>, at frequency: Double, sampleRate: Int) -> Double {
        AudioComparison.magnitude(samples, at: frequency, rate: sampleRate)
    }

    /// The strongest frequency between `low` and `high`, refined to 0.05 Hz.
    public static func dominantFrequency(_ samples: ArraySlice<Float>, sampleRate: Int, low: Double, high: Double) -> Double {
        func best(_ from: Double, _ to: Double, _ step: Double) -> Double {
            var bestFrequency = from, bestMagnitude = -1.0
            var f = from
            while f <= to {
                let m = magnitude(samples, at: f, sampleRate: sampleRate)
                if m > bestMagnitude { bestMagnitude = m; bestFrequency = f }
                f += step
            }
            return bestFrequency
        }
        let coarse = best(low, high, 1)
        return best(coarse - 1, coarse + 1, 0.05)
    }

    /// Level in dBFS (RMS) of a segment.
    public static func rmsDecibels(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return -.infinity }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return 10 * log10(max(sum / Double(samples.count), 1e-30))
    }

    /// Frames at which sound starts after at least `quietFrames` of silence (|x| <= threshold).
    public static func onsets(_ samples: [Float], threshold: Float = 1e-4, quietFrames: Int = 2000) -> [Int] {
        var result: [Int] = []
        var quiet = quietFrames  // the start of the recording counts as after silence only if it is silent
        var sawQuietStart = false
        for (i, x) in samples.enumerated() {
            if abs(x) > threshold {
                if quiet >= quietFrames && sawQuietStart { result.append(i) }
                quiet = 0
            } else {
                quiet += 1
                if quiet >= quietFrames { sawQuietStart = true }
            }
        }
        return result
    }
}
