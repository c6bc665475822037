// The synth's render cost (issue "The JACK engine and the polyphonic synth"): one iteration renders one
// second at 48 kHz in 256-frame calls with N voices held on the saw-through-filter patch. Zero allocations
// per render call is a committed threshold; ns per voice-sample is wallClock / (48000 x N), and
// `backbeat bench --only synth` prints it directly. FluidSynth's side of the comparison runs as a separate
// program, so it lives in `backbeat bench --only render`, not here.
import Benchmark
import DSP
import MIDI

nonisolated(unsafe) let benchmarks = {
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p25: 0, .p50: 0, .p75: 0, .p90: 0, .p99: 0, .p100: 0]),
    ]
    let period = 256
    let left = UnsafeMutablePointer<Float>.allocate(capacity: period)
    let right = UnsafeMutablePointer<Float>.allocate(capacity: period)

    for voices in [1, 16, 64, 256, 1024] {
        let synth = Synth(voices: voices, patch: 1)
        synth.prepare(sampleRate: 48_000, maxFrames: period)
        for index in 0..<voices {
            synth.handle(ShortMessage(status: 0x90 | UInt8((index / 64) % 16), data1: UInt8(36 + index % 64), data2: 100))
        }
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .milliseconds,
            warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 20,
            thresholds: zeroAllocations)
        Benchmark("SynthRender1s-\(voices)voices:Backbeat-saw-filter", configuration: configuration) { _ in
            for _ in 0..<(48_000 / period) { synth.render(left: left, right: right, frames: period) }
            precondition(synth.activeVoiceCount == voices, "voices stopped sounding")
            blackHole(left.pointee)
        }
    }
}
