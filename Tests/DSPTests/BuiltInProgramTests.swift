// Issue 20, section 4, and issue 40, part 3: each General MIDI program plays its own built-in patch (docs/builtin-programs.md
// lists the same table as the code), sustained instruments sustain while held and percussive ones decay.
import Foundation
import MIDI
import Testing
import TestSupport
@testable import DSP

@Suite struct BuiltInProgramTests {
    /// RMS in dB of 50 ms from `seconds` of a note of `program` held 3.5 s.
    private static func heldLevels(program: UInt8) -> (early: Double, late: Double) {
        let synth = Synth(voices: 8)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        synth.handle(ShortMessage(status: 0xC0, data1: program))
        synth.handle(noteOn(60, velocity: 100))
        let out = render(synth, frames: 48_000 * 7 / 2).left
        func level(_ seconds: Double) -> Double { decibels(rms(out[Int(seconds * 48_000)..<Int((seconds + 0.05) * 48_000)])) }
        return (level(0.5), level(3))
    }

    /// Organ, strings, ensemble, choir, brass, reeds, pipes, leads, pads: within a few (4) dB after 3 s held
    /// (the soft pad is still in its 0.6 s attack at 0.5 s).
    @Test(arguments: [UInt8(16), 19, 21, 40, 48, 52, 56, 61, 65, 73, 80, 88, 89])
    func sustainedProgramsSustainWhileHeld(_ program: UInt8) {
        let (early, late) = Self.heldLevels(program: program)
        print(String(format: "program %d %@: %.1f dB at 0.5 s, %.1f dB at 3 s", Int(program), GeneralMIDI.programName(program), early, late))
        #expect(early > -40)
        #expect(abs(late - early) < 4, "program \(program) \(GeneralMIDI.programName(program)): \(early) dB, then \(late) dB")
    }

    /// Piano, chromatic percussion, guitars, harp, plucked ethnic instruments: they die away though held.
    @Test(arguments: [UInt8(0), 1, 8, 11, 12, 24, 25, 46, 105])
    func percussiveProgramsDecay(_ program: UInt8) {
        let (early, late) = Self.heldLevels(program: program)
        print(String(format: "program %d %@: %.1f dB at 0.5 s, %.1f dB at 3 s", Int(program), GeneralMIDI.programName(program), early, late))
        #expect(early > -40)
        #expect(late < early - 10, "program \(program) \(GeneralMIDI.programName(program)): \(early) dB, then \(late) dB")
    }

    /// docs/builtin-programs.md's table is the code's: every program, its GM name, its patch's number and name.
    @Test func theDocumentedProgramTableIsTheCodes() throws {
        let doc = try String(contentsOf: packageRoot.appendingPathComponent("docs/builtin-programs.md"), encoding: .utf8)
        var rows: [Int: (name: String, patch: Int, patchName: String, wave: String, cutoff: String)] = [:]
        for line in doc.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 11, let program = Int(cells[0]) else { continue }
            let patch = cells[2].split(separator: " ", maxSplits: 1)
            guard patch.count == 2, let index = Int(patch[0]) else { Issue.record("bad row: \(line)"); continue }
            rows[program] = (cells[1], index, String(patch[1]), cells[3], cells[8])
        }
        #expect(rows.count == 128)
        for program in 0..<128 {
            guard let row = rows[program] else { Issue.record("program \(program) missing"); continue }
            let patch = SynthPatch.generalMIDI(program: program)
            #expect(row.name == GeneralMIDI.programName(UInt8(program)), "program \(program)")
            #expect(row.patch == patch && row.patchName == SynthPatch.builtIn[patch].name,
                    "program \(program): the doc says \(row.patch) \(row.patchName), the code \(patch) \(SynthPatch.builtIn[patch].name)")
            #expect(row.wave == SynthPatch.builtIn[patch].waveform.description && row.cutoff == String(Int(SynthPatch.builtIn[patch].cutoff)),
                    "program \(program): the doc says \(row.wave) \(row.cutoff) Hz")
        }
        // The kits' table: name, program.
        for kit in DrumKit.kits { #expect(doc.contains("| \(kit.name) | \(kit.program) |"), "kit \(kit.name)") }
        // The drum kit's table too: key, name.
        for (i, sound) in DrumSound.kit.enumerated() {
            #expect(doc.contains("| \(DrumSound.firstKey + i) | \(sound.name) |"), "drum key \(DrumSound.firstKey + i) \(sound.name)")
        }
    }
}
