// swift-tools-version: 6.1
// libFuzzer targets for the MIDI module, the SoundFont loader, the TOML parser and the SFZ parser: run them with scripts/fuzz (it passes -sanitize=fuzzer).
import PackageDescription

let package = Package(
    name: "BackbeatFuzz",
    dependencies: [.package(name: "Backbeat", path: "..")],
    targets: [
        // No main: libFuzzer provides it and calls LLVMFuzzerTestOneInput (built with -parse-as-library).
        // libFuzzer's driver, started from each target's SwiftPM entry point.
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzMIDIParser", dependencies: ["FuzzDriver", .product(name: "MIDI", package: "Backbeat")]),
        .executableTarget(name: "FuzzSMF", dependencies: ["FuzzDriver", .product(name: "MIDI", package: "Backbeat")]),
        .executableTarget(name: "FuzzSoundFont", dependencies: ["FuzzDriver", .product(name: "DSP", package: "Backbeat")]),
        .executableTarget(name: "FuzzTOML", dependencies: ["FuzzDriver", .product(name: "TOML", package: "Backbeat")]),
        .executableTarget(name: "FuzzSFZ", dependencies: ["FuzzDriver", .product(name: "SFZ", package: "Backbeat")]),
    ]
)
