// The send buses' own cost, for `backbeat bench --only effects`: each bus alone on a period of noise, as the
// synth runs it once per period whatever the number of voices.

/// Figures, not assertions.
public enum EffectCost {
    /// Nanoseconds per period of `frames` frames (least of 5 runs of `periods` periods) for the reverb and the
    /// chorus at their default settings, fed with a full-scale signal (the tails never go silent).
    public static func nanosecondsPerPeriod(frames: Int, sampleRate: Double = 48_000,
                                            periods: Int = 4_000) -> (reverb: Double, chorus: Double) {
        var reverb = FeedbackDelayReverb(sampleRate: sampleRate)
        var chorus = ModulatedChorus(sampleRate: sampleRate)
        let inputArray = FixedArray<Float>(frames, 0), leftArray = FixedArray<Float>(frames, 0)
        let rightArray = FixedArray<Float>(frames, 0)
        let input = inputArray.baseAddress, left = leftArray.baseAddress, right = rightArray.baseAddress
        var seed: UInt32 = 1
        for n in 0..<frames {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            input[n] = Float(Int32(bitPattern: seed)) / 2_147_483_648 * 0.2
        }
        left.initialize(repeating: 0, count: frames)
        right.initialize(repeating: 0, count: frames)
        let clock = ContinuousClock()
        func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        var bestReverb = Double.infinity, bestChorus = Double.infinity
        for _ in 0..<5 {
            let r = clock.measure {
                for _ in 0..<periods { reverb.process(input, left: left, right: right, frames: frames) }
            }
            let c = clock.measure {
                for _ in 0..<periods { chorus.process(input, left: left, right: right, frames: frames) }
            }
            bestReverb = min(bestReverb, seconds(r) / Double(periods) * 1e9)
            bestChorus = min(bestChorus, seconds(c) / Double(periods) * 1e9)
        }
        withExtendedLifetime(inputArray) {}; withExtendedLifetime(leftArray) {}; withExtendedLifetime(rightArray) {}
        return (bestReverb, bestChorus)
    }
}
