// `--soundfont` as a user meets it: `render` through TimGM6mb, and broken fonts refused before anything starts;
// a SoundFont 3 render's counts of what did not fit in the sample cache, and its error for a damaged stream.
import Foundation
import Testing
@testable import DSP
import MIDI
import TestSupport

private func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let n = UInt32(body.count)
    return Array(type.utf8) + [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
}

/// Format 0 at 120 BPM, 480 ticks a quarter: A4 on program 0 for a second, then a bass drum (note 36) on
/// channel 10 for half a second.
private let generalMIDIFile: [UInt8] = {
    let track: [UInt8] = [0x00, 0xC0, 0, 0x00, 0x90, 69, 100, 0x87, 0x40, 0x80, 69, 0,
                          0x00, 0x99, 36, 110, 0x83, 0x60, 0x89, 36, 0, 0x00, 0xFF, 0x2F, 0x00]
    return chunk("MThd", [0, 0, 0, 1, 0x01, 0xE0]) + chunk("MTrk", track)
}()

private let timGM6mb = "/usr/share/sounds/sf2/TimGM6mb.sf2"

@Suite struct SoundFontRenderTests: FolderTest {
    let directory: URL

    init() throws { directory = try makeTemporaryDirectory("backbeat-soundfont") }

    @Test(.needs(file: timGM6mb, package: "timgm6mb-soundfont"))
    func renderPlaysAGeneralMIDIFileThroughTheFont() throws {
        let input = try write(generalMIDIFile, "gm.mid")
        let result = try backbeat(["render", "--soundfont", timGM6mb, input, "-o", path("out.wav")])
        #expect(result.status == 0, "\(result.stderr)")
        // The summary: "<out>: 2 notes, 1.5x s of stereo 32-bit float at 48000 Hz, peak -N dBFS (...)".
        #expect(result.stdout.contains("2 notes"), "\(result.stdout)")
        let peak = result.stdout.split(separator: "peak ").last.flatMap { Double($0.split(separator: " ")[0]) }
        #expect((peak ?? -200) > -30, "a piano and a drum are heard: \(result.stdout)")
        let size = (try? FileManager.default.attributesOfItem(atPath: path("out.wav"))[.size] as? Int) ?? 0
        #expect(size > 48_000 * 8, "at least a second of stereo float: \(size) bytes")
    }

    @Test func renderRefusesABrokenFontBeforeWritingAnything() throws {
        let input = try write(generalMIDIFile, "gm.mid")
        let font = try write(Array("RIFF\u{4}\0\0\0sfbk".utf8), "broken.sf2")
        let result = try backbeat(["render", "--soundfont", font, input, "-o", path("out.wav")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("broken.sf2"), "the message names the file: \(result.stderr)")
        #expect(contents == ["broken.sf2", "gm.mid"], "nothing written: \(contents)")
        let missing = try backbeat(["render", "--soundfont", path("none.sf2"), input, "-o", path("out.wav")])
        #expect(missing.status == 2 && missing.stderr.contains("none.sf2"), "\(missing.stderr)")
    }

    @Test func headlessRefusesABrokenFontBeforeTheEngineStarts() throws {
        let font = try write([0x52, 0x49, 0x46], "short.sf2")
        // A server name no JACK server has: had the engine started, it would have started a private one.
        let result = try backbeat(["--headless", "--soundfont", font, "--server", "backbeat-sf-never-\(getpid())"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("short.sf2"), "\(result.stderr)")
        #expect(!result.stdout.contains("voices"), "no status line: \(result.stdout)")
    }
}

@Suite(.needs(file: fluidR3Mono, package: "fluidr3mono-gm-soundfont"))
struct SoundFont3RenderTests: FolderTest {
    let directory: URL

    init() throws { directory = try makeTemporaryDirectory("backbeat-sf3-render") }

    /// The samples the General MIDI song needs, and which of them the library decodes within `limit` bytes.
    private func needed(limit: Int) throws -> (needed: [Int], fitting: Int) {
        let font = try SoundFont.load(path: fluidR3Mono)
        let store = try #require(font.sampleStore)
        let messages = try StandardMIDIFile(bytes: GeneralMIDITestFiles.song()).timedEvents().compactMap { timed in
            if case .message(let m) = timed.event, let short = m.shortMessage, short.isChannelMessage { return short }
            return nil
        }
        let needed = font.samplesNeeded(by: messages)
        store.setLimit(bytes: limit)
        #expect(store.decode(needed).isEmpty)
        return (needed, needed.count { store.isDecoded($0) })
    }

    /// With a 1 MiB cache the render says how many distinct samples of those the file needs did not fit (it
    /// asks for them twice: before the output is opened and when it renders), not how many times it was
    /// refused.
    @Test func renderCountsEachSampleThatDidNotFitOnce() throws {
        let input = try write(GeneralMIDITestFiles.song(), "song.mid")
        let result = try backbeat(["render", "--sample-cache", "1", "--soundfont", fluidR3Mono, input, "-o", path("out.wav")])
        #expect(result.status == 0, "\(result.stderr)")
        let (needed, fitting) = try needed(limit: 1 << 20)
        #expect(fitting > 0 && fitting < needed.count)
        #expect(result.stderr.contains("\(needed.count - fitting) of the \(needed.count) samples the file needs did not fit in the sample cache (--sample-cache 1 MiB)"),
                "\(needed.count - fitting) of \(needed.count) expected: \(result.stderr)")
    }

    /// A damaged stream among the samples the file needs still ends the render before anything is written
    /// (exit 2), naming the sample.
    @Test func renderRefusesADamagedStreamTheFileNeeds() throws {
        let original = try SoundFont.load(path: fluidR3Mono)
        let bad = try pianoSample(original, key: 69)
        let bytes = try fluidR3MonoDamaging(sample: bad, of: original)
        defer { try? FileManager.default.removeItem(at: directory) }  // the font's copy is 23 MB
        let font = try write(bytes, "damaged.sf3")
        let input = try write(generalMIDIFile, "gm.mid")  // A4 on the piano
        let result = try backbeat(["render", "--soundfont", font, input, "-o", path("out.wav")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("sample \(bad) '\(original.sampleNames[bad])'") && result.stderr.contains("does not decode"),
                "\(result.stderr)")
        #expect(contents == ["damaged.sf3", "gm.mid"], "nothing written: \(contents)")
    }
}
