import ArgumentParser
import DSP
import Foundation
import MIDI

/// `backbeat soundfont`: commands about SoundFont 2 files.
struct SoundFontCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soundfont",
        abstract: "Inspect SoundFont 2 (.sf2) files.",
        subcommands: [Info.self]
    )

    /// `backbeat soundfont info PATH`: loads the font as the synth would and lists its presets.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load a SoundFont and list its presets.",
            discussion: """
                Loads FILE as Backbeat plays it (every structural check of the loader) and prints the font's \
                name, its preset count and one line per preset, 'bank:program name', sorted by bank and program. \
                With --json, JSON lines: {"type":"font",...} then one {"type":"preset",...} per preset. A font \
                that does not load prints the error (file, chunk, byte offset, reason) and exits with status 2.
                """
        )

        @Argument(help: "The .sf2 file.", completion: .file(extensions: ["sf2", "sf3"]))
        var file: String

        @Flag(help: "JSON lines: the font, then one object per preset.")
        var json = false

        func run() throws {
            let font: SoundFont
            do {
                font = try SoundFont.load(path: file)
            } catch {
                Console.message(error.description, prefix: "backbeat soundfont: ")
                throw ExitCode(2)
            }
            if json {
                Console.out(MIDIJSON.object([
                    ("type", .string("font")), ("path", .string(file)), ("name", .string(font.name)),
                    ("presets", .int(font.presetCount)), ("zones", .int(font.zones.count)),
                    ("samples", .int(font.samples.count)), ("sampleFrames", .int(font.sampleData.count)),
                    ("24bit", .bool(font.sampleLowBytes != nil)),
                ]))
                for p in font.presets {
                    Console.out(MIDIJSON.object([
                        ("type", .string("preset")), ("bank", .int(Int(p.bank))), ("program", .int(Int(p.program))),
                        ("name", .string(p.name)), ("zones", .int(Int(p.zoneCount))),
                    ]))
                }
                return
            }
            Console.out("name: \(TerminalText.sanitized(font.name))")
            Console.out("presets: \(font.presetCount)")
            for p in font.presets {
                Console.out("\(p.bank):\(p.program) \(TerminalText.sanitized(p.name))")
            }
        }
    }
}
