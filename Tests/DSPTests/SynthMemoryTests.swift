// The synth's memory frees itself: every buffer is a `FixedArray` that frees itself in its own deinit, so a synth made,
// prepared and dropped a thousand times leaves the resident set where it was.
import Foundation
import Testing
@testable import DSP
import MIDI
import TestSupport

/// Resident pages of this process, in bytes (/proc/self/statm's second field).
private func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

@Test(.needs(file: "/usr/share/sounds/sf2/TimGM6mb.sf2", package: "timgm6mb-soundfont"))
func aThousandSynthsWithAFontLeaveTheResidentSetFlat() throws {
    let font = try SoundFont.load(path: "/usr/share/sounds/sf2/TimGM6mb.sf2")
    var left = [Float](repeating: 0, count: 256), right = left
    func cycle() {
        // 64 voices (128 slots) and 1024-frame periods: about half a megabyte of voice, sample-voice and period
        // buffers, the period buffers made twice.
        let synth = Synth(voices: 64, soundFont: font)
        synth.prepare(sampleRate: 48_000, maxFrames: 1_024)
        synth.prepare(sampleRate: 48_000, maxFrames: 1_024) // the first period buffers are replaced
        synth.handle(ShortMessage(status: 0x90, data1: 60, data2: 100))
        synth.render(left: &left, right: &right, frames: 256)
    }
    for _ in 0..<50 { cycle() } // the allocator's caches warm up
    let before = residentBytes()
    for _ in 0..<1_000 { cycle() }
    let grown = residentBytes() - before
    print("resident set: \(before / 1024) kB before 1000 synths, grew \(grown / 1024) kB")
    // A leak of the per-synth buffers would grow it by some 500 MB. The resident set is the whole test
    // process's, which the tests running beside this one move by tens of MB (16.4 MB seen once), so the
    // bound sits between the two.
    #expect(before > 0)
    #expect(grown < 64 << 20, "grew \(grown / 1024) kB over 1000 synths")
}

/// The loader's memory frees itself too: fonts loaded from bytes (their copy of the file, their tables and
/// preset keys, each a `FixedArray`), stacked two high and played, then dropped.
@Test func aThousandLoadedAndStackedFontsLeaveTheResidentSetFlat() throws {
    // 64k frames: a quarter megabyte of file a font, so a leak shows well above allocator noise.
    func font(bank: UInt16) -> [UInt8] {
        var builder = SoundFontBuilder.minimal(bank: bank)
        builder.samples = [.init(name: "ramp", frames: (0 ..< 65_536).map { Int16(truncatingIfNeeded: $0 * 100) },
                                 loopStart: 8, loopEnd: 65_528)]
        return builder.bytes()
    }
    let low = font(bank: 0), high = font(bank: 1)
    var left = [Float](repeating: 0, count: 256), right = left
    func cycle() throws {
        let stack = SoundFont.stacked([try SoundFont.load(bytes: low), try SoundFont.load(bytes: high)])
        let synth = Synth(voices: 8, soundFont: stack)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        synth.handle(ShortMessage(status: 0x90, data1: 60, data2: 100))
        synth.render(left: &left, right: &right, frames: 256)
    }
    for _ in 0..<50 { try cycle() }
    let before = residentBytes()
    for _ in 0..<1_000 { try cycle() }
    let grown = residentBytes() - before
    print("resident set: \(before / 1024) kB before 1000 font stacks, grew \(grown / 1024) kB")
    // A leak of the copied files alone would grow it by some 250 MB (the bound: as above).
    #expect(before > 0)
    #expect(grown < 64 << 20, "grew \(grown / 1024) kB over 1000 font stacks")
}
