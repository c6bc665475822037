import Bench
import Engine
import Foundation
import Testing

/// The command line as a user meets it (the built binary, not the parsers in isolation).
@Suite struct CommandLineTests {
    /// A root option would shadow a subcommand's option of the same name; each subcommand must get its own.
    @Test func subcommandsParseTheirOwnOptions() throws {
        let render = try run(backbeatExecutable(), ["render", "/nonexistent.mid", "-o", "/tmp/x.wav", "--voices", "5000"])
        #expect(render.status == 64)
        #expect(render.output.contains("backbeat render"), "\(render.output)")
        let runOptions = try run(backbeatExecutable(), ["--headless", "--voices", "5000"])
        #expect(runOptions.status == 64)
        #expect(runOptions.output.contains("'5000' is invalid for '--voices <voices>': must be a whole number from 1 to 4096"), "\(runOptions.output)")
    }

    // Issue 27: every input is protected. A take named like the font or the preset is refused before the
    // engine starts (exit 2, both named), and the file is untouched.
    @Test func aRecordingMayNotReplaceAFileBackbeatReads() throws {
        let folder = try makeTemporaryDirectory("backbeat-inputs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let font = folder.appendingPathComponent("font.sf2").path
        try FileManager.default.copyItem(atPath: "/usr/share/sounds/sf2/TimGM6mb.sf2", toPath: font)
        let preset = folder.appendingPathComponent("lead.toml").path
        try "patch = 1\n".write(toFile: preset, atomically: true, encoding: .utf8)
        let fontBytes = try Data(contentsOf: URL(fileURLWithPath: font))
        for (option, target) in [("--record-audio", font), ("--record-midi", font), ("--record-audio", preset), ("--record-midi", preset)] {
            let result = try run(backbeatExecutable(), ["--headless", "--soundfont", font, "--preset", preset, option, target])
            #expect(result.status == 2, "\(option) \(target): \(result.output)")
            #expect(result.output.contains("the output '\(target)' is the input '\(target)'"), "\(result.output)")
            #expect(!result.output.contains("JACK"), "refused before the engine: \(result.output)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: font)) == fontBytes)
        #expect(try String(contentsOfFile: preset, encoding: .utf8) == "patch = 1\n")
    }

    // Issue 27: a TOML file that was just `[` aborted Backbeat (exit 134) through every TOML input.
    @Test func aMalformedTOMLFileIsAnErrorWithItsLineNeverAnAbort() throws {
        let bad = try temporaryFile("bracket-\(UInt32.random(in: 0...UInt32.max)).toml", "# a comment\n[\n")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        for arguments in [["lifecycle", "run", bad], ["--headless", "--preset", bad], ["--headless", "--scenario", bad]] {
            let result = try run(backbeatExecutable(), arguments)
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(result.output.contains("\(bad):2: TOML syntax"), "\(arguments): \(result.output)")
        }
    }

    // Issue 21: decode given a Standard MIDI File points to smf, which lists it from a file or standard input.
    @Test func decodeSendsAStandardMIDIFileToSMF() throws {
        let smf: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, 8, 0, 0x90, 60, 100, 0, 0xFF, 0x2F, 0]
        let path = try temporaryFile("smf-\(UInt32.random(in: 0...UInt32.max)).mid", "")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(smf).write(to: URL(fileURLWithPath: path))
        let fromFile = try runToEnd(backbeatExecutable(), ["decode", path])
        #expect(fromFile.status == 2 && fromFile.stderr.contains("is a Standard MIDI File") && fromFile.stderr.contains("backbeat smf \(path)"), "\(fromFile.stderr)")
        let fromStdin = try runToEnd(backbeatExecutable(), ["decode"], stdin: smf)
        #expect(fromStdin.status == 2 && fromStdin.stderr.contains("backbeat smf -"), "\(fromStdin.stderr)")
        let listed = try runToEnd(backbeatExecutable(), ["smf", "-"], stdin: smf)
        #expect(listed.status == 0 && listed.stdout.contains("format 0, 1 track") && listed.stdout.contains("Note On           ch 1  C4 (60) velocity 100"), "\(listed.stdout)\(listed.stderr)")
    }

    // Issue 27: a 300-character --name said "overall failure, communication error with the server".
    @Test func aClientNameJackCannotTakeIsNamedWithTheLimit() throws {
        let result = try run(backbeatExecutable(), ["--headless", "--name", String(repeating: "n", count: 300)])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("--name is 300 bytes long; a JACK client name has at most \(JackClient.maximumNameLength)"), "\(result.output)")
        #expect(JackClient.maximumNameLength >= 32)
    }

    @Test func helpListsEverySubcommand() throws {
        let help = try run(backbeatExecutable(), ["--help"])
        #expect(help.status == 0)
        for name in ["run", "monitor", "decode", "render", "lifecycle", "bench"] {
            #expect(help.output.contains("  \(name)"), "help lacks \(name)")
        }
    }

    @Test func renderRejectsBadInputWithExitCode2AndWritesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-cli-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.wav").path

        let missing = try run(backbeatExecutable(), ["render", "/nonexistent/in.mid", "-o", output])
        #expect(missing.status == 2)
        #expect(missing.output.contains("/nonexistent/in.mid"), "\(missing.output)")

        let corrupt = directory.appendingPathComponent("corrupt.mid").path
        try Data([0x4D, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, 1, 0xE0, 0x4D, 0x54, 0x72, 0x6B, 0, 0, 0, 99, 0x00]).write(to: URL(fileURLWithPath: corrupt))
        let bad = try run(backbeatExecutable(), ["render", corrupt, "-o", output, "--strict"])
        #expect(bad.status == 2)
        #expect(bad.output.contains("offset"), "a corrupt file names the byte offset: \(bad.output)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let good = directory.appendingPathComponent("good.mid").path
        try Data(SynthBenchmark.heldChordFile(notes: 3, seconds: 0.2, program: nil)).write(to: URL(fileURLWithPath: good))
        let unwritable = try run(backbeatExecutable(), ["render", good, "-o", "/nonexistent/dir/out.wav"])
        #expect(unwritable.status == 2)
        #expect(unwritable.output.contains("/nonexistent/dir"), "\(unwritable.output)")

        let rendered = try run(backbeatExecutable(), ["render", good, "-o", output])
        #expect(rendered.status == 0, "\(rendered.output)")
        let header = try Data(contentsOf: URL(fileURLWithPath: output)).prefix(4)
        #expect(header.elementsEqual("RIFF".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("out.wav") && $0 != "out.wav" }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }
}

@Suite struct ConfigPathTests {
    /// Only the default config file may be missing: a path given with --config must exist (exit 2, named).
    @Test func missingExplicitConfigIsAnError() throws {
        let result = try run(backbeatExecutable(), ["--headless", "--config", "/nonexistent/backbeat.toml"])
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains("/nonexistent/backbeat.toml: no such config file (--config)"), "\(result.output)")
    }
}
