import Testing

@testable import Bench

/// The parts of the CPU-time capacity benchmark that need no JACK server (the sweep itself runs only in
/// `backbeat bench --only capacity`: it takes a minute).
@Suite struct CPUCapacityBenchmarkTests {
    /// FluidSynth's shell answers `voice_count` in its log, captured (prompts and other lines between).
    @Test func readsFluidSynthsVoiceCountsFromItsLog() {
        let log = "> voice_count\nvoice_count: 0\n> fluidsynth: warning: something\n> voice_count\nvoice_count: 758\n> "
        #expect(CPUCapacityBenchmark.voiceCounts(log: log) == [0, 758])
        #expect(CPUCapacityBenchmark.voiceCounts(log: "fluidsynth: warning: no preset\n").isEmpty)
        #expect(CPUCapacityBenchmark.voiceCounts(log: "").isEmpty)
    }

    /// A result's fit is the line through its points' sounding voices and ns per period.
    @Test func aResultsFitUsesItsPoints() {
        let points = [0, 100, 200].map {
            CPUCapacityBenchmark.Point(notes: $0, voices: $0 * 2, nanosecondsPerPeriod: 1000 + 10 * Double($0 * 2), periods: 375, xruns: 0)
        }
        let result = CPUCapacityBenchmark.Result(points: points, periodFrames: 256, sampleRate: 48_000, thread: "tid 1 't' SCHED_FIFO")
        // (4266666.67 - 1000) / 10 = 426566.7
        #expect(result.fit.voices == 426_566)
    }
}
