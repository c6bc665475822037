import Foundation
import Testing
@testable import DSP

/// A stereo signal measured period by period as the engine does, fed to a `MeterState`.
struct MeterBench {
    let sampleRate: Double
    let period: Int
    let processor: LoudnessProcessor
    var meter: MeterState
    var blocks: [PeriodMeasure] = []

    init(sampleRate: Double = 48_000, period: Int = 256) {
        self.sampleRate = sampleRate
        self.period = period
        processor = LoudnessProcessor(sampleRate: sampleRate)
        meter = MeterState(sampleRate: sampleRate)
    }

    /// Measures and consumes `left`/`right` in periods; advances the meter's wall clock by the same time.
    mutating func play(_ left: [Float], _ right: [Float]? = nil, advance: Bool = false) {
        let right = right ?? left
        var offset = 0
        while offset < left.count {
            let n = min(period, left.count - offset)
            let block = left.withUnsafeBufferPointer { l in
                right.withUnsafeBufferPointer { r in
                    processor.process(left: l.baseAddress! + offset, right: r.baseAddress! + offset, frames: n)
                }
            }
            blocks.append(block)
            meter.consume(block, sampleRate: sampleRate)
            if advance { meter.advance(seconds: Double(n) / sampleRate) }
            offset += n
        }
    }
}

func sine(frequency: Double, decibels: Double, seconds: Double, sampleRate: Double = 48_000, phase: Double = 0) -> [Float] {
    let amplitude = pow(10, decibels / 20)
    let count = Int(seconds * sampleRate)
    return (0..<count).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / sampleRate + phase)) }
}

func silence(seconds: Double, sampleRate: Double = 48_000) -> [Float] {
    [Float](repeating: 0, count: Int(seconds * sampleRate))
}

@Suite struct MeterTests {
    @Test func sineAtMinus20ReadsMinus20PeakAndMinus23RMS() {
        var bench = MeterBench()
        bench.play(sine(frequency: 1000, decibels: -20, seconds: 1))
        let readout = bench.meter.readout
        for channel in [readout.left, readout.right] {
            #expect(abs(channel.peakDB - -20) <= 0.1, "peak \(channel.peakDB)")
            #expect(abs(channel.rmsDB - -23.01) <= 0.1, "RMS \(channel.rmsDB)")
            #expect(abs(channel.holdDB - -20) <= 0.1)
            #expect(!channel.clipped)
        }
    }

    @Test func rmsWindowIs300Milliseconds() {
        var bench = MeterBench()
        bench.play(sine(frequency: 1000, decibels: -6, seconds: 1))
        bench.play(silence(seconds: 0.29))
        #expect(bench.meter.readout.left.rmsDB > -40, "10 ms of the sine are still in the window")
        bench.play(silence(seconds: 0.02))
        #expect(bench.meter.readout.left.rmsDB == -.infinity, "the sine left the 300 ms window")
    }

    @Test func peakFalls20DecibelsIn1point7SecondsAsIEC60268_10() {
        var bench = MeterBench()
        bench.play(sine(frequency: 1000, decibels: -6, seconds: 0.1))
        let start = bench.meter.readout.left.peakDB
        for _ in 0..<51 { bench.meter.advance(seconds: 1.0 / 30) }  // 1.7 s at 30 fps
        let fallen = bench.meter.readout.left.peakDB
        #expect(abs((start - fallen) - 20) <= 0.5, "fell \(start - fallen) dB")
        // The same with clock readings.
        var clocked = MeterBench()
        clocked.play(sine(frequency: 1000, decibels: -6, seconds: 0.1))
        clocked.meter.advance(to: 100)
        clocked.meter.advance(to: 101.7)
        #expect(abs(clocked.meter.readout.channels[0].peakDB - fallen) < 0.01)
        // Silence coming in does not stop the fall; a louder block attacks at once.
        bench.play(silence(seconds: 0.5))
        bench.play(sine(frequency: 1000, decibels: -3, seconds: 0.05))
        #expect(abs(bench.meter.readout.left.peakDB - -3) <= 0.1)
    }

    @Test func holdStaysTwoSecondsThenFollowsThePeak() {
        var bench = MeterBench()
        bench.play(sine(frequency: 1000, decibels: -6, seconds: 0.1))
        bench.meter.advance(seconds: 1.9)
        #expect(abs(bench.meter.readout.left.holdDB - -6) <= 0.1)
        #expect(bench.meter.readout.left.peakDB < -27, "the peak fell 22 dB in 1.9 s while the hold stayed")
        bench.meter.advance(seconds: 0.2)
        let readout = bench.meter.readout.left
        #expect(readout.holdDB == readout.peakDB, "hold released after 2 s: \(readout.holdDB) vs \(readout.peakDB)")
        // A lower peak after release becomes the new hold.
        bench.play(sine(frequency: 1000, decibels: -12, seconds: 0.05))
        #expect(abs(bench.meter.readout.left.holdDB - -12) <= 0.1)
    }

    @Test func clipLampLatchesUntilReset() {
        var bench = MeterBench()
        bench.play(sine(frequency: 1000, decibels: -1, seconds: 0.1))
        #expect(!bench.meter.readout.left.clipped)
        var hot = sine(frequency: 1000, decibels: -1, seconds: 0.1)
        hot[100] = 1.0
        bench.play(hot, silence(seconds: 0.1))
        #expect(bench.meter.readout.left.clipped)
        #expect(!bench.meter.readout.right.clipped)
        bench.play(silence(seconds: 1), advance: true)
        bench.meter.advance(seconds: 10)
        #expect(bench.meter.readout.left.clipped, "latched")
        bench.meter.resetClip()
        #expect(!bench.meter.readout.left.clipped)
    }

    @Test func truePeakOfAQuarterRateSineFindsThePeakBetweenSamples() {
        // fs/4 with a 45 degree phase: every sample is at +-0.707 of the peak (-3 dB under).
        var bench = MeterBench()
        let signal = sine(frequency: 12_000, decibels: -6, seconds: 0.5, phase: .pi / 4)
        bench.play(signal)
        let samplePeak = 20 * log10(Double(signal.map(abs).max()!))
        let truePeak = bench.meter.readout.truePeakDB
        #expect(samplePeak < -8.9, "sample peak \(samplePeak)")
        #expect(truePeak > samplePeak + 2)
        #expect(abs(truePeak - -6) <= 0.5, "true peak \(truePeak) dBTP for a -6 dB sine")
        #expect(abs(bench.meter.readout.left.truePeakDB - truePeak) < 0.01)
        bench.meter.resetLoudness()
        #expect(bench.meter.readout.truePeakDB == -.infinity)
    }

    @Test func truePeakOfALowSineIsItsSamplePeak() {
        var bench = MeterBench()
        bench.play(sine(frequency: 997, decibels: -12, seconds: 0.5))
        #expect(abs(bench.meter.readout.truePeakDB - -12) <= 0.1)
    }

    @Test func meterStateOfSilenceReadsMinusInfinity() {
        var bench = MeterBench()
        bench.play(silence(seconds: 1))
        let readout = bench.meter.readout
        #expect(readout.left.peakDB == -.infinity && readout.left.rmsDB == -.infinity && readout.momentaryLUFS == -.infinity)
    }

    @Test func mathWithoutFoundationMatchesFoundation() {
        for x in [1e-9, 0.001, 0.5, 0.7071, 1, 1.5, 2, 10, 12345.678] {
            #expect(abs(MeterMath.log10(x) - log10(x)) < 1e-12, "log10(\(x))")
        }
        #expect(abs(MeterMath.power(1.5848931924611136, 0.4996667741545416) - pow(1.5848931924611136, 0.4996667741545416)) < 1e-12)
        #expect(abs(MeterMath.tan(0.11) - tan(0.11)) < 1e-12)
    }
}
