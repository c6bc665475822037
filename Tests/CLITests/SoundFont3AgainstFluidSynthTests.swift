// A SoundFont 3 font (Debian's FluidR3Mono_GM.sf3: Ogg Vorbis samples, odd chunks without pad bytes) played
// by `backbeat render` against `fluidsynth -F` on the same General MIDI files, compared as the SoundFont 2
// tests do (SoundFontAgainstFluidSynthTests.swift): pitch (here within 5 cents of FluidSynth), drums as
// noise, the song's loudness envelope (r >= 0.9). Also `soundfont info` on it, with --for.
import Foundation
import Testing

enum SF3Comparison {
    static let font = "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3"

    static func render(_ name: String, _ midi: [UInt8]) throws -> (pair: RenderedPair, stderr: String) {
        try FluidSynthComparison.render("sf3-\(name)", midi, font: font)
    }

    static let melodic = Result { try render("melodic", GeneralMIDITestFiles.melodic()) }
    static let drums = Result { try render("drums", GeneralMIDITestFiles.drums()) }
    static let song = Result { try render("song", GeneralMIDITestFiles.song()) }
}

@Suite(.needsFluidSynth, .needs(file: SF3Comparison.font, package: "fluidr3mono-gm-soundfont"))
struct SoundFont3AgainstFluidSynthTests {
    /// Every melodic note within 5 cents of FluidSynth's pitch, with its fundamental there.
    @Test func melodicPitchWithin5CentsOfFluidSynth() throws {
        let (pair, stderr) = try SF3Comparison.melodic.get()
        #expect(!stderr.contains("did not sound"), "\(stderr)")
        var worst = 0.0
        for note in GeneralMIDITestFiles.melodicNotes {
            let (expected, ours, theirs) = pair.pitches(of: note)
            let cents = abs(1200 * log2(ours.frequency / theirs.frequency))
            print(String(format: "sf3 pitch %@: backbeat %.2f Hz (strength %.2f), fluidsynth %.2f Hz, apart %.2f cents",
                         note.name, ours.frequency, ours.strength, theirs.frequency, cents))
            worst = max(worst, cents)
            #expect(ours.strength > 0.03, "\(note.name): no component near \(expected) Hz (strength \(ours.strength))")
            #expect(cents < 5, "\(note.name): backbeat \(ours.frequency) Hz, fluidsynth \(theirs.frequency) Hz")
        }
        print(String(format: "sf3 pitch: worst %.2f cents from FluidSynth", worst))
    }

    /// Channel 10's hits are noise spread over many bands, shaped like FluidSynth's.
    @Test func drumsAreNoiseLikeFluidSynths() throws {
        let (pair, _) = try SF3Comparison.drums.get()
        for hit in GeneralMIDITestFiles.drumHits where !hit.name.contains("cut") {
            let ours = DrumSpectrum(pair.ours, hit: hit, rate: pair.rate)
            let theirs = DrumSpectrum(pair.theirs, hit: hit, rate: pair.rate)
            let r = AudioComparison.pearson(ours.bands, theirs.bands)
            print(String(format: "sf3 drum %@ (key %d): bands within 30 dB backbeat %d, fluidsynth %d; flatness %.4f, %.4f; r = %.3f",
                         hit.name, Int(hit.key), ours.spread, theirs.spread, ours.flatness, theirs.flatness, r))
            #expect(ours.spread >= DrumBounds.spread, "\(hit.name): energy in \(ours.spread) bands, a tone")
            if hit.key != 36 { #expect(ours.flatness > DrumBounds.flatness, "\(hit.name): flatness \(ours.flatness), a tone") }
            #expect(r > 0.8, "\(hit.name): band energies correlate \(r) with FluidSynth's")
        }
    }

    /// The song's loudness envelope follows FluidSynth's: r >= 0.9.
    @Test func songLoudnessEnvelopeFollowsFluidSynth() throws {
        let (pair, _) = try SF3Comparison.song.get()
        let length = Int((GeneralMIDITestFiles.songSeconds + 0.5) * Double(pair.rate))
        func envelope(_ samples: [Float]) -> [Double] { AudioComparison.loudnessEnvelope(Array(samples.prefix(length)), rate: pair.rate) }
        let r = AudioComparison.pearson(envelope(pair.ours), envelope(pair.theirs))
        print(String(format: "sf3 song loudness envelope: Pearson r = %.4f", r))
        #expect(r >= 0.9)
    }

    /// `soundfont info` shows the SF3 figures, and --for the samples a file needs (fewer than the font has).
    @Test func infoShowsCompressionAndWhatAFileNeeds() throws {
        let info = try backbeat(["soundfont", "info", SF3Comparison.font])
        #expect(info.status == 0, "\(info.stderr)")
        let compressed = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix("compressed samples: ") })
        #expect(compressed.contains("Ogg Vorbis"))
        #expect(info.stdout.contains("decoded size if all were decoded: "))

        let directory = try makeTemporaryDirectory("sf3-info")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("song.mid").path
        try Data(GeneralMIDITestFiles.song()).write(to: URL(fileURLWithPath: file))
        let needed = try backbeat(["soundfont", "info", SF3Comparison.font, "--for", file, "--json"])
        #expect(needed.status == 0, "\(needed.stderr)")
        let lines = needed.stdout.split(separator: "\n").map(String.init)
        let font = try #require(lines.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let count = try #require(font["neededSamples"] as? Int), total = try #require(font["compressedSamples"] as? Int)
        print("sf3 info --for the GM song: \(count) of \(total) samples, \(font["neededBytes"] ?? 0) bytes decoded")
        #expect(count > 0 && count < total / 5)
        #expect(lines.count == 1 + count)
        #expect(lines.dropFirst().allSatisfy { $0.contains("\"type\":\"sample\"") })
    }
}
