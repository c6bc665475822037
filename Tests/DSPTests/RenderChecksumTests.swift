// Both synths, sample for sample, against checksums of what main rendered before the voice model was made
// one (issue 19): the files of Tests/Fixtures/voices (dense chords that steal with 6 voices, the same key
// again, the pedal, bend, vibrato, every built-in patch, a drum kit whose hi-hats cut each other) through the
// built-in patches and through two General MIDI fonts. The DSP module is optimized in debug builds too, and
// debug and release renders were bit-identical when the checksums were taken, so one table serves both.
import Foundation
import Synchronization
import Testing
@testable import DSP
import MIDI
import TestSupport

/// A file's channel messages at their frames (48 kHz), in file order.
func fixtureEvents(_ name: String) throws -> [(frame: Int, message: ShortMessage)] {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixturePath("voices/\(name).mid"))))
    return try StandardMIDIFile(bytes: bytes).timedEvents().compactMap { event in
        guard case .message(let message) = event.event, let short = message.shortMessage else { return nil }
        return (Int((event.seconds * rate).rounded()), short)
    }
}

/// FNV-1a (64-bit) over both channels' float bit patterns, left then right.
func checksum(_ out: (left: [Float], right: [Float])) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for x in out.left + out.right {
        var bits = x.bitPattern
        for _ in 0..<4 { hash = (hash ^ UInt64(bits & 0xFF)) &* 0x100_0000_01b3; bits >>= 8 }
    }
    return String(hash, radix: 16)
}

private let fonts = ["tim": "/usr/share/sounds/sf2/TimGM6mb.sf2", "fr3": "/usr/share/sounds/sf2/FluidR3_GM.sf2"]
private let loadedFonts = Mutex<[String: SoundFont]>([:])

private func font(_ key: String) throws -> SoundFont {
    guard let path = fonts[key] else { throw HarnessError("no font '\(key)'") }
    if let font = loadedFonts.withLock({ $0[key] }) { return font }
    let font = try SoundFont.load(path: path)
    loadedFonts.withLock { $0[key] = font }
    return font
}

/// Checksums of main at babf1b6: "file voices patch font" -> FNV-1a of 2 s past the file's last event.
/// Two differ on purpose since the allocator stopped stealing voices not yet heard ("chords 6 0 fr3" was
/// d2162a2a9606b474, "drums 6 0 fr3" e321bd71cc6bcfa9): FluidR3 starts two voices a note (stereo pairs),
/// so 6 voices fill within one period there, where main stole a voice of that same period's notes. With
/// that rule switched off the allocator renders all 21 as main did. The twelve font rows were taken again when
/// the sample voices' interpolation table went from 256 rows to 1024 (issue 24: the fraction rounded to 1/1024
/// of a frame, InterpolationQualityTests); the faster interpolated read that came with it gives the same sums
/// as before for every input (checked against the old read on two million random positions and tables).
/// Ten of them (the drums on FluidR3 excepted) were taken again when short loops began to play from a copy
/// repeated many times (Synth+LoopCopies.swift's `unrollLane`): past a loop's first pass the point before
/// the loop's start is now the loop's last frame, as FluidSynth reads a loop that has wrapped, where the font's
/// frame before the loop was read at each wrap; and the reads near a loop's end that went one by one now go
/// through the fast run's integer sums.
/// The six built-in rows of "chords" and "controllers" were taken again when each channel got its own patch
/// (issue 20): their program changes come while notes sound, and those notes now keep the patch they started
/// with to the end of their release, where main switched them to the new patch; and a patch's filter values
/// now start at the patch's own when its first note comes, where main's one set of smoothed values was still
/// gliding from the patch given to `init` (3 octaves of cutoff over a 5 ms time constant, not yet settled to
/// the last bit 11 ms later at "chords"' first note, 50 ms later at "controllers'"): "controllers 6 3 -" now
/// renders as "controllers 6 0 -". The "drums" rows (one patch, no program change) are unchanged, as is any
/// render whose program changes choose the patch it started with (checked against main's binary on 255
/// voices held on 15 channels, live voice counts 64 and 512, dry and wet: byte-identical WAV files).
/// The twelve font rows were taken again when the sample voices' filter grouped its integrator's sum for a
/// shorter feedback chain (issue 24, then `sampleFilterStep`, now `svfStep` in Sources/VoiceLoops): the same operations,
/// rounded differently in the last bit; `backbeat render` of the three files with each font before and after
/// differed by at most -150.5 dB (peak of the difference, RMS -174 dB or below). Nine of them again when the
/// careful step (a loop's end, a sample's) took the fast run's exact integer sums instead of float products
/// that rounded (`carefulStep`): a sample played carefully is now the same as played fast, which let a short
/// loop's copy hold as many passes as fit without changing a sample; renders of 256-note chords and the
/// 1024-note capacity chord before/after differed by at most -122.9 dB. Seven again when a voice in its loop's copy
/// began to keep its place in the copy from call to call: folded back into the loop's first pass at the end of
/// each call, a voice exactly at a pass's start read the frame before the loop as its point before (where a
/// wrapped loop reads its last frame), so the sound hung on where calls ended; the three files differ by at
/// most -103 dB peak. The two drum rows on FluidR3 again when every sounding sample voice began to run its
/// filter, wide open or not (as FluidSynth's do): four wide-open voices skipped it, so a voice's sound hung on
/// which voices shared its lanes, and so on where calls ended (SoundFontVoiceTests' `aWideOpenVoice...`); that
/// file's bright drums differ by at most -46.1 dB peak (RMS -78 dB), the other five renders not at all.
/// The nine built-in rows were taken again when the built-in voices' filter took the sample voices' grouping
/// of the integrator's sum (issue 37: one `svfStep` for every voice): `backbeat render` of the three files
/// before and after differed by at most -138.5 dB peak (RMS -160.8 dB or below); the font rows not at all.
/// The six built-in rows of "chords" and "controllers" again when each General MIDI program got a patch of its
/// own (issue 40): their program changes now play those programs' own patches; the "drums" rows are unchanged.
private let expected: [String: String] = [
    "chords 6 0 -": "1bd5d96935b5435",
    "chords 6 0 fr3": "1850737beebdcf45",
    "chords 6 0 tim": "5dd5f3f06ab10d76",
    "chords 6 3 -": "16f390804a5f88f1",
    "chords 64 0 -": "144f9f3e84894875",
    "chords 64 0 fr3": "e4612fdcbfc22710",
    "chords 64 0 tim": "9e720c99fb9de17d",
    "controllers 6 0 -": "919b5c915e40a01",
    "controllers 6 0 fr3": "851c016d3674a6c2",
    "controllers 6 0 tim": "f238dfaba5699946",
    "controllers 6 3 -": "919b5c915e40a01",
    "controllers 64 0 -": "919b5c915e40a01",
    "controllers 64 0 fr3": "789d4b211e85cfad",
    "controllers 64 0 tim": "1920fa855a67d16a",
    "drums 6 0 -": "78cbabaae8746fa5",
    "drums 6 0 fr3": "83ca5b2d527555d",
    "drums 6 0 tim": "bec91893e1efe3a4",
    "drums 6 3 -": "e947131eb39d9705",
    "drums 64 0 -": "cac835a57af34735",
    "drums 64 0 fr3": "ddbb35d97a8b1327",
    "drums 64 0 tim": "28b571d05fae9115",
]

/// The built-in synth's choices as main made them when the checksums were taken: program n played patch
/// n mod 6 (now each program plays its own patch: the program a recorder writes for patch n mod 6 instead),
/// and channel 10 played the patches (now the drum kit: GM2's melodic bank 121 there instead). What the
/// voices render from those choices must not have changed.
func asMainPlayedThem(_ events: [(frame: Int, message: ShortMessage)]) -> [(frame: Int, message: ShortMessage)] {
    [(0, cc(0, 121, channel: 9))] + events.map { event in
        let m = event.message
        guard m.kind == .programChange else { return event }
        let program = SynthPatch.program(forPatch: Int(m.data1 & 0x7F) % 6) ?? 0
        return (event.frame, ShortMessage(status: m.status, data1: UInt8(program), data2: 0))
    }
}

struct RenderChecksumTests {
    /// "file voices patch font" for `font` ("-" the built-in patches, "tim", "fr3").
    static func cases(_ font: String) -> [String] {
        let settings = font == "-" ? ["64 0", "6 0", "6 3"] : ["64 0", "6 0"]
        return ["chords", "controllers", "drums"].flatMap { file in settings.map { "\(file) \($0) \(font)" } }
    }

    @Test(arguments: cases("-"))
    func builtInRendersAsBefore(_ key: String) throws { try rendersAsBefore(key) }

    // A font's cases need it installed: on CI a missing font fails them, it does not pass them unrun.
    @Test(.needs(file: fonts["tim"]!, package: "timgm6mb-soundfont"), arguments: cases("tim"))
    func timGM6mbRendersAsBefore(_ key: String) throws { try rendersAsBefore(key) }

    @Test(.needs(file: fonts["fr3"]!, package: "fluid-soundfont-gm"), arguments: cases("fr3"))
    func fluidR3RendersAsBefore(_ key: String) throws { try rendersAsBefore(key) }

    private func rendersAsBefore(_ key: String) throws {
        let parts = key.split(separator: " ").map(String.init)
        let soundFont = parts[3] == "-" ? nil : try font(parts[3])
        let synth = Synth(voices: Int(parts[1])!, patch: Int(parts[2])!, soundFont: soundFont)
        // Dry, explicitly: the checksums are of the voices and the mix; the send effects (on by default since
        // issue 22, tested from their audio in EffectTests) came after them. A group that sends is folded into
        // the lane sums with the same additions, so the dry mix is these checksums with the effects on too.
        synth.setEffects(reverb: false, chorus: false)
        synth.prepare(sampleRate: rate, maxFrames: 256)
        var events = try fixtureEvents(parts[0])
        if soundFont == nil { events = asMainPlayedThem(events) }
        let out = render(synth, frames: events.last!.frame + 2 * Int(rate), events: events)
        #expect((out.left + out.right).contains { abs($0) > 0.01 }, "\(key): silent")
        let sum = checksum(out)
        #expect(sum == expected[key], "\(key): rendered \(sum)")
    }
}
