// The reverb's modulated lines against metallic ringing, heard in its impulse response: with the read points
// held still (`swing` 0), a feedback delay network's tail rings at the fixed resonances of its lines, the same
// peaks from one stretch of the tail to the next; with them swinging, the resonances move, so two stretches of
// the late tail 0.7 s apart no longer have the same spectrum. (How far the strongest peaks stand above the
// median does not tell the two apart: 16.6 dB either way, an eight-line network's modes are dense.)
import Foundation
import Testing
@testable import DSP
import TestSupport

@Suite struct ReverbModulationTests {
    let rate = 48_000.0

    /// The left tail of an impulse through a large hall (RT60 about 3 s), its lines swinging or held.
    func tail(swinging: Bool) -> [Float] {
        var settings = ReverbSettings()
        settings.roomSize = 0.9
        settings.damping = 0
        settings.level = 1
        var reverb = FeedbackDelayReverb(sampleRate: rate)
        reverb.apply(settings)
        if !swinging { reverb.swing = 0 }
        var x = [Float](repeating: 0, count: Int(3 * rate))
        x[0] = 1
        return processInBlocks(x) { reverb.process($0, left: $1, right: $2, frames: $3) }.left
    }

    /// The power spectrum (dB) of 2^15 samples from `start` seconds, 200 Hz to 4 kHz.
    func spectrum(_ x: [Float], from start: Double) -> [Double] {
        let n = 32_768, first = Int(start * rate)
        let power = AudioComparison.powerSpectrum(x[first..<(first + n)], n: n)
        let bin = rate / Double(n)
        return power[Int(200 / bin)...Int(4_000 / bin)].map { 10 * log10($0 + 1e-30) }
    }

    @Test func theSwingingLinesRingLessThanStillOnes() {
        let still = tail(swinging: false), swinging = tail(swinging: true)
        let (s1, s2) = (spectrum(still, from: 1.0), spectrum(still, from: 1.7))
        let (m1, m2) = (spectrum(swinging, from: 1.0), spectrum(swinging, from: 1.7))
        // Near 1 when the same resonances ring in both stretches.
        let stillSame = AudioComparison.pearson(s1, s2), swingingSame = AudioComparison.pearson(m1, m2)
        print(String(format: "reverb tail at 1.0 and 1.7 s: log spectra correlate %.2f held still, %.2f swinging",
                     stillSame, swingingSame))
        #expect(stillSame > 0.7, "held still, the same resonances should ring on: \(stillSame)")
        #expect(swingingSame < stillSame - 0.15, "spectra correlate \(swingingSame) swinging, \(stillSame) still")
    }
}
