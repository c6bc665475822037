// `backbeat play` before any engine starts: a file that is not MIDI is refused with render's message, a queue
// with nothing playable exits 2, and a first argument that is a MIDI file chooses `play` (`backbeat song.mid`).
import Engine
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

    @Test func renderTakesPlaysSongOptions() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Four quarter notes at 120 BPM (96 ticks a quarter), one a bar: 8 s to its End-of-Track.
        var track: [UInt8] = [0x00, 0xC0, 0x00]
        for bar in 0..<4 { track += (bar == 0 ? [0x00] : [0x82, 0x20]) + [0x90, 60 + UInt8(bar), 100, 0x60, 0x80, 60 + UInt8(bar), 0] }
        track += [0x82, 0x20, 0xFF, 0x2F, 0x00]
        let length = [UInt8(track.count >> 24), UInt8(track.count >> 16 & 0xFF), UInt8(track.count >> 8 & 0xFF), UInt8(track.count & 0xFF)]
        let song = try write(Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + length + track, "four.mid")
        func render(_ options: [String]) throws -> Int {
            let out = directory.appendingPathComponent("out.wav").path
            let result = try backbeat(["render", song, "-o", out] + options)
            #expect(result.status == 0, "\(options): \(result.stderr)")
            return renderedFrames(out)
        }
        #expect(try render([]) == 8 * 48_000)
        #expect(try render(["--start", "3"]) == 4 * 48_000)
        #expect(try render(["--start", "0:06"]) == 2 * 48_000)
        #expect(try render(["--tempo", "200"]) == 4 * 48_000)
        #expect(try render(["--transpose", "-12", "--mute", "1", "--solo", "2,3"]) == 8 * 48_000)
        for bad in [["--start", "0"], ["--tempo", "500"], ["--transpose", "-25"], ["--mute", "17"], ["--solo", "1,x"]] {
            let refused = try backbeat(["render", song, "-o", directory.appendingPathComponent("bad.wav").path] + bad)
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
        }
        // A start past the song's end plays nothing: refused with its length, in render and in play.
        for (start, asked) in [("5", "bar 5"), ("0:08", "0:08"), ("9", "bar 9"), ("1:30.5", "1:30.5")] {
            let refused = try backbeat(["render", song, "-o", directory.appendingPathComponent("late.wav").path, "--start", start])
            #expect(refused.status == 2, "\(start): \(refused.stderr)")
            #expect(refused.stderr == "backbeat render: --start \(asked) is past the end of \(song), which is 4 bars, 0:08 long\n", "\(refused.stderr)")
            let played = try backbeat(["play", "--headless", song, "--start", start])
            #expect(played.status == 2, "\(start): \(played.stderr)")
            #expect(played.stderr == "backbeat play: --start \(asked) is past the end of four.mid, which is 4 bars, 0:08 long\n", "\(played.stderr)")
        }
        #expect(try render(["--start", "4"]) == 2 * 48_000)
    }
}
