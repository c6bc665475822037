// Issue 37: the voice loops compiled for each kind of CPU play the same render, bit for bit, when the
// environment forces each path this CPU runs; a path it cannot run, or no path at all, is said once and the
// fastest plays.
import DSP
import Foundation
import MIDI
import Testing

@Suite(.needsBackbeatBinary)
final class VoiceLoopPathCommandTests {
    let folder: URL
    init() throws { folder = try makeTemporaryDirectory("backbeat-voice-loops") }
    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A chord of 24 notes held half a second over three channels, then released: groups of eight, kept ones.
    func chordFile() throws -> String {
        let path = folder.appendingPathComponent("chord.mid").path
        var events: [(Double, MIDIMessage)] = []
        for i in 0..<24 {
            events.append((0, MIDIMessage(ShortMessage(status: 0x90 | UInt8(i / 8), data1: UInt8(48 + i), data2: 100))!))
        }
        for i in 0..<24 {
            events.append((0.5, MIDIMessage(ShortMessage(status: 0x80 | UInt8(i / 8), data1: UInt8(48 + i), data2: 0))!))
        }
        try Data(StandardMIDIFile.format0(events)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The bytes of `file` rendered with `options` and BACKBEAT_VOICE_LOOPS set to `path`, and what it said.
    func render(_ file: String, _ options: [String], path: String) throws -> (wav: Data, stderr: String) {
        let out = folder.appendingPathComponent("out-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try backbeat(["render", file, "-o", out] + options, environment: ["BACKBEAT_VOICE_LOOPS": path])
        #expect(result.status == 0, "\(path) \(options): exit \(result.status): \(result.stderr)")
        return (try Data(contentsOf: URL(fileURLWithPath: out)), result.stderr)
    }

    /// Where two renders part: the first differing byte, and as the 32-bit float samples after the data chunk's
    /// header the first differing sample's frame and both values, and how many samples differ.
    func firstDifference(_ a: Data, _ b: Data) -> String {
        guard a.count == b.count else { return "\(a.count) bytes against \(b.count)" }
        guard let byte = a.indices.first(where: { a[$0] != b[$0] }) else { return "no difference" }
        let start = (a.range(of: Data("data".utf8))?.upperBound ?? 36) + 4
        let floats = { (d: Data) in Data(d[start...]).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }
        let x = floats(a), y = floats(b)
        let differing = zip(x, y).filter { $0 != $1 }.count
        guard let i = x.indices.first(where: { x[$0] != y[$0] }) else { return "byte \(byte) (header)" }
        return "byte \(byte); frame \(i / 2) channel \(i % 2): \(x[i]) against \(y[i]); \(differing) of \(x.count) samples differ"
    }

    @Test(.needs(file: "/usr/share/sounds/sf2/TimGM6mb.sf2", package: "timgm6mb-soundfont"))
    func everyPathTheCPURunsRendersTheSameBytes() throws {
        let file = try chordFile()
        let font = "/usr/share/sounds/sf2/TimGM6mb.sf2"
        for options in [["--patch", "1"], ["--soundfont", font], ["--soundfont", font, "--interpolation", "sinc"]] {
            let reference = try render(file, options, path: "portable")
            #expect(!reference.stderr.contains("warning"), "\(reference.stderr)")
            for path in VoiceLoopPath.supported where path != .portable {
                let forced = try render(file, options, path: path.rawValue)
                if forced.wav != reference.wav {
                    // Whether the path differs from itself too (a render that is not repeatable) or only from portable.
                    let again = try render(file, options, path: path.rawValue)
                    let repeatable = again.wav == forced.wav ? "the same again" : "differing again: \(firstDifference(again.wav, forced.wav))"
                    Issue.record("\(options) on \(path.name) differs from the portable render: \(firstDifference(forced.wav, reference.wav)); rendered again on \(path.name), \(repeatable)")
                }
                #expect(!forced.stderr.contains("warning"), "\(forced.stderr)")
            }
        }
    }

    /// Issue 40: `--interpolation sinc` changes a SoundFont render (and nothing of the built-in synth's);
    /// another name is refused with the names it takes.
    @Test(.needs(file: "/usr/share/sounds/sf2/TimGM6mb.sf2", package: "timgm6mb-soundfont"))
    func theInterpolationOptionChangesASoundFontRenderAndRefusesOtherNames() throws {
        let file = try chordFile(), font = "/usr/share/sounds/sf2/TimGM6mb.sf2"
        let cubic = try render(file, ["--soundfont", font], path: "portable")
        #expect(try render(file, ["--soundfont", font, "--interpolation", "cubic"], path: "portable").wav == cubic.wav)
        #expect(try render(file, ["--soundfont", font, "--interpolation", "sinc"], path: "portable").wav != cubic.wav)
        #expect(try render(file, ["--patch", "1", "--interpolation", "sinc"], path: "portable").wav
                == render(file, ["--patch", "1"], path: "portable").wav)
        let bad = try backbeat(["render", file, "-o", folder.appendingPathComponent("bad.wav").path, "--interpolation", "linear"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--interpolation is 'linear'; it takes one of cubic, sinc"), "\(bad.stderr)")
    }

    @Test func anUnknownOrUnrunnablePathIsSaidOnceAndTheFastestPlays() throws {
        let file = try chordFile()
        let fastest = try render(file, [], path: VoiceLoopPath.fastest.rawValue)
        let unknown = try render(file, [], path: "sse5")
        let warning = "backbeat: warning: BACKBEAT_VOICE_LOOPS=sse5 is not a voice loop path (portable, avx2 or avx512): playing \(VoiceLoopPath.fastest.rawValue)\n"
        #expect(unknown.stderr.hasPrefix(warning), "\(unknown.stderr)")
        #expect(unknown.stderr.components(separatedBy: "warning").count == 2, "said once: \(unknown.stderr)")
        #expect(unknown.wav == fastest.wav)
        for path in VoiceLoopPath.allCases where !VoiceLoopPath.supported.contains(path) {
            let refused = try render(file, [], path: path.rawValue)
            #expect(refused.stderr.contains("this CPU does not run \(path.name)"), "\(refused.stderr)")
        }
    }
}
