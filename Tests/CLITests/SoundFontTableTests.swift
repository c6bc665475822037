// The font table of README.md: each Debian SoundFont (alone, or FluidR3_GS stacked on FluidR3_GM) renders
// the General MIDI test files (TestSupport's GeneralMIDITestFiles) with `backbeat render` and with
// `fluidsynth -F` (reverb and chorus off in both), compared as SoundFontAgainstFluidSynthTests compares TimGM6mb:
// every melodic note's pitch within 5 cents of FluidSynth's, the drums as noise (spread spectrum, flat), the
// song's loudness envelope r >= 0.9; and each player's peak memory (the child's maximum resident set,
// /usr/bin/time's %M) and wall time for the song, printed as the table's row.
//
// The small fonts run always; the large ones (FluidR3_GM 141 MB, OPL-3_FM_128M 129 MB: a few seconds each,
// most of it FluidSynth reading the whole font) when BACKBEAT_FONT_TABLE=all. BACKBEAT_FONT_TABLE_BINARY names
// the backbeat binary to measure (README's table: the release build, .build/release/backbeat).
import Foundation
import Testing
import TestSupport

enum FontTable {
    struct Row: Sendable, CustomStringConvertible {
        var label: String
        /// Bottom first, as --soundfont and fluidsynth take them.
        var fonts: [String]
        var large: Bool
        var description: String { label }
    }

    static let directory = "/usr/share/sounds/sf2/"
    static let rows: [Row] = [
        Row(label: "TimGM6mb", fonts: ["TimGM6mb.sf2"], large: false),
        Row(label: "FluidR3_GS on TimGM6mb", fonts: ["TimGM6mb.sf2", "FluidR3_GS.sf2"], large: false),
        Row(label: "FluidR3_GM", fonts: ["FluidR3_GM.sf2"], large: true),
        Row(label: "FluidR3_GS on FluidR3_GM", fonts: ["FluidR3_GM.sf2", "FluidR3_GS.sf2"], large: true),
        Row(label: "OPL-3_FM_128M", fonts: ["OPL-3_FM_128M.sf2"], large: true),
        // SoundFont 3 (Ogg Vorbis samples, decoded as the file needs them).
        Row(label: "FluidR3Mono_GM.sf3", fonts: ["/usr/share/sounds/sf3/FluidR3Mono_GM.sf3"], large: false),
        Row(label: "MuseScore_General_Lite.sf3", fonts: ["/usr/share/sounds/sf3/MuseScore_General_Lite.sf3"], large: true),
        Row(label: "MuseScore_General_Full.sf2", fonts: ["/usr/share/sounds/sf2/MuseScore_General_Full.sf2"], large: true),
    ]
    /// A row's font: a name in `directory`, or an absolute path.
    static func path(_ font: String) -> String { font.hasPrefix("/") ? font : directory + font }
    static var all: Bool { ProcessInfo.processInfo.environment["BACKBEAT_FONT_TABLE"] == "all" }
    /// The small rows always (their fonts come with scripts/setup test: the suite needs them); a large one
    /// with BACKBEAT_FONT_TABLE=all when its fonts are installed (their packages are not in the test profile).
    static func available(_ row: Row) -> Bool {
        !row.large || (all && row.fonts.allSatisfy { FileManager.default.fileExists(atPath: path($0)) })
    }

    /// One player's rendering: the mono mix, the child's peak resident memory (KiB) and wall time (s).
    struct Run {
        var samples: [Float]
        var maxRSSKiB: Int
        var seconds: Double
    }

    /// Renders `midi` with `fonts` by Backbeat (`fluidsynth` false) or FluidSynth, under /usr/bin/time.
    static func render(_ midi: [UInt8], fonts: [String], fluidsynth: Bool, name: String) throws -> Run {
        let directory = try makeTemporaryDirectory("font-table-\(name)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("in.mid").path, out = directory.appendingPathComponent("out.wav").path
        let timing = directory.appendingPathComponent("time.txt").path
        try Data(midi).write(to: URL(fileURLWithPath: file))
        let paths = fonts.map(Self.path)
        let command = fluidsynth
            ? [FluidSynthComparison.fluidsynth!, "-ni", "-R", "0", "-C", "0", "-r", "48000", "-F", out] + paths + [file]
            : [ProcessInfo.processInfo.environment["BACKBEAT_FONT_TABLE_BINARY"] ?? backbeatExecutable(), "render", file, "-o", out, "--voices", "256", "--no-reverb", "--no-chorus"] + paths.flatMap { ["--soundfont", $0] }
        let result = try run("/usr/bin/time", ["-f", "%M %e", "-o", timing] + command)
        guard result.status == 0 else { throw HarnessError("\(command.joined(separator: " ")) exited \(result.status): \(result.output)") }
        let figures = try String(contentsOfFile: timing, encoding: .utf8).split(whereSeparator: \.isWhitespace)
        guard figures.count >= 2, let kib = Int(figures[figures.count - 2]), let seconds = Double(figures[figures.count - 1]) else {
            throw HarnessError("/usr/bin/time wrote \(figures)")
        }
        return Run(samples: AudioComparison.mono(try WAVRecording(path: out)), maxRSSKiB: kib, seconds: seconds)
    }
}

@Suite(.needsFluidSynth, .needs(executable: "/usr/bin/time", package: "time"),
       .needs(file: FontTable.path("TimGM6mb.sf2"), package: "timgm6mb-soundfont"),
       .needs(file: FontTable.path("FluidR3_GS.sf2"), package: "fluid-soundfont-gs"),
       .needs(file: "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3", package: "fluidr3mono-gm-soundfont"), .serialized)
struct SoundFontTableTests {
    @Test(arguments: FontTable.rows.filter(FontTable.available))
    func rendersLikeFluidSynth(_ row: FontTable.Row) throws {
        let name = row.label.replacingOccurrences(of: " ", with: "-")
        // Pitch: every melodic note within 5 cents of FluidSynth's.
        let melodic = GeneralMIDITestFiles.melodic()
        let ours = try FontTable.render(melodic, fonts: row.fonts, fluidsynth: false, name: name)
        let theirs = try FontTable.render(melodic, fonts: row.fonts, fluidsynth: true, name: name)
        var worstCents = 0.0
        for note in GeneralMIDITestFiles.melodicNotes {
            let expected = 440 * pow(2, (Double(note.key) - 69) / 12)
            func pitch(_ samples: [Float]) -> (frequency: Double, strength: Double) {
                AudioComparison.strongestFrequency(AudioComparison.slice(samples, from: note.start + 0.3, to: note.end - 0.1, rate: 48_000),
                                                   rate: 48_000, low: expected * 0.97, high: expected * 1.03)
            }
            let a = pitch(ours.samples), b = pitch(theirs.samples)
            let cents = 1200 * log2(a.frequency / b.frequency)
            worstCents = max(worstCents, abs(cents))
            #expect(a.strength > 0.03 || b.strength <= 0.03, "\(row.label), \(note.name): no fundamental near \(expected) Hz (strength \(a.strength), fluidsynth \(b.strength))")
            #expect(abs(cents) < 5, "\(row.label), \(note.name): backbeat \(a.frequency) Hz, fluidsynth \(b.frequency) Hz")
        }
        // Drums: the noisy hits spread and flat, as SoundFontAgainstFluidSynthTests checks them.
        let drums = try FontTable.render(GeneralMIDITestFiles.drums(), fonts: row.fonts, fluidsynth: false, name: name)
        var flattest = 1.0
        for hit in GeneralMIDITestFiles.drumHits where !hit.name.contains("cut") && hit.key != 36 {
            let spectrum = DrumSpectrum(drums.samples, hit: hit, rate: 48_000)
            flattest = min(flattest, spectrum.flatness)
            #expect(spectrum.spread >= DrumBounds.spread && spectrum.flatness > DrumBounds.flatness,
                    "\(row.label), \(hit.name): spread \(spectrum.spread), flatness \(spectrum.flatness): a tone")
        }
        // The song: loudness envelope, memory and time.
        let song = GeneralMIDITestFiles.song()
        let ourSong = try FontTable.render(song, fonts: row.fonts, fluidsynth: false, name: name)
        let theirSong = try FontTable.render(song, fonts: row.fonts, fluidsynth: true, name: name)
        let length = Int((GeneralMIDITestFiles.songSeconds + 0.5) * 48_000)
        let r = AudioComparison.pearson(AudioComparison.loudnessEnvelope(Array(ourSong.samples.prefix(length)), rate: 48_000),
                                        AudioComparison.loudnessEnvelope(Array(theirSong.samples.prefix(length)), rate: 48_000))
        #expect(r >= 0.9, "\(row.label): loudness envelope r = \(r)")
        print(String(format: "font table | %@ | %.2f | %.3f | %.3f | %.1f MiB, %.2f s | %.1f MiB, %.2f s |",
                     row.label, worstCents, flattest, r, Double(ourSong.maxRSSKiB) / 1024, ourSong.seconds,
                     Double(theirSong.maxRSSKiB) / 1024, theirSong.seconds))
    }
}
