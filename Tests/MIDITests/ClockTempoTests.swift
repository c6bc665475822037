import Testing
@testable import MIDI

@Suite struct ClockTempoTests {
    /// Tick times of a clock at `bpm`, from `start`, optionally with alternating jitter of `jitter` seconds.
    func ticks(bpm: Double, count: Int, start: Double = 0, jitter: Double = 0) -> [Double] {
        let interval = 60 / (bpm * 24)
        return (0..<count).map { start + Double($0) * interval + ($0 % 2 == 0 ? jitter : -jitter) }
    }

    @Test(arguments: [60.0, 120, 133.5, 200])
    func steadyClockGivesItsTempoAndNoJitter(bpm: Double) throws {
        var tempo = ClockTempo()
        for t in ticks(bpm: bpm, count: 200) { tempo.tick(at: t) }
        #expect(abs(try #require(tempo.bpm) - bpm) < 0.001)
        #expect(try #require(tempo.jitterMilliseconds) < 0.001)
        #expect(tempo.intervalCount == 96)
    }

    @Test func jitterIsTheStandardDeviationOfIntervals() throws {
        var tempo = ClockTempo(windowTicks: 48)
        // +-1 ms alternating: intervals alternate between T+2 ms and T-2 ms, standard deviation 2 ms.
        for t in ticks(bpm: 120, count: 100, jitter: 0.001) { tempo.tick(at: t) }
        #expect(abs(try #require(tempo.jitterMilliseconds) - 2) < 0.01)
        #expect(abs(try #require(tempo.bpm) - 120) < 0.5)
    }

    @Test func slidingWindowFollowsATempoChange() throws {
        var tempo = ClockTempo(windowTicks: 24)
        let first = ticks(bpm: 100, count: 50)
        for t in first { tempo.tick(at: t) }
        for t in ticks(bpm: 140, count: 30, start: first.last! + 60 / (140 * 24)) { tempo.tick(at: t) }
        #expect(abs(try #require(tempo.bpm) - 140) < 0.001)
    }

    @Test func fewerThanTwoTicksHaveNoTempo() {
        var tempo = ClockTempo()
        #expect(tempo.bpm == nil && tempo.jitterMilliseconds == nil)
        tempo.tick(at: 1)
        #expect(tempo.bpm == nil)
        tempo.tick(at: 1.02)
        #expect(tempo.bpm != nil && tempo.jitterMilliseconds == nil)
    }

    @Test func aGapRestartsTheMeasurement() throws {
        var tempo = ClockTempo()
        for t in ticks(bpm: 120, count: 50) { tempo.tick(at: t) }
        // Two seconds of nothing, then 90 BPM: the gap is not an interval.
        for t in ticks(bpm: 90, count: 10, start: 4) { tempo.tick(at: t) }
        #expect(abs(try #require(tempo.bpm) - 90) < 0.001)
        #expect(tempo.intervalCount == 9)
        tempo.expire(now: 10)
        #expect(tempo.bpm == nil)
    }

    @Test func startStopContinue() throws {
        var tempo = ClockTempo()
        tempo.receive(ShortMessage(status: 0xFA), at: 0)
        #expect(tempo.isRunning)
        for t in ticks(bpm: 120, count: 30) { tempo.receive(ShortMessage(status: 0xF8), at: t) }
        tempo.receive(ShortMessage(status: 0xFC), at: 0.7)
        #expect(!tempo.isRunning)
        #expect(abs(try #require(tempo.bpm) - 120) < 0.001, "stop keeps the tempo")
        // Continue 0.3 s later (not a gap by itself): the pause still does not count.
        tempo.receive(ShortMessage(status: 0xFB), at: 0.9)
        #expect(tempo.isRunning && tempo.bpm == nil)
        for t in ticks(bpm: 120, count: 5, start: 0.95) { tempo.receive(ShortMessage(status: 0xF8), at: t) }
        #expect(abs(try #require(tempo.bpm) - 120) < 0.001)
        // Other messages are ignored.
        tempo.receive(ShortMessage(status: 0x90, data1: 60, data2: 100), at: 1.2)
        #expect(tempo.intervalCount == 4)
    }

    @Test func timeGoingBackwardsRestarts() {
        var tempo = ClockTempo()
        for t in ticks(bpm: 120, count: 10, start: 5) { tempo.tick(at: t) }
        tempo.tick(at: 1)
        #expect(tempo.intervalCount == 0)
    }
}
