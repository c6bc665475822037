// swift-tools-version: 6.1
// Backbeat's benchmarks: a package of their own so the main build stays fast. Each suite runs
// Backbeat's real-time code side by side with the C reference it must beat, in the same process:
// the ring against JACK's jack_ringbuffer, the MIDI parser against ALSA's snd_midi_event encoder; and the
// synth's render cost with its zero-allocation threshold.
// Run: swift package --package-path Benchmarks benchmark   (or scripts/bench-foundation for the table)
import PackageDescription

let package = Package(
    name: "BackbeatBenchmarks",
    dependencies: [
        .package(name: "Backbeat", path: ".."),
        // MallocInterposer: exact malloc counts, so "zero allocations" is a checked threshold.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1",
                 traits: ["MallocInterposer"]),
    ],
    targets: [
        // The references' C APIs. Own system-library targets (not the main package's CJack/CALSA):
        // a product of another package cannot reliably export a system library module.
        .systemLibrary(name: "CJackBench", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CALSABench", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),

        benchmark("RingBenchmarks", [.product(name: "Realtime", package: "Backbeat"), "CJackBench"]),
        benchmark("ParserBenchmarks", [.product(name: "MIDI", package: "Backbeat"), "CALSABench"]),
        benchmark("SynthBenchmarks", [.product(name: "DSP", package: "Backbeat"), .product(name: "MIDI", package: "Backbeat")]),
    ]
)

/// A package-benchmark executable under Benchmarks/<name>, run by its plugin, with `dependencies` besides the
/// Benchmark library.
func benchmark(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: dependencies + [.product(name: "Benchmark", package: "benchmark")],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
