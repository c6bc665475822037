// `backbeat play` before any engine starts: a file that is not MIDI is refused with render's message, a queue
// with nothing playable exits 2, and a first argument that is a MIDI file chooses `play` (`backbeat song.mid`).
import Foundation
import Testing
import TestSupport

@Suite struct PlayCommandTests {
    let directory: URL

    init() throws { directory = try makeTemporaryDirectory("backbeat-play-cli") }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What `render` says of `path`, without its prefix.
    func renderMessage(_ path: String) throws -> String {
        let refused = try backbeat(["render", path, "-o", directory.appendingPathComponent("out.wav").path])
        #expect(refused.status == 2)
        return refused.stderr.replacingOccurrences(of: "backbeat render: ", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aFileThatIsNotMIDIIsRefusedWithRendersMessage() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = try write(Array("hello, not a song".utf8), "bad.mid")
        let message = try renderMessage(bad)
        #expect(!message.isEmpty)
        let played = try backbeat(["play", "--headless", bad])
        #expect(played.status == 2)
        #expect(played.stderr == "backbeat play: \(message)\n", "\(played.stderr)")
        // A missing file: render's message too.
        let missing = directory.appendingPathComponent("missing.mid").path
        let gone = try backbeat(["play", "--headless", missing])
        #expect(gone.status == 2)
        #expect(gone.stderr == "backbeat play: \(try renderMessage(missing))\n", "\(gone.stderr)")
    }

    @Test func aQueueWithNothingPlayableSaysWhyForEachFileAndExits2() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try write(Array("one".utf8), "one.mid")
        let second = try write(Array("RIFF".utf8) + [16, 0, 0, 0] + Array("WAVEfmt ".utf8), "two.mid")
        let played = try backbeat(["play", "--headless", first, second])
        #expect(played.status == 2)
        let lines = played.stderr.split(separator: "\n").map(String.init)
        #expect(lines == ["backbeat play: \(try renderMessage(first)) (skipped)", "backbeat play: \(try renderMessage(second)) (skipped)"],
                "\(played.stderr)")
    }

    @Test func aFirstArgumentThatIsAMIDIFileMeansPlay() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // By its name, and by its first bytes (no .mid; a RIFF file may be an RMID song): both reach play,
        // which refuses these files that are no songs (before any engine starts).
        let named = try write(Array("hello".utf8), "song.MID")
        let headed = try write(Array("RIFF".utf8) + [16, 0, 0, 0] + Array("WAVEfmt ".utf8), "take")
        for path in [named, headed] {
            let direct = try backbeat(["play", "--headless", path])
            let dispatched = try backbeat([path, "--headless"])
            #expect(dispatched.status == 2)
            #expect(dispatched.stderr.hasPrefix("backbeat play: "), "\(dispatched.stderr)")
            #expect(dispatched.stderr == direct.stderr)
        }
        // Anything else still goes to `run`, the default: an unknown word is an unexpected argument there.
        let other = try backbeat(["notes.txt"])
        #expect(other.status != 0)
        #expect(other.stderr.contains("Unexpected argument 'notes.txt'"), "\(other.stderr)")
        // And subcommands keep their names.
        #expect(try backbeat(["render", "--help"]).stdout.contains("Render a Standard MIDI File"))
    }
}
