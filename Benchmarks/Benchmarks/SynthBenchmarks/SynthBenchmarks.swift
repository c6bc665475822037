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

    // The plain held chords, then 256 with the mod wheel at half on every channel (vibrato: the voices
    // whose phase steps move every sample).
    for (voices, vibrato) in [(1, false), (16, false), (64, false), (256, false), (1024, false), (2048, false), (256, true)] {
        let synth = Synth(voices: voices, patch: 1)
        synth.prepare(sampleRate: 48_000, maxFrames: period)
        // Channel 10 plays the patch too, not the drum kit (GM2 bank MSB 121: melodic), so that its voices
        // hold like the others' instead of ending as one-shot drums.
        synth.handle(ShortMessage(status: 0xB9, data1: 0, data2: 121))
        for index in 0..<voices {
            // 64 keys per channel (36...99), then the other 64 (0...35, 100...127) past 1024.
            let i = index % 1024, k = UInt8(i % 64)
            let note = index < 1024 ? 36 + k : (k < 36 ? k : 64 + k)
            synth.handle(ShortMessage(status: 0x90 | UInt8((i / 64) % 16), data1: note, data2: 100))
        }
        if vibrato {
            for channel in 0..<UInt8(16) { synth.handle(ShortMessage(status: 0xB0 | channel, data1: 1, data2: 64)) }
        }
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .milliseconds,
            warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 20,
            thresholds: zeroAllocations)
        Benchmark("SynthRender1s-\(voices)voices\(vibrato ? "-vibrato" : ""):Backbeat-saw-filter", configuration: configuration) { _ in
            for _ in 0..<(48_000 / period) { synth.render(left: left, right: right, frames: period) }
            precondition(synth.activeVoiceCount == voices, "voices stopped sounding")
            blackHole(left.pointee)
        }
    }
}
