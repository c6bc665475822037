import Foundation
import Testing
@testable import DSP

@Suite struct LoudnessTests {
    @Test func kWeightingAt48kMatchesTheBS1770Table() {
        let pre = KWeighting.preFilter(sampleRate: 48_000), rlb = KWeighting.rlbHighPass(sampleRate: 48_000)
        let expected = [1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585]
        for (value, reference) in zip([pre.b0, pre.b1, pre.b2, pre.a1, pre.a2], expected) {
            #expect(abs(value - reference) < 1e-7, "\(value) vs \(reference)")
        }
        #expect(abs(rlb.a1 - -1.99004745483398) < 1e-7 && abs(rlb.a2 - 0.99007225036621) < 1e-7)
        #expect(rlb.b0 == 1 && rlb.b1 == -2 && rlb.b2 == 1)
    }

    @Test(arguments: [44_100.0, 48_000, 96_000])
    func kWeightingHasTheSameResponseAtEveryRate(sampleRate: Double) {
        func gain(_ f: Double) -> Double {
            KWeighting.preFilter(sampleRate: sampleRate).gainDecibels(at: f, sampleRate: sampleRate)
                + KWeighting.rlbHighPass(sampleRate: sampleRate).gainDecibels(at: f, sampleRate: sampleRate)
        }
        #expect(abs(gain(1000) - 0.691) < 0.02, "1 kHz: \(gain(1000)) dB")
        #expect(abs(gain(10_000) - 4.0) < 0.1, "10 kHz shelf: \(gain(10_000)) dB")
        #expect(gain(20) < -10, "20 Hz cut: \(gain(20)) dB")
    }

    /// EBU Tech 3341 test 1 style: 1 kHz stereo at -23 dBFS reads -23 LUFS (momentary, short-term, integrated).
    @Test(arguments: [(48_000.0, 256), (44_100, 512), (96_000, 1024)])
    func stereoSineAtMinus23ReadsMinus23LUFS(sampleRate: Double, period: Int) {
        var bench = MeterBench(sampleRate: sampleRate, period: period)
        bench.play(sine(frequency: 1000, decibels: -23, seconds: 20, sampleRate: sampleRate))
        let readout = bench.meter.readout
        #expect(abs(readout.momentaryLUFS - -23) <= 0.1, "M \(readout.momentaryLUFS)")
        #expect(abs(readout.shortTermLUFS - -23) <= 0.1, "S \(readout.shortTermLUFS)")
        #expect(abs(readout.integratedLUFS - -23) <= 0.1, "I \(readout.integratedLUFS)")
    }

    @Test func stereoSineAtMinus18ReadsMinus18LUFS() {
        var bench = MeterBench()
        bench.play(sine(frequency: 1000, decibels: -18, seconds: 10))
        #expect(abs(bench.meter.readout.integratedLUFS - -18) <= 0.1, "I \(bench.meter.readout.integratedLUFS)")
    }

    @Test func bs1770Reference997HzOnOneChannel() {
        // BS.1770: a 0 dBFS 997 Hz sine on one channel reads -3.01 LKFS.
        var bench = MeterBench()
        bench.play(sine(frequency: 997, decibels: 0, seconds: 5), silence(seconds: 5))
        #expect(abs(bench.meter.readout.integratedLUFS - -3.01) <= 0.1, "I \(bench.meter.readout.integratedLUFS)")
    }

    @Test func absoluteGateExcludesSilence() {
        // 10 s of -23 LUFS tone, 10 s of silence, 10 s of tone: the silence does not pull the integral down.
        var bench = MeterBench()
        let tone = sine(frequency: 1000, decibels: -23, seconds: 10)
        bench.play(tone)
        bench.play(silence(seconds: 10))
        bench.play(tone)
        let readout = bench.meter.readout
        #expect(abs(readout.integratedLUFS - -23) <= 0.1, "I \(readout.integratedLUFS)")
        #expect(abs(readout.measuredSeconds - 30) < 0.01)
    }

    @Test func relativeGateExcludesQuietParts() {
        // EBU Tech 3341 test 3 style: -36 dB, then -23 dB, then -36 dB (20 s each): the -36 parts are more than
        // 10 LU under the mean of the absolute-gated blocks, so the integral is the -23 part's.
        var bench = MeterBench()
        bench.play(sine(frequency: 1000, decibels: -36, seconds: 10))
        bench.play(sine(frequency: 1000, decibels: -23, seconds: 60))
        bench.play(sine(frequency: 1000, decibels: -36, seconds: 10))
        #expect(abs(bench.meter.readout.integratedLUFS - -23) <= 0.1, "I \(bench.meter.readout.integratedLUFS)")
        // Without the relative gate the quiet parts would count: the ungated mean is lower.
    }

    @Test func momentaryAndShortTermFollowTheirWindows() {
        var bench = MeterBench()
        bench.play(sine(frequency: 1000, decibels: -23, seconds: 5))
        bench.play(silence(seconds: 0.5))
        let readout = bench.meter.readout
        #expect(readout.momentaryLUFS < -100, "400 ms of silence: M \(readout.momentaryLUFS)")
        // 2.5 s of tone in the last 3 s: -23 + 10 log10(2.5 / 3).
        #expect(abs(readout.shortTermLUFS - (-23 + 10 * log10(2.5 / 3))) <= 0.1, "S \(readout.shortTermLUFS)")
    }

    @Test func silenceOnlyHasNoIntegratedLoudness() {
        var bench = MeterBench()
        bench.play(silence(seconds: 2))
        #expect(bench.meter.readout.integratedLUFS == -.infinity)
        bench.meter.resetLoudness()
        #expect(bench.meter.readout.measuredSeconds == 0)
    }
}
