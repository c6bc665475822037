import ArgumentParser
import DSP
import Engine
import MIDI
import Reports

/// `backbeat soundfont`: commands about SoundFont 2 and 3 files.
struct SoundFontCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soundfont",
        abstract: "Inspect SoundFont 2 and 3 (.sf2, .sf3) files and stacks of them.",
        subcommands: [Info.self]
    )

    /// `backbeat soundfont info PATH`: loads the font as the synth would and lists its presets.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load a SoundFont and list its presets.",
            discussion: """
                Loads FILE as Backbeat plays it (every structural check of the loader) and prints the font's \
                name, its preset count and one line per preset, 'bank:program name', sorted by bank and program. \
                A SoundFont 3 font (.sf3, Ogg Vorbis samples) also shows its compressed samples, their bytes and \
                the memory all of them would take decoded. With --for FILE.mid, the samples that MIDI file's \
                notes reach instead of the presets (what a render decodes of an SF3 font), one line each: \
                'index name bytes' (decoded bytes; compressed bytes too for SF3), then the totals. \
                With --json, JSON lines: {"type":"font",...} then one {"type":"preset",...} per preset (or one \
                {"type":"sample",...} per sample with --for). A font that does not load prints the error (file, \
                chunk, byte offset, reason) and exits with status 2. \
                With several files, the stack they make (the later on top, as --soundfont given more than once \
                stacks them): each font from the top down, its presets, those a higher font shadows marked \
                '(shadowed by FILE)', then the stack's preset count; with --json each font's and preset's object \
                gets its layer (0 at the bottom), a shadowed preset 'shadowedBy' (the file), then one {"type":"stack",...}. \
                With --for, a stack's samples are numbered through the stack, bottom font first.
                """
        )

        @Argument(help: ArgumentHelp("The .sf2 or .sf3 file; several stack, the later on top (as with --soundfont given more than once).", valueName: "file"),
                  completion: .file(extensions: ["sf2", "sf3"]))
        var files: [String]

        @Flag(help: "JSON lines: the font, then one object per preset.")
        var json = false

        @Option(name: .customLong("for"), help: ArgumentHelp("List the samples this Standard MIDI File's notes reach (what a render decodes of an SF3 font).", valueName: "file.mid"),
                completion: .file(extensions: ["mid", "midi", "smf"]))
        var midiFile: String?

        func validate() throws {
            try SoundFontFile.validate(files)
            if files.isEmpty { throw ValidationError("name a .sf2 or .sf3 file") }
        }

        func run() throws {
            var fonts: [SoundFont] = []
            for file in files {
                do {
                    fonts.append(try SoundFont.load(path: file))
                } catch {
                    Console.message(error.description, prefix: "backbeat soundfont: ")
                    throw ExitCode(2)
                }
            }
            let report = SoundFontReport(files: files, json: json)
            if fonts.count > 1 && midiFile == nil {
                for line in report.stackLines(fonts) { Console.out(line) }
                return
            }
            let font = fonts.count > 1 ? SoundFont.stacked(fonts) : fonts[0]
            var needed: [Int]?
            if let midiFile {
                do {
                    let file = try StandardMIDIFile(bytes: SystemCall.readFile(midiFile, limit: ReadLimit.midiFile, what: "a MIDI file"))
                    let messages = OfflineRenderer.messages(of: file)
                        .enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }
                    needed = font.samplesNeeded(by: messages.map { $0.element.message })
                } catch {
                    Console.message("'\(midiFile)': \(error)", prefix: "backbeat soundfont: ")
                    throw ExitCode(2)
                }
            }
            for line in report.lines(font, needed: needed, midiFile: midiFile) { Console.out(line) }
        }
    }
}
