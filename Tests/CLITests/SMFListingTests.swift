// Issue 36: `smf`'s counts in the singular for one, a byte after the last chunk refused by --strict and warned
// of otherwise, and a listing whose reader goes away (`| head`) ends quietly, as cat does.
import Foundation
import MIDI
import Testing

@Suite(.needsBackbeatBinary)
final class SMFListingTests {
    let folder: URL
    init() throws { folder = try makeTemporaryDirectory("backbeat-smf-list") }
    deinit { try? FileManager.default.removeItem(at: folder) }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Format 0, one track holding only End of Track: 1 track, 1 event.
    let oneEvent: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, 4, 0, 0xFF, 0x2F, 0]

    @Test func oneTrackAndOneEventAreSaidInTheSingular() throws {
        let path = try write("one.mid", oneEvent)
        let r = try backbeat(["smf", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("format 0, 1 track, 96 ticks per quarter note\ntrack 1: 1 event\n"), "\(r.stdout)")
    }

    @Test func aByteAfterTheLastChunkIsRefusedByStrictAndWarnedOfOtherwise() throws {
        let path = try write("trailing.mid", oneEvent + [0x00])
        let strict = try backbeat(["smf", "--strict", path])
        #expect(strict.status == 2 && strict.stdout.isEmpty, "\(strict)")
        #expect(strict.stderr == "backbeat smf: '\(path)': corrupt MIDI file at byte offset \(oneEvent.count): expected the end of the file "
                + "after the last chunk, found 1 more byte (00)\n", "\(strict.stderr)")
        let tolerant = try backbeat(["smf", path])
        #expect(tolerant.status == 0 && tolerant.stdout.contains("track 1: 1 event"), "\(tolerant)")
        #expect(tolerant.stderr == "backbeat smf: '\(path)': warning: bytes after the last chunk ignored: 1 time, first at byte offset "
                + "\(oneEvent.count) (expected the end of the file after the last chunk, found 1 more byte (00))\n", "\(tolerant.stderr)")
    }

    @Test(.needs(executable: "/bin/bash", package: "bash"))
    func aReaderThatGoesAwayEndsTheListingQuietly() throws {
        // 20 000 notes: a listing far longer than a pipe holds, so most of it is written after head has gone.
        let notes = (0..<20_000).flatMap { i -> [(seconds: Double, message: MIDIMessage)] in
            let t = Double(i) * 0.01
            return [(t, .noteOn(NoteOn(channel: 0, note: 60, velocity: 100))), (t + 0.005, .noteOff(NoteOff(channel: 0, note: 60, velocity: 0)))]
        }
        let path = try write("big.mid", StandardMIDIFile.format0(notes))
        let errors = folder.appendingPathComponent("stderr.txt").path
        let script = "\"$0\" smf \"$1\" 2>\"$2\" | head -n 3 >/dev/null; echo \"${PIPESTATUS[0]}\""
        let r = try runToEnd("/bin/bash", ["-c", script, backbeatExecutable(), path, errors])
        #expect(r.stdout == "141\n", "killed by SIGPIPE as cat is: \(r.stdout) \(r.stderr)")
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == "", "nothing said")
        // Other write errors are still said, with exit 1.
        let full = try runToEnd(backbeatExecutable(), ["smf", path], standardOutput: FileHandle(forWritingAtPath: "/dev/full"))
        #expect(full.status == 1 && full.stderr.contains("cannot write the output (standard output): No space left on device"), "\(full.stderr)")
    }
}
