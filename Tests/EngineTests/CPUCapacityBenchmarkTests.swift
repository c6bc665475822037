import Testing

@testable import Bench

/// The parts of the CPU-time capacity benchmark that need no JACK server (the sweep itself runs only in
/// `backbeat bench --only capacity`: it takes a minute).
@Suite struct CPUCapacityBenchmarkTests {
    /// FluidSynth's `synth.verbose` log, captured: one line per voice started, ending with the voices active
    /// before it (its saw lead starts two voices a note).
    @Test func readsFluidSynthsVoiceCountFromItsVerboseLog() {
        let log = """
            fluidsynth: noteon\t0\t60\t100\t00000\t0.000\t1.199\t0.000\t0
            fluidsynth: noteon\t0\t60\t100\t00000\t0.000\t1.200\t0.000\t1
            fluidsynth: noteon\t0\t64\t100\t00001\t0.000\t1.200\t0.000\t2
            fluidsynth: noteon\t0\t64\t100\t00001\t0.000\t1.200\t0.000\t3
            fluidsynth: noteon\t0\t67\t100\t00002\t0.000\t1.200\t0.000\t4
            fluidsynth: noteon\t0\t67\t100\t00002\t0.000\t1.200\t0.000\t5

            """
        #expect(CPUCapacityBenchmark.fluidsynthVoices(log: log) == 6)
        #expect(CPUCapacityBenchmark.fluidsynthVoices(log: "fluidsynth: warning: no preset\n") == nil)
        #expect(CPUCapacityBenchmark.fluidsynthVoices(log: "") == nil)
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
