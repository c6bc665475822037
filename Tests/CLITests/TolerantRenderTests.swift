// `backbeat render` and `backbeat smf` on files with faults: played with one warning line per kind of fault
// (exit 0), refused with --strict (exit 2); End-of-Track sets the length of the render.
import Foundation
import Testing
import TestSupport
@testable import Engine

private func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
private func smf(format: UInt8 = 0, tracks: [[UInt8]]) -> [UInt8] {
    Array("MThd".utf8) + be32(6) + [0, format, 0, UInt8(tracks.count), 0, 96]
        + tracks.flatMap { Array("MTrk".utf8) + be32($0.count) + $0 }
}

@Suite(.serialized) struct TolerantRenderTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-tolerant-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func frames(_ path: String) -> Int { renderedFrames(path) }

    @Test func aFaultyFilePlaysWithOneWarningPerKindAndStrictRefusesIt() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Stray clock bytes, running status after a meta event, a chunk length past the end of the file.
        let events: [UInt8] = [0x00, 0x90, 60, 100, 0x00, 0xF8, 0x00, 0xF8, 0x00, 0xFF, 0x01, 0x01, 0x41,
                               0x60, 60, 0, 0x00, 0xFF, 0x2F, 0x00]
        let bytes = Array("MThd".utf8) + be32(6) + [0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + be32(500) + events
        let input = try write(bytes, "faulty.mid")
        let output = directory.appendingPathComponent("out.wav").path
        let played = try run(backbeatExecutable(), ["render", input, "-o", output, "--rate", "8000"])
        #expect(played.status == 0, "\(played.output)")
        let warnings = played.output.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 3, "\(played.output)")
        #expect(warnings.contains { $0.contains("system bytes") && $0.contains("2 times") && $0.contains("byte offset 27") })
        #expect(warnings.contains { $0.contains("running status") && $0.contains("byte offset 36") })
        #expect(warnings.contains { $0.contains("chunk length") && $0.contains("byte offset 18") })
        #expect(frames(output) > 4_000, "the note was rendered")

        try? FileManager.default.removeItem(atPath: output)
        let strict = try run(backbeatExecutable(), ["render", input, "-o", output, "--strict"])
        #expect(strict.status == 2)
        #expect(strict.output.contains("offset 18"), "\(strict.output)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let listed = try run(backbeatExecutable(), ["smf", input])
        #expect(listed.status == 0 && listed.output.contains("warning:"), "\(listed.output)")
        let refused = try run(backbeatExecutable(), ["smf", input, "--strict"])
        #expect(refused.status == 2 && refused.output.contains("offset 18"), "\(refused.output)")

        let notMIDI = try write(Array("RIFF0000WAVE".utf8), "not.mid")
        let bad = try run(backbeatExecutable(), ["render", notMIDI, "-o", output])
        #expect(bad.status == 2 && bad.output.contains("MThd"), "\(bad.output)")
    }

    @Test func reportCountsTheSysexObeyedAndIgnored() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // GM System On (obeyed), GS Use For Rhythm Part (ignored) at 0.5 s, a note.
        let gmOn: [UInt8] = [0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
        let rhythm: [UInt8] = [0x60, 0xF0, 0x09, 0x41, 0x10, 0x42, 0x12, 0x40, 0x11, 0x15, 0x02, 0xF7]
        let input = try write(smf(tracks: [gmOn + rhythm + [0x00, 0x90, 60, 100, 0x30, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]]), "sysex.mid")
        let output = directory.appendingPathComponent("sysex.wav").path
        let result = try run(backbeatExecutable(), ["render", input, "-o", output, "--rate", "8000", "--report"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("2 received, 1 obeyed, 1 ignored"), "\(result.output)")
        #expect(result.output.contains("ignored at 0.500 s: F0 41 10 42 12 40 11 15 02 F7"), "\(result.output)")
    }

    @Test func endOfTrackSetsTheLengthAndFormat2PlaysTracksInTurn() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // 5 s of silence: End-of-Track at 960 ticks (96 per quarter, 120 BPM).
        let silence = try write(smf(tracks: [[0x87, 0x40, 0xFF, 0x2F, 0x00]]), "silence.mid")
        let output = directory.appendingPathComponent("silence.wav").path
        let result = try run(backbeatExecutable(), ["render", silence, "-o", output, "--rate", "8000"])
        #expect(result.status == 0, "\(result.output)")
        #expect(frames(output) == 40_000, "exactly 5 s: \(frames(output)) frames")

        // A short note, End-of-Track at 5 s: still 5 s (the tail ends well before).
        let note = try write(smf(tracks: [[0x00, 0x90, 60, 100, 0x30, 0x80, 60, 0, 0x87, 0x10, 0xFF, 0x2F, 0x00]]), "note.mid")
        let noteOut = directory.appendingPathComponent("note.wav").path
        #expect(try run(backbeatExecutable(), ["render", note, "-o", noteOut, "--rate", "8000"]).status == 0)
        #expect(frames(noteOut) == 40_000, "\(frames(noteOut)) frames")

        // Format 2: two one-second sequences, the second after the first: 2 s.
        let one: [UInt8] = [0x00, 0x90, 60, 100, 0x30, 0x80, 60, 0, 0x81, 0x10, 0xFF, 0x2F, 0x00]
        let two = try write(smf(format: 2, tracks: [one, one]), "two.mid")
        let twoOut = directory.appendingPathComponent("two.wav").path
        let rendered = try run(backbeatExecutable(), ["render", two, "-o", twoOut, "--rate", "8000"])
        #expect(rendered.status == 0 && rendered.output.contains("2 notes"), "\(rendered.output)")
        #expect(frames(twoOut) == 16_000, "\(frames(twoOut)) frames")
    }
}

/// Frames of a rendered 32-bit float stereo WAV (-1 when there is none).
func renderedFrames(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { return -1 }
    return (Int(status.st_size) - WAVFile.headerSize) / 8
}
