// swift-tools-version: 6.1
// Backbeat: a terminal workstation for live audio and MIDI on Linux. Layout and rules: README.md and docs/.
import PackageDescription

/// Opt-in native build of the synth: `BACKBEAT_NATIVE=1 swift build -c release` compiles the DSP module for
/// CPUs with AVX2 and FMA (`-target-cpu haswell`: Intel since 2013, AMD since Zen), which the portable default
/// (x86-64, SSE2) does not assume. The binary then runs only on such CPUs. Unset, nothing changes: the
/// default build stays portable, and packages that depend on this one by path (Benchmarks/, Fuzz/) see no
/// unsafe flags.
let nativeDSP: [SwiftSetting] = Context.environment["BACKBEAT_NATIVE"] == "1"
    ? [.unsafeFlags(["-target-cpu", "haswell"])] : []

/// The real-time path is optimized in debug builds too: unoptimized, the synth's idle callback alone takes a
/// tenth of a 256-frame period and a few voices overrun it, so the tests that play through JACK (run on the
/// debug build) would measure xruns instead of Backbeat.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The voices' eight-lane loops are compiled three times whatever the build (x86-64 hosts; elsewhere all three
/// are the portable code): for any CPU (VoiceLoopsPortable), for AVX2 and FMA (VoiceLoopsAVX2: Intel since 2013, AMD
/// since Zen) and for AVX-512 (VoiceLoopsAVX512: Intel since Skylake-SP, AMD since Zen 4). DSP asks the CPU
/// before it calls either of the last two; all three play the same samples (docs/soundfont.md).
#if arch(x86_64)
let avx2: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "haswell"])]
let avx512: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "skylake-avx512"])]
#else
let avx2: [SwiftSetting] = []
let avx512: [SwiftSetting] = []
#endif

/// swift-system's `SystemPackage`: the one door to files and descriptors (`FileDescriptor`, `Errno`).
let system: Target.Dependency = .product(name: "SystemPackage", package: "swift-system")

let package = Package(
    name: "Backbeat",
    products: [
        .executable(name: "backbeat", targets: ["backbeat"]),
        // Libraries are products so the Benchmarks/ and Fuzz/ packages can depend on them by path.
        .library(name: "TextOutput", targets: ["TextOutput"]),
        .library(name: "MIDI", targets: ["MIDI"]),
        .library(name: "Realtime", targets: ["Realtime"]),
        .library(name: "DSP", targets: ["DSP"]),
        .library(name: "Lifecycle", targets: ["Lifecycle"]),
        .library(name: "TOML", targets: ["TOML"]),
        .library(name: "SFZ", targets: ["SFZ"]),
        .library(name: "Engine", targets: ["Engine"]),
        .library(name: "Bench", targets: ["Bench"]),
        .library(name: "Settings", targets: ["Settings"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "Headless", targets: ["Headless"]),
        .library(name: "TUI", targets: ["TUI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Files and descriptors (README: Dependencies): FileDescriptor, Errno, retryOnInterrupt.
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // System libraries: one module map and one shim header each.
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // No pkgConfig: ncursesw's pkg-config cflags (-D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600) are flags SwiftPM
        // refuses, with a warning on every build (twice, scripts/run included); the headers are in the default
        // path, the module map links the library (whose linker script brings libtinfo) and the shim asks for
        // the wide-character API itself.
        .systemLibrary(name: "CCurses", providers: [.apt(["libncursesw5-dev"])]),
        .systemLibrary(name: "CLO", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        // SoundFont 3 samples are Ogg Vorbis streams: libvorbisfile decodes them (off the real-time thread).
        .systemLibrary(name: "CVorbis", pkgConfig: "vorbisfile", providers: [.apt(["libvorbis-dev"])]),
        // SFZ instruments' samples (WAV, FLAC, Ogg Vorbis, AIFF) are read through libsndfile, off the real-time thread.
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        // The AVX2 and AVX-512 gathers (C macros, which Swift cannot import) and the CPU's answers: a header alone.
        .systemLibrary(name: "CVoiceLoops"),

        // Pure Swift, no terminal; DSP's C modules are the Vorbis decoder of SoundFont 3 samples and the header
        // of the AVX-512 loops' gathers.
        // Realtime is the bottom: its FixedArray holds every module's fixed-size buffers.
        .target(name: "Realtime", swiftSettings: optimizedInDebug),
        // Text for people and other programs: terminal escaping, JSON and XML text, the byte buffer lines are
        // written into.
        .target(name: "TextOutput", dependencies: ["Realtime"]),
        .target(name: "MIDI", dependencies: ["Realtime", "TextOutput"]),
        // The one door to the OS for files and processes off the real-time path (swift-system beneath); the
        // SoundFont loader (DSP) opens its files through it too.
        .target(name: "OSCall", dependencies: [system]),
        // The voices' loops eight lanes wide (sample voices, kept built-in groups): VoiceLoops holds the lanes'
        // state, the filter steps and the one source of the loops (Shared/), which the three modules after it
        // compile for any CPU, for AVX2 and for AVX-512 (above); X86Shared/ the read the last two do alike.
        .target(name: "VoiceLoops", exclude: ["Shared", "X86Shared"], swiftSettings: optimizedInDebug),
        .target(name: "VoiceLoopsPortable", dependencies: ["VoiceLoops"], swiftSettings: optimizedInDebug),
        .target(name: "VoiceLoopsAVX2", dependencies: ["VoiceLoops", "CVoiceLoops"], swiftSettings: avx2 + optimizedInDebug),
        .target(name: "VoiceLoopsAVX512", dependencies: ["VoiceLoops", "CVoiceLoops"], swiftSettings: avx512 + optimizedInDebug),
        .target(name: "DSP", dependencies: ["MIDI", "Realtime", "TextOutput", "OSCall", "CVorbis", "CVoiceLoops", "VoiceLoops",
                                            "VoiceLoopsPortable", "VoiceLoopsAVX2", "VoiceLoopsAVX512", system],
                swiftSettings: nativeDSP + optimizedInDebug),
        // TOML 1.0, Backbeat's own parser (README: Dependencies): it cannot abort on any input.
        .target(name: "TOML"),
        .target(name: "Lifecycle", dependencies: ["TextOutput", "TOML", "OSCall", system]),
        // SFZ instruments: the text parser, the instrument model and the sample files' reader (libsndfile).
        // It builds the SoundFont the sample voices play an instrument as (DSP); the parser cannot trap on
        // any input (fuzzed: FuzzSFZ).
        .target(name: "SFZ", dependencies: ["OSCall", "CSndFile", "DSP"]),

        // What runs the DSP against the world, and the terminal.
        .target(name: "Engine", dependencies: ["CJack", "CALSA", "MIDI", "Realtime", "DSP", "OSCall", system]),
        // Benchmarks, reference clients and measurement probes: `backbeat bench`/`soak` and the tests use
        // them; Engine never imports Bench.
        .target(name: "Bench", dependencies: ["CJack", "MIDI", "Realtime", "DSP", "Engine", system]),
        // The config file, synth presets, NSM session state and the lifecycle gates put into the engine: what
        // the workstation, the headless engine, scenarios and NSM share, without the terminal.
        // What the one-shot commands print about a file: the SMF listing, the SoundFont and SFZ reports.
        .target(name: "Reports", dependencies: ["MIDI", "TextOutput", "DSP", "SFZ"]),
        .target(name: "Settings", dependencies: ["MIDI", "TextOutput", "DSP", "Engine", "Lifecycle", "TOML", system]),
        // The loops of the headless engine and the scenario player, once the executable has built what they
        // run on.
        .target(name: "Headless", dependencies: ["MIDI", "TextOutput", "Engine", "Lifecycle", "Settings"]),
        .target(name: "TUI", dependencies: ["CCurses", "Settings", "SFZ", "MIDI", "Realtime", "TextOutput", "DSP", "Engine", "Lifecycle", "TOML", system]),

        // NSM session client: OSC over UDP (liblo as the codec). Network I/O off the
        // real-time path, so a module of its own rather than part of Engine.
        .target(name: "NSM", dependencies: ["CLO", system]),

        .executableTarget(name: "backbeat", dependencies: [
            "MIDI", "Realtime", "TextOutput", "DSP", "Lifecycle", "Engine", "Bench", "Reports", "Settings", "Headless", "TUI", "NSM", "SFZ", system,
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Tests in two tiers. Unit tests launch no process of Backbeat's and no JACK server: `scripts/test --fast`
        // runs them alone, in under a minute once built. System tests (CLITests, EngineSystemTests) launch the
        // binary, a private jackd, tmux or the reference clients; `scripts/test` runs both tiers.

        // Process running, the `backbeat` binary lookup, Tests/Fixtures texts, audio analysis, the General
        // MIDI test files and the SoundFont 3 font's piano, shared by the test targets.
        .target(name: "TestSupport", dependencies: ["MIDI", "DSP"], path: "Tests/TestSupport"),
        .testTarget(name: "SystemLibrariesTests", dependencies: ["CJack", "CALSA", "CCurses"]),
        .testTarget(name: "MIDITests", dependencies: ["MIDI", "TextOutput", "TestSupport"]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML"]),
        .testTarget(name: "SFZTests", dependencies: ["SFZ", "CSndFile", "DSP", "MIDI", "TestSupport"]),
        .testTarget(name: "RealtimeTests", dependencies: ["Realtime"]),
        .testTarget(name: "DSPTests", dependencies: ["DSP", "MIDI", "TestSupport", "VoiceLoops"]),
        .testTarget(name: "LifecycleTests", dependencies: ["Lifecycle", "TextOutput", "TestSupport"]),
        .testTarget(name: "EngineTests", dependencies: ["TestSupport", "Engine", "Bench", "MIDI", "DSP", "Realtime", "CALSA"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "MIDI", "DSP", "SFZ", "TestSupport"]),
        .testTarget(name: "HeadlessTests", dependencies: ["Headless", "Engine", "Lifecycle", "MIDI", "TestSupport"]),
        .testTarget(name: "SettingsTests", dependencies: ["Settings", "Engine", "TestSupport"]),
        .testTarget(name: "TUITests", dependencies: ["TUI", "Settings", "TextOutput", "TestSupport"]),
        .testTarget(name: "NSMTests", dependencies: ["NSM", "TestSupport"]),
        // System tests. Depending on the executable target makes `swift build --build-tests` build `backbeat`
        // before these tests can run. CLITests: the commands that run to their end (no server);
        // EngineSystemTests: Backbeat running against a private jackd, ALSA's null and file devices, tmux, NSM.
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "backbeat", "Lifecycle", "Engine", "Bench"]),
        .testTarget(name: "EngineSystemTests", dependencies: ["TestSupport", "backbeat", "Engine", "Bench", "MIDI", "NSM"]),
    ]
)
