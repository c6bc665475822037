import DSP
import FuzzDriver

/// Traps with the message kept in release builds (precondition drops it).
func check(_ condition: Bool, _ message: StaticString) {
    if !condition { fatalError("invariant violated: \(message)") }
}

/// Feeds arbitrary bytes to the SoundFont loader: it must throw a SoundFontError or load, never trap; a font it
/// loads must hold together: every zone's sample and modulators inside their tables, every sample's points
/// inside the sample data (SoundFont 3: its samples decoded), presets sorted with unique keys, and the preset lookup answering inside the list.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSoundFont(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let font: SoundFont
    do {
        font = try SoundFont.load(bytes: bytes, path: "fuzz.sf2")
    } catch {
        check(error.offset >= 0 && error.offset <= size, "error offset outside the input")
        check(!error.reason.isEmpty, "error without a reason")
        return 0
    }
    check(font.presetCount == font.presets.count, "preset count")
    for zone in font.zones {
        check(zone.sample >= 0 && Int(zone.sample) < font.samples.count, "zone sample out of range")
        check(zone.modulatorStart >= 0 && zone.modulatorCount >= 0
              && Int(zone.modulatorStart) + Int(zone.modulatorCount) <= font.modulators.count, "zone modulators out of range")
        check(zone.keyLow <= zone.keyHigh && zone.keyHigh <= 127, "key range")
        check(zone.velocityLow <= zone.velocityHigh && zone.velocityHigh <= 127, "velocity range")
        let s = font.samples[Int(zone.sample)]
        check(s.start < s.end && Int(s.end) <= font.sampleData.count, "played sample outside the data")
        check(s.start <= s.loopStart && s.loopStart <= s.loopEnd && s.loopEnd <= s.end, "loop outside the sample")
        _ = font.sampleData[Int(s.start)]
        _ = font.sampleData[Int(s.end) - 1]
    }
    if let low = font.sampleLowBytes { check(low.count == font.sampleData.count, "sm24 length") }
    // SoundFont 3: every compressed sample through libvorbisfile (an error naming the sample, or frames in
    // its slot), with the cache's bound holding; a broken sample is counted as such, never as decoded.
    if let store = font.sampleStore {
        let failures = store.decode(0 ..< font.samples.count)
        for error in failures { check(error.reason.contains("does not decode"), "decode error without its reason") }
        check(failures.count == store.status.brokenSamples, "a broken sample not counted as broken")
        check(store.status.decodedBytes <= store.status.limitBytes, "sample cache over its bound")
    }
    var previous: Int32 = -1
    for i in 0 ..< font.presetCount {
        let p = font.presets[i]
        check(font.presetKeys[i] > previous, "preset keys not sorted and unique")
        previous = font.presetKeys[i]
        check(p.zoneStart >= 0 && Int(p.zoneStart) + Int(p.zoneCount) <= font.zones.count, "preset zones out of range")
        check(font.exactPreset(bank: Int(p.bank), program: Int(p.program)) == i, "exact lookup")
    }
    for (bank, program) in [(0, 0), (128, 0), (5, 200), (-1, 3), (1 << 20, 1)] {
        for percussion in [false, true] {
            if let i = font.preferredPreset(bank: bank, program: program, percussion: percussion) {
                check(i >= 0 && i < font.presetCount, "preferred preset out of range")
            }
        }
    }
    return 0
}

// libFuzzer's driver runs from SwiftPM's entry point (Fuzz/Sources/FuzzDriver).
@_cdecl("FuzzSoundFont_main")
public func fuzzerEntryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzSoundFont(data, size) }
}
