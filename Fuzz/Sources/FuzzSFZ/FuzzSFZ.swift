import FuzzDriver
import SFZ

/// Traps with the message kept in release builds (precondition drops it).
func check(_ condition: Bool, _ message: StaticString) {
    if !condition { fatalError("invariant violated: \(message)") }
}

/// Feeds arbitrary bytes to the SFZ parser, `#include` refused (nothing is read from disk): it must return an
/// instrument, never trap. Every diagnostic and region must point into the input, every key and velocity
/// must be within MIDI's range, every number finite, and the unknown opcodes sorted with positive counts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSFZ(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let instrument = SFZInstrument.parse(bytes, path: "fuzz.sfz") { path in .failure(SFZLoadError(path: path, reason: "refused")) }
    let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
    for diagnostic in instrument.diagnostics {
        check(diagnostic.location.file == "fuzz.sfz", "diagnostic in another file")
        check(diagnostic.location.line >= 1 && diagnostic.location.line <= lines, "diagnostic line outside the input")
        check(!diagnostic.message.isEmpty, "diagnostic without a message")
    }
    for region in instrument.regions {
        check(region.location.line >= 1 && region.location.line <= lines, "region line outside the input")
        check((-1...127).contains(region.keys.low) && (-1...127).contains(region.keys.high), "key out of range")
        check((0...127).contains(region.pitchKeycenter), "pitch_keycenter out of range")
        check((0...127).contains(region.velocities.low) && (0...127).contains(region.velocities.high), "velocity out of range")
        check([region.volume, region.amplitude, region.pan, region.width, region.delay, region.rtDecay, region.cutoff ?? 0,
               region.ampEG.attack, region.ampEG.release, region.filterEG.depth, region.ampLFO.frequency].allSatisfy(\.isFinite), "number not finite")
        check(region.ccRanges.keys.allSatisfy { (0...511).contains($0) }, "CC number out of range")
        if case .file(let path)? = region.sample { check(!path.isEmpty, "empty sample path") }
    }
    check(zip(instrument.unknownOpcodes, instrument.unknownOpcodes.dropFirst()).allSatisfy { $0.name < $1.name }, "unknown opcodes not sorted")
    check(instrument.unknownOpcodes.allSatisfy { $0.count > 0 }, "unknown opcode counted 0 times")
    return 0
}

// libFuzzer's driver runs from SwiftPM's entry point (Fuzz/Sources/FuzzDriver).
@_cdecl("FuzzSFZ_main")
public func fuzzerEntryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzSFZ(data, size) }
}
