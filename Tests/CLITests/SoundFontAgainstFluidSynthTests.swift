// Backbeat's SoundFont player against FluidSynth on the same font (TimGM6mb): General MIDI files made by
// TestSupport's GeneralMIDITestFiles, rendered by `backbeat render --soundfont` and by `fluidsynth -F` (reverb and
// chorus off), compared by pitch, spectrum and loudness envelope. Levels differ (FluidSynth's gain is 0.2),
// so only shapes are compared. The figures each test measures are printed, for docs/soundfont.md.
import Foundation
import Testing

/// The two renderings of one file.
struct RenderedPair {
    var ours: [Float]
    var theirs: [Float]
    var rate: Int
}

extension RenderedPair {
    /// `note`'s equal-tempered frequency and each player's strongest component within 3 % of it, over the
    /// note's steady part (0.3 s after its start to 0.1 s before its end).
    func pitches(of note: GeneralMIDITestFiles.Note)
        -> (expected: Double, ours: (frequency: Double, strength: Double), theirs: (frequency: Double, strength: Double)) {
        let expected = 440 * pow(2, (Double(note.key) - 69) / 12)
        func strongest(_ samples: [Float]) -> (frequency: Double, strength: Double) {
            AudioComparison.strongestFrequency(AudioComparison.slice(samples, from: note.start + 0.3, to: note.end - 0.1, rate: rate),
                                               rate: rate, low: expected * 0.97, high: expected * 1.03)
        }
        return (expected, strongest(ours), strongest(theirs))
    }
}

enum FluidSynthComparison {
    static let font = "/usr/share/sounds/sf2/TimGM6mb.sf2"
    static let fluidsynth = ["/usr/bin/fluidsynth", "/usr/local/bin/fluidsynth"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Renders `midi` with FluidSynth (`fluidsynth -F`, 48 kHz, reverb and chorus off) and with Backbeat
    /// (`backbeat render`, with `--soundfont` unless `soundFont` is false: then the built-in patches, which
    /// is what a General MIDI file got before Backbeat played fonts, the negative control).
    static func render(_ name: String, _ midi: [UInt8], soundFont: Bool = true) throws -> RenderedPair {
        try render(name, midi, font: font, backbeatPlaysFont: soundFont).pair
    }

    /// `render` with any font (`font` for both players; Backbeat's `--soundfont` only when `backbeatPlaysFont`),
    /// also returning what Backbeat wrote to stderr.
    static func render(_ name: String, _ midi: [UInt8], font: String, backbeatPlaysFont: Bool = true)
        throws -> (pair: RenderedPair, stderr: String) {
        let directory = try makeTemporaryDirectory("vs-fluid-\(name)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("\(name).mid").path
        try Data(midi).write(to: URL(fileURLWithPath: file))
        let ours = directory.appendingPathComponent("backbeat.wav").path
        let theirs = directory.appendingPathComponent("fluidsynth.wav").path
        // Dry in both: FluidSynth renders with -R 0 -C 0 below.
        let arguments = ["render", file, "-o", ours, "--voices", "256", "--no-reverb", "--no-chorus"]
            + (backbeatPlaysFont ? ["--soundfont", font] : [])
        let result = try backbeat(arguments)
        guard result.status == 0 else {
            throw HarnessError("backbeat \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        let reference = try run(fluidsynth!, ["-ni", "-R", "0", "-C", "0", "-r", "48000", "-F", theirs, font, file])
        guard reference.status == 0 else { throw HarnessError("fluidsynth exited \(reference.status): \(reference.output)") }
        let a = try WAVRecording(path: ours), b = try WAVRecording(path: theirs)
        guard a.sampleRate == 48_000, b.sampleRate == 48_000 else {
            throw HarnessError("sample rates \(a.sampleRate) (backbeat) and \(b.sampleRate) (fluidsynth), expected 48000")
        }
        return (RenderedPair(ours: AudioComparison.mono(a), theirs: AudioComparison.mono(b), rate: 48_000), result.stderr)
    }

    /// Each file rendered once for all the tests that look at it.
    static let melodic = Result { try render("melodic", GeneralMIDITestFiles.melodic()) }
    static let drums = Result { try render("drums", GeneralMIDITestFiles.drums()) }
    static let song = Result { try render("song", GeneralMIDITestFiles.song()) }
    static let drumsBuiltIn = Result { try render("drums-builtin", GeneralMIDITestFiles.drums(), soundFont: false) }
    static let songBuiltIn = Result { try render("song-builtin", GeneralMIDITestFiles.song(), soundFont: false) }
}

/// The percussion figures of one hit, in its first 200 ms: how spread its spectrum is, how noisy, and its shape.
struct DrumSpectrum {
    /// Quarter-octave-ish bands (24 from 40 Hz to 16 kHz) within 30 dB of the strongest: 1 or 2 for a tone.
    var spread: Int
    /// Spectral flatness from 40 Hz to 4 kHz: near 0 for a tone (harmonics or not), tenths for noise.
    var flatness: Double
    var bands: [Double]

    init(_ samples: [Float], hit: GeneralMIDITestFiles.Note, rate: Int) {
        let segment = AudioComparison.slice(samples, from: hit.start, to: hit.start + 0.2, rate: rate)
        flatness = AudioComparison.spectralFlatness(segment, rate: rate, high: 4_000)
        bands = AudioComparison.bandEnergies(segment, rate: rate)
        spread = bands.count { $0 > -30 }
    }
}

@Suite(.needsFluidSynth, .needs(file: FluidSynthComparison.font, package: "timgm6mb-soundfont"))
struct SoundFontAgainstFluidSynthTests {
    /// Every melodic note within 0.5 % of FluidSynth's pitch and of the equal-tempered frequency. The
    /// strongest component is sought within a quarter tone either side of the expected fundamental, over the
    /// note's steady part; a player that ignored the sample's root key, its pitch correction or the zone's
    /// tuning would be off by semitones or tens of cents (1 cent = 0.058 %) and land at the search's edge.
    @Test func melodicPitchMatchesFluidSynthAndEqualTemperament() throws {
        let pair = try FluidSynthComparison.melodic.get()
        var worst = (ours: 0.0, theirs: 0.0, between: 0.0)
        for note in GeneralMIDITestFiles.melodicNotes {
            let (expected, ours, theirs) = pair.pitches(of: note)
            let errorOurs = abs(ours.frequency / expected - 1), errorTheirs = abs(theirs.frequency / expected - 1)
            let between = abs(ours.frequency / theirs.frequency - 1)
            print(String(format: "pitch %@: expected %.2f Hz, backbeat %.2f Hz (%.3f %%, strength %.2f), fluidsynth %.2f Hz (%.3f %%, strength %.2f), apart %.3f %%",
                         note.name, expected, ours.frequency, errorOurs * 100, ours.strength, theirs.frequency, errorTheirs * 100, theirs.strength, between * 100))
            worst = (max(worst.ours, errorOurs), max(worst.theirs, errorTheirs), max(worst.between, between))
            // A fundamental actually there: silence or a wrong octave leaves only leakage (strength below 0.02; a trumpet's weak fundamental is 0.07).
            #expect(ours.strength > 0.03, "\(note.name): no component near \(expected) Hz (strength \(ours.strength))")
            // Equal temperament within 0.5 %, unless the font itself is further off (TimGM6mb's flute at A4:
            // FluidSynth plays it 0.7 % sharp once its vibrato starts): then no further than FluidSynth + 0.2 %.
            #expect(errorOurs < max(0.005, errorTheirs + 0.002), "\(note.name): \(ours.frequency) Hz, \(errorOurs * 100) % from \(expected) Hz")
            #expect(between < 0.005, "\(note.name): backbeat \(ours.frequency) Hz, fluidsynth \(theirs.frequency) Hz")
        }
        print(String(format: "pitch: worst error backbeat %.3f %%, fluidsynth %.3f %%, between them %.3f %%",
                     worst.ours * 100, worst.theirs * 100, worst.between * 100))
    }

    /// Channel 10 plays drums: each hit's spectrum is spread over many bands (a tone fills one or two), the
    /// noisy ones (all but the kick, whose thump is nearly a low tone) are flat rather than harmonic, and
    /// the spectrum's shape (24 band energies in dB) correlates with FluidSynth's (r > 0.8). Without a font,
    /// the built-in drum kit (docs/builtin-programs.md) passes the same spread and flatness bounds (before it,
    /// the built-in patches played the drum keys as tones: spread 1-2 bands, flatness about 0.0000).
    @Test func percussionOnChannel10SoundsLikeFluidSynthsDrums() throws {
        let pair = try FluidSynthComparison.drums.get()
        let builtIn = try FluidSynthComparison.drumsBuiltIn.get()
        for hit in GeneralMIDITestFiles.drumHits where !hit.name.contains("cut") {
            let ours = DrumSpectrum(pair.ours, hit: hit, rate: pair.rate)
            let theirs = DrumSpectrum(pair.theirs, hit: hit, rate: pair.rate)
            let kit = DrumSpectrum(builtIn.ours, hit: hit, rate: builtIn.rate)
            let r = AudioComparison.pearson(ours.bands, theirs.bands)
            print(String(format: "drum %@ (key %d): bands within 30 dB backbeat %d, fluidsynth %d, built-in kit %d; flatness to 4 kHz %.4f, %.4f, %.4f; band energies r = %.3f",
                         hit.name, Int(hit.key), ours.spread, theirs.spread, kit.spread, ours.flatness, theirs.flatness, kit.flatness, r))
            let noisy = hit.key != 36
            #expect(ours.spread >= DrumBounds.spread, "\(hit.name): energy in \(ours.spread) bands, a tone")
            if noisy { #expect(ours.flatness > DrumBounds.flatness, "\(hit.name): flatness \(ours.flatness), a tone") }
            #expect(r > 0.8, "\(hit.name): band energies correlate \(r) with FluidSynth's")
            if noisy { // the built-in kit's noisy hits (its kick is a swept sine: a tone by these measures)
                #expect(kit.spread >= DrumBounds.spread && kit.flatness > DrumBounds.flatness,
                        "the built-in kit's \(hit.name): spread \(kit.spread), flatness \(kit.flatness)")
            }
        }
    }

    /// The whole song's loudness envelope (RMS per 10 ms in dB relative to its loudest, floored at -60 dB)
    /// correlates with FluidSynth's: r > 0.9. Notes that did not start, ended early, rang on or had their
    /// level ignored (CC7, CC11, velocity) pull r down.
    @Test func songLoudnessEnvelopeFollowsFluidSynth() throws {
        let pair = try FluidSynthComparison.song.get()
        let builtIn = try FluidSynthComparison.songBuiltIn.get()
        let length = Int((GeneralMIDITestFiles.songSeconds + 0.5) * Double(pair.rate))
        func envelope(_ samples: [Float]) -> [Double] { AudioComparison.loudnessEnvelope(Array(samples.prefix(length)), rate: pair.rate) }
        let ours = envelope(pair.ours), theirs = envelope(pair.theirs)
        let r = AudioComparison.pearson(ours, theirs)
        let rBuiltIn = AudioComparison.pearson(envelope(builtIn.ours), theirs)
        print(String(format: "song loudness envelope (RMS per 10 ms, dB): Pearson r = %.4f over %d windows (built-in patches: %.4f)",
                     r, min(ours.count, theirs.count), rBuiltIn))
        // The negative control: the same notes on the built-in patches (other envelopes, its own drums) stay far below.
        #expect(rBuiltIn < 0.9)
        #expect(min(ours.count, theirs.count) > Int(GeneralMIDITestFiles.songSeconds * 90))
        #expect(r > 0.9)
    }

    /// The open hi-hat is cut by the closed one (both exclusive class 1 in General MIDI kits): 200-500 ms
    /// after the closed hit, the cut hat is far quieter than an open hat left ringing is at the same time
    /// (FluidSynth: about 20 dB). A player without exclusive classes leaves the open hat ringing under the
    /// closed one: no drop, or a rise (Backbeat's built-in patches: -3 dB). Backbeat's cut voice fades out
    /// over 3 ms to digital silence; FluidSynth's falls about 20 dB in the window.
    @Test func openHiHatIsCutByTheClosedOne() throws {
        let pair = try FluidSynthComparison.drums.get()
        let hits = GeneralMIDITestFiles.drumHits
        let alone = hits.first { $0.name == "open hat" }!, cut = hits.first { $0.name == "open hat, then cut" }!
        let after = GeneralMIDITestFiles.hatCut
        /// dB from the ringing open hat down to the cut one (digital silence counts as -240 dBFS), and the two levels.
        func drop(_ samples: [Float]) -> (dB: Double, ringing: Double, stopped: Double) {
            let ringing = AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(samples, from: alone.start + after + 0.2, to: alone.start + after + 0.5, rate: pair.rate)))
            let stopped = AudioComparison.decibels(AudioComparison.rms(AudioComparison.slice(samples, from: cut.start + after + 0.2, to: cut.start + after + 0.5, rate: pair.rate)))
            return (ringing - stopped, ringing, stopped)
        }
        let (ours, theirs) = (drop(pair.ours), drop(pair.theirs))
        print(String(format: "open hat cut by the closed one, 200-500 ms after the closed hit: backbeat %.1f dBFS against %.1f ringing (drop %.1f dB), fluidsynth %.1f against %.1f (drop %.1f dB)",
                     ours.stopped, ours.ringing, ours.dB, theirs.stopped, theirs.ringing, theirs.dB))
        #expect(ours.dB > DrumBounds.hatCutDrop)
        #expect(theirs.dB > DrumBounds.hatCutDrop, "the reference itself cuts the hat")
    }
}

/// Bounds from the figures measured with TimGM6mb (docs/soundfont.md has them).
enum DrumBounds {
    /// Bands within 30 dB of the strongest: FluidSynth's kick 6, the others 14 to 20; a tone 1 or 2.
    static let spread = 5
    /// Spectral flatness (40 Hz to 4 kHz) of the noisy hits: FluidSynth's 0.045 (snare) to 0.31 (closed hat);
    /// a tone 0.0000.
    static let flatness = 0.01
    /// dB the cut open hat must be below the ringing one: FluidSynth's drop is about 20 dB.
    static let hatCutDrop = 12.0
}
