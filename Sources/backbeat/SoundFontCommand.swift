import ArgumentParser
import DSP
import Foundation
import MIDI

/// `backbeat soundfont`: commands about SoundFont 2 files.
struct SoundFontCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soundfont",
        abstract: "Inspect SoundFont 2 (.sf2) files and stacks of them.",
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
                that does not load prints the error (file, chunk, byte offset, reason) and exits with status 2. \
                With several files, the stack they make (the later on top, as --soundfont given more than once \
                stacks them): each font from the top down, its presets, those a higher font shadows marked \
                '(shadowed by FILE)', then the stack's preset count; with --json each font's and preset's object \
                gets its layer (0 at the bottom), a shadowed preset 'shadowedBy' (the file), then one {"type":"stack",...}.
                """
        )

        @Argument(help: ArgumentHelp("The .sf2 file; several stack, the later on top (as with --soundfont given more than once).", valueName: "file"),
                  completion: .file(extensions: ["sf2", "sf3"]))
        var files: [String]

        @Flag(help: "JSON lines: the font, then one object per preset.")
        var json = false

        func validate() throws {
            try SoundFontFile.validate(files)
            if files.isEmpty { throw ValidationError("name a .sf2 file") }
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
            if fonts.count > 1 { return stack(fonts) }
            let font = fonts[0], file = files[0]
            if json {
                Console.out(MIDIJSON.object(fontFields(font, path: file)))
                for p in font.presets {
                    Console.out(MIDIJSON.object(presetFields(p)))
                }
                return
            }
            Console.out("name: \(TerminalText.sanitized(font.name))")
            Console.out("presets: \(font.presetCount)")
            for p in font.presets {
                Console.out("\(p.bank):\(p.program) \(TerminalText.sanitized(p.name))")
            }
        }

        func fontFields(_ font: SoundFont, path: String) -> [(key: String, value: JSONValue)] {
            [
                ("type", .string("font")), ("path", .string(path)), ("name", .string(font.name)),
                ("presets", .int(font.presetCount)), ("zones", .int(font.zones.count)),
                ("samples", .int(font.samples.count)), ("sampleFrames", .int(font.sampleData.count)),
                ("24bit", .bool(font.sampleLowBytes != nil)),
            ]
        }

        func presetFields(_ p: SoundFontPreset) -> [(key: String, value: JSONValue)] {
            [
                ("type", .string("preset")), ("bank", .int(Int(p.bank))), ("program", .int(Int(p.program))),
                ("name", .string(p.name)), ("zones", .int(Int(p.zoneCount))),
            ]
        }

        /// A stack, top font first: each font's presets, those a higher font shadows marked (the stack plays
        /// the higher one), then what the stack plays in all.
        func stack(_ fonts: [SoundFont]) {
            let stacked = SoundFont.stacked(fonts)
            let listing = stacked.stackListing()
            if json {
                for (layer, entry) in listing.enumerated().reversed() {
                    Console.out(MIDIJSON.object(fontFields(entry.font, path: files[layer])
                        + [("layer", .int(layer)), ("top", .bool(layer == fonts.count - 1))]))
                    for (preset, shadowedBy) in entry.presets {
                        Console.out(MIDIJSON.object(presetFields(preset) + [("layer", .int(layer))]
                            + (shadowedBy.map { [("shadowedBy", .string(files[$0]))] } ?? [])))
                    }
                }
                Console.out(MIDIJSON.object([("type", .string("stack")), ("fonts", .int(fonts.count)),
                                             ("presets", .int(stacked.presetCount))]))
                return
            }
            Console.out("stack: \(fonts.count) fonts, the last named on top; a preset is looked up from the top down")
            for (layer, entry) in listing.enumerated().reversed() {
                let shadowed = entry.presets.count { $0.shadowedBy != nil }
                let position = layer == fonts.count - 1 ? "top" : layer == 0 ? "bottom" : "layer \(layer + 1)"
                Console.out("")
                Console.out("font \(layer + 1) (\(position)): \(TerminalText.sanitized(files[layer]))")
                Console.out("name: \(TerminalText.sanitized(entry.font.name))")
                Console.out("presets: \(entry.presets.count), \(entry.presets.count - shadowed) played, \(shadowed) shadowed")
                for (preset, shadowedBy) in entry.presets {
                    let note = shadowedBy.map { " (shadowed by \(TerminalText.sanitized(fonts[$0].fileName)))" } ?? ""
                    Console.out("\(preset.bank):\(preset.program) \(TerminalText.sanitized(preset.name))\(note)")
                }
            }
            Console.out("")
            Console.out("stack presets: \(stacked.presetCount)")
        }
    }
}
