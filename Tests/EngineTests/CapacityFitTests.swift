import Testing

@testable import Bench

/// The least-squares capacity fit behind `backbeat bench`'s CPU-time rows.
@Suite struct CapacityFitTests {
    typealias Point = CapacityFit.Point

    /// 256 frames at 48 kHz: 5333.3 µs; 80 % of it is 4266 666.7 ns.
    @Test func exactPointsOnALineGiveTheExactCapacity() throws {
        // cost = 3000 ns + 1000 ns/voice: (4266666.67 - 3000) / 1000 = 4263.67 -> 4263 voices.
        let points = [0.0, 256, 512, 1024, 2048].map { Point(voices: $0, nanoseconds: 3000 + 1000 * $0) }
        let fit = CapacityFit(points: points, periodFrames: 256, sampleRate: 48_000)
        #expect(abs(try #require(fit.intercept) - 3000) < 1e-6)
        #expect(abs(try #require(fit.slope) - 1000) < 1e-9)
        #expect(abs(fit.budgetNanoseconds - 4_266_666.666_7) < 0.01)
        #expect(fit.capacity == .voices(4263))
        #expect(fit.voices == 4263)
        #expect(fit.description.hasPrefix("4263 voices (fit a=3.0 µs + b=1000.00 ns/voice; points 0:3.0µs 256:259.0µs"))
    }

    @Test func theBudgetIsTheFractionOfThePeriod() {
        // cost = 100 ns/voice, 64 frames at 48 kHz = 1333.3 µs; half of it = 666 666.7 ns -> 6666 voices.
        let points = [Point(voices: 0, nanoseconds: 0), Point(voices: 100, nanoseconds: 10_000)]
        #expect(CapacityFit(points: points, periodFrames: 64, sampleRate: 48_000, fraction: 0.5).voices == 6666)
        #expect(CapacityFit(points: points, periodFrames: 64, sampleRate: 48_000).voices == 10666)
    }

    /// Noise around a line: the fit lands near the line's capacity, not on any single point's.
    @Test func noisyPointsFitNearTheLine() throws {
        let noise = [40.0, -55, 30, -20, 5, -35, 45]
        let voices = [0.0, 64, 256, 512, 1024, 1536, 2048]
        let points = zip(voices, noise).map { Point(voices: $0, nanoseconds: 5000 + 500 * $0 + $1 * 50) }
        let fit = CapacityFit(points: points, periodFrames: 256, sampleRate: 48_000)
        let exact = (4_266_666.67 - 5000) / 500  // 8523
        let capacity = Double(try #require(fit.voices))
        #expect(abs(capacity - exact) / exact < 0.01)
        #expect(abs(try #require(fit.slope) - 500) < 5)
    }

    @Test func onePointHasNoLine() {
        let fit = CapacityFit(points: [Point(voices: 256, nanoseconds: 1000)], periodFrames: 256, sampleRate: 48_000)
        #expect(fit.voices == nil)
        #expect(fit.intercept == nil && fit.slope == nil)
        guard case let .unknown(why) = fit.capacity else { Issue.record("expected unknown, got \(fit.capacity)"); return }
        #expect(why.contains("two or more voice counts"))
        #expect(fit.description.hasPrefix("no capacity: "))
        #expect(fit.description.contains("256:1.0µs"))
    }

    @Test func pointsAtOneVoiceCountHaveNoLine() {
        let fit = CapacityFit(points: [Point(voices: 64, nanoseconds: 1000), Point(voices: 64, nanoseconds: 1200)],
                              periodFrames: 256, sampleRate: 48_000)
        guard case let .unknown(why) = fit.capacity else { Issue.record("expected unknown, got \(fit.capacity)"); return }
        #expect(why.contains("2 points at 1 voice count"))
    }

    @Test func noPointsHaveNoLine() {
        let fit = CapacityFit(points: [], periodFrames: 256, sampleRate: 48_000)
        #expect(fit.voices == nil)
        #expect(fit.description.contains("points none"))
    }

    @Test func zeroOrFallingSlopeIsUnbounded() {
        for cost in [{ (_: Double) in 4000.0 }, { (v: Double) in 4000 - v }] {
            let fit = CapacityFit(points: [0.0, 100, 200].map { Point(voices: $0, nanoseconds: cost($0)) },
                                  periodFrames: 256, sampleRate: 48_000)
            #expect(fit.voices == nil)
            guard case let .unbounded(why) = fit.capacity else { Issue.record("expected unbounded, got \(fit.capacity)"); continue }
            #expect(why.contains("does not grow with voices"))
            #expect(fit.description.hasPrefix("unbounded"))
        }
    }

    @Test func anIdleCostOverTheBudgetGivesNoVoices() {
        let points = [Point(voices: 0, nanoseconds: 5_000_000), Point(voices: 10, nanoseconds: 5_001_000)]
        #expect(CapacityFit(points: points, periodFrames: 256, sampleRate: 48_000).capacity == .voices(0))
    }

    @Test func badInputIsNamedNotACrash() {
        let nan = CapacityFit(points: [Point(voices: 0, nanoseconds: .nan), Point(voices: 1, nanoseconds: 2)], periodFrames: 256, sampleRate: 48_000)
        guard case let .unknown(why) = nan.capacity else { Issue.record("expected unknown"); return }
        #expect(why.contains("not a finite non-negative measurement"))
        let noPeriod = CapacityFit(points: [Point(voices: 0, nanoseconds: 1), Point(voices: 1, nanoseconds: 2)], periodFrames: 0, sampleRate: 48_000)
        guard case let .unknown(reason) = noPeriod.capacity else { Issue.record("expected unknown"); return }
        #expect(reason.contains("0 frames at 48000 Hz"))
    }
}
