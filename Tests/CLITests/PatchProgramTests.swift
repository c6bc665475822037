// Issue 36: one meaning each for --patch (a built-in patch, by name or number) and --program (a General MIDI
// program, mapped as a program change maps it); a file with no program change plays piano (GM program 0's
// patch), not patch 0; the render's summary says its counts in the singular for one and a silent peak -inf.
import DSP
import Engine
import Foundation
import MIDI
import Testing

@Suite(.needsBackbeatBinary)
final class PatchProgramTests {
    let folder: URL
    init() throws { folder = try makeTemporaryDirectory("backbeat-patch") }
    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A format 0 file of `messages` (seconds, status, data), written into the folder.
    func midiFile(_ name: String, _ messages: [(Double, UInt8, UInt8, UInt8)]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let events = messages.map { ($0.0, MIDIMessage(ShortMessage(status: $0.1, data1: $0.2, data2: $0.3))!) }
        try Data(StandardMIDIFile.format0(events)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Renders `file` with `options`; the left channel, after checking the render succeeded.
    func rendered(_ file: String, _ options: [String]) throws -> (left: [Float], summary: String) {
        let out = folder.appendingPathComponent("out-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try backbeat(["render", file, "-o", out, "--rate", "22050"] + options)
        #expect(result.status == 0, "\(options): \(result.stderr)")
        return (try WAVFile.read(out).left, result.stdout)
    }

    @Test func aFileWithNoProgramChangePlaysPianoAsProgramZeroDoes() throws {
        let plain = try midiFile("plain.mid", [(0, 0x90, 60, 100), (0.5, 0x80, 60, 0)])
        let programZero = try midiFile("program0.mid", [(0, 0xC0, 0, 0), (0, 0x90, 60, 100), (0.5, 0x80, 60, 0)])
        let byDefault = try rendered(plain, []).left
        #expect(try rendered(programZero, []).left == byDefault, "no program change is program 0")
        #expect(try rendered(plain, ["--patch", "piano"]).left == byDefault)
        #expect(try rendered(plain, ["--patch", "6"]).left == byDefault)
        #expect(try rendered(plain, ["--program", "0"]).left == byDefault)
        #expect(try rendered(plain, ["--patch", "0"]).left != byDefault, "sine keys is not the default any more")
    }

    @Test func programIsMappedAsAProgramChangeAndPatchTakesNamesAndNumbers() throws {
        let plain = try midiFile("lead.mid", [(0, 0x90, 60, 100), (0.3, 0x80, 60, 0)])
        let guitar = try rendered(plain, ["--patch", "42"]).left
        // GM 29 (overdriven guitar) plays its own patch, 42, as a program change 29 selects it (issue 40); it
        // was patch 1, saw lead, before each program had its own.
        #expect(SynthPatch.generalMIDI(program: 29) == 42)
        #expect(try rendered(plain, ["--program", "29"]).left == guitar)
        #expect(try rendered(plain, ["--patch", "overdriven guitar"]).left == guitar)
        #expect(try rendered(plain, ["--patch", "Overdriven-Guitar"]).left == guitar)
        #expect(try rendered(plain, ["--patch", "1"]).left != guitar)
        #expect(try rendered(plain, ["--patch", "saw lead"]).left == (try rendered(plain, ["--patch", "1"]).left))
    }

    @Test func aPatchOutOfRangeOrUnknownIsRefusedWithTheList() throws {
        for command in [["render", "x.mid", "-o", "x.wav"], ["--headless"]] {
            for value in ["141", "290", "1270", "harpsichords", "-1"] {
                let result = try backbeat(command + ["--patch", value])
                #expect(result.status == 64, "\(command) --patch \(value): \(result.stderr)")
                #expect(result.stderr.contains("must be a built-in patch, its number (0 to 140) or its name: 0 sine keys, 1 saw lead,"), "\(result.stderr)")
                #expect(result.stderr.contains("12 flute; 13-140 the General MIDI programs 0-127 by name; --program N chooses by General MIDI program (0 to 127)"), "\(result.stderr)")
            }
            let program = try backbeat(command + ["--program", "128"])
            #expect(program.status == 64 && program.stderr.contains("must be a whole number from 0 to 127"), "\(program.stderr)")
            let both = try backbeat(command + ["--patch", "1", "--program", "29"])
            #expect(both.status == 64 && both.stderr.contains("--patch and --program both choose the patch the synth starts with: give one of them"),
                    "\(both.stderr)")
        }
    }

    @Test func helpSaysTheDefaults() throws {
        for command in [["render", "--help"], ["run", "--help"]] {
            let help = try backbeat(command).stdout.replacingOccurrences(of: "\n", with: " ")
                .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            #expect(help.contains("256 by default, as FluidSynth"), "\(command): \(help)")
            #expect(help.contains("Default: General MIDI program 0's, 13 acoustic grand piano."), "\(command): \(help)")
            #expect(help.contains("--program 29 is 42 overdriven guitar"), "\(command): \(help)")
        }
    }

    @Test func theSummarySaysOneNoteAndASilentPeakIsMinusInfinity() throws {
        let one = try midiFile("one.mid", [(0, 0x90, 60, 100), (0.2, 0x80, 60, 0)])
        let summary = try rendered(one, []).summary
        #expect(summary.contains(": 1 note, "), "\(summary)")
        let silent = try midiFile("silent.mid", [(0, 0xB0, 7, 100), (0.2, 0xB0, 10, 64)])
        let quiet = try rendered(silent, []).summary
        #expect(quiet.contains(": 0 notes, ") && quiet.contains("peak -inf dBFS"), "\(quiet)")
        #expect(!quiet.contains("-200.0"), "\(quiet)")
    }
}
