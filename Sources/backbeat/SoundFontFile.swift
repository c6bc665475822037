import ArgumentParser
import DSP
import Engine
import Foundation

/// What the synth plays through, shared by the engine's options (workstation, `--headless`, `monitor`) and
/// `render`: the fonts, SF3's sample cache, the effects.
struct SoundArguments: ParsableArguments {
    @Option(name: .customLong("soundfont"), help: ArgumentHelp("Play through this SoundFont 2 file (.sf2, or SoundFont 3 .sf3) instead of the built-in patches: program changes and bank selects choose its presets, channel 10 its percussion bank. Given more than once, the fonts stack, the later on top, as FluidSynth stacks them: a preset is looked up from the top font down, and a bank no font has falls back as GS does (bank 0, or the standard drum kit) with a warning per channel. A broken font stops Backbeat before it plays (exit 2).", valueName: "path"), completion: .file(extensions: ["sf2", "sf3"]))
    var soundFont: [String] = []

    @Option(name: .customLong("instrument"), help: ArgumentHelp("Play this SFZ instrument (.sfz: regions over WAV, FLAC, Ogg or AIFF samples, read through libsndfile) on the sample voices. FILE plays every channel's notes whatever their program (as sfizz does; the instrument's lochan/hichan still select); CH=FILE (repeatable) plays it on MIDI channel CH (1-16) only, the other channels keeping the SoundFont or the built-in synth. What it cannot play exactly is said as warnings; a missing sample names the file and line that wants it and stops Backbeat before it plays (exit 2). Opcodes: docs/sfz.md. Config and presets: instruments.", valueName: "[CH=]file"), completion: .file(extensions: ["sfz"]))
    var instrument: [String] = []

    @Option(name: .customLong("sample-cache"), parsing: .unconditional, help: ArgumentHelp("MiB of decoded SoundFont 3 (.sf3) samples kept in memory (default 512). Playing live, the samples used longest ago are evicted beyond it; a render does not sound the samples its file needs beyond it. An SFZ instrument bigger than this is streamed from disk. Config: sample_cache.", valueName: "MiB"),
            transform: NumberArgument.whole(1...1_048_576))
    var sampleCache: Int?

    @Flag(name: .customLong("no-reverb"), help: "Turn the synth's reverb off (on by default; a SoundFont voice sends to it by its zone and CC91, a built-in patch by its own send and CC91).")
    var noReverb = false

    @Flag(name: .customLong("no-chorus"), help: "Turn the synth's chorus off (on by default; sends by zone or patch and CC93).")
    var noChorus = false

    @Option(name: .customLong("interpolation"), help: ArgumentHelp("How the sample voices (SoundFont, SFZ) read between their samples' frames: cubic (4-point, FluidSynth's default; the default) or sinc (a 32-point windowed sinc, band-limited when a sample is pitched up: cleaner, about 4 times the cubic's cost, less than FluidSynth's 4th order). Config and preset: interpolation. docs/soundfont.md.", valueName: "cubic|sinc"),
            transform: { name in
                guard let mode = SampleInterpolation(name: name) else {
                    throw ValidationError("--interpolation is '\(name)'; it takes one of \(SampleInterpolation.names)")
                }
                return mode
            })
    var interpolation: SampleInterpolation?

    func validate() throws {
        try SoundFontFile.validate(soundFont)
        try InstrumentFile.validate(instrument)
    }
}

/// Loading the font `--soundfont` or the config file names, before the engine or the renderer starts.
enum SoundFontFile {
    /// The font at `path` (a leading `~/` is the home directory), or Backbeat ends with the loader's message
    /// naming the file, the chunk and the offset (exit 2): the engine never starts with a broken font.
    /// `sampleCacheMiB` bounds a SoundFont 3 font's decoded samples (nil: the default).
    static func loadOrExit(_ path: String, command: String? = nil, sampleCacheMiB: Int? = nil) -> SoundFont {
        do {
            let font = try load(path)
            if let sampleCacheMiB { font.sampleStore?.setLimit(bytes: sampleCacheMiB << 20) }
            return font
        } catch {
            Console.message("\(error)", prefix: command.map { "backbeat \($0): " } ?? "backbeat: ")
            exit(2)
        }
    }

    /// The fonts at `paths` stacked, the later on top (`SoundFont.stacked`): one font for one path. The first
    /// that does not load ends Backbeat as `loadOrExit(_:)` does. `sampleCacheMiB` bounds each SoundFont 3
    /// font's own cache.
    static func loadOrExit(_ paths: [String], command: String? = nil, sampleCacheMiB: Int? = nil) -> SoundFont {
        // The command line is checked by `validate`; a config or preset file's list is checked here.
        if paths.count > SoundFont.maxLayers || paths.contains(where: \.isEmpty) {
            Console.message("a SoundFont stack holds 1...\(SoundFont.maxLayers) file names; got \(paths.count)\(paths.contains(where: \.isEmpty) ? ", one of them empty" : "")",
                            prefix: command.map { "backbeat \($0): " } ?? "backbeat: ")
            exit(2)
        }
        return SoundFont.stacked(paths.map { loadOrExit($0, command: command, sampleCacheMiB: sampleCacheMiB) })
    }

    /// `--soundfont` given once or more: each a file name, at most `SoundFont.maxLayers` of them.
    static func validate(_ paths: [String]) throws {
        if paths.contains(where: \.isEmpty) { throw ValidationError("--soundfont needs a file name") }
        if paths.count > SoundFont.maxLayers {
            throw ValidationError("--soundfont is given \(paths.count) times; a stack holds at most \(SoundFont.maxLayers) fonts")
        }
    }

    static func load(_ path: String) throws -> SoundFont {
        let expanded = path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst(1) : path
        let font = try SoundFont.load(path: expanded)
        OutputFile.protect(expanded)  // no render or recording may write over the font
        return font
    }
}
