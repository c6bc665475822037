import ArgumentParser
import DSP
import Foundation
import Engine
import MIDI
import TextOutput

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
            if fonts.count > 1 && midiFile == nil { return stack(fonts) }
            let font = fonts.count > 1 ? SoundFont.stacked(fonts) : fonts[0]
            let file = files.count > 1 ? files.joined(separator: " + ") : files[0]
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
            let store = font.sampleStore
            let compressed = !font.sampleStores.isEmpty
            if json {
                var fields = fontFields(font, path: file)
                if let needed {
                    fields += [("neededSamples", .int(needed.count)), ("neededBytes", .int(needed.reduce(0) { $0 + sampleBytes(font, $1) })),
                               ("neededCompressedBytes", .int(needed.reduce(0) { $0 + compressedBytes(font, $1) }))]
                }
                Console.out(JSONText.object(fields))
                if let needed {
                    for i in needed {
                        var sample: [(key: String, value: JSONValue)] = [("type", .string("sample")), ("index", .int(i)),
                                                            ("name", .string(name(font, i))), ("bytes", .int(sampleBytes(font, i)))]
                        if compressed { sample.append(("compressedBytes", .int(compressedBytes(font, i)))) }
                        Console.out(JSONText.object(sample))
                    }
                    return
                }
                for p in font.presets {
                    Console.out(JSONText.object(presetFields(p)))
                }
                return
            }
            Console.out("name: \(TerminalText.sanitized(font.name))")
            Console.out("presets: \(font.presetCount)")
            if store != nil { compressionLines(font) }
            if let needed, let midiFile {
                let bytes = needed.reduce(0) { $0 + sampleBytes(font, $1) }
                Console.out("samples for \(TerminalText.sanitized(midiFile)): \(needed.count), \(bytes) bytes decoded (\(mebibytes(bytes)))"
                            + (compressed ? ", \(needed.reduce(0) { $0 + compressedBytes(font, $1) }) bytes compressed" : ""))
                for i in needed {
                    Console.out("\(i) \(TerminalText.sanitized(name(font, i))) \(sampleBytes(font, i))"
                                + (compressed ? " \(compressedBytes(font, i))" : ""))
                }
                return
            }
            for p in font.presets {
                Console.out("\(p.bank):\(p.program) \(TerminalText.sanitized(p.name))")
            }
        }

        func fontFields(_ font: SoundFont, path: String) -> [(key: String, value: JSONValue)] {
            var fields: [(key: String, value: JSONValue)] = [
                ("type", .string("font")), ("path", .string(path)), ("name", .string(font.name)),
                ("presets", .int(font.presetCount)), ("zones", .int(font.zones.count)),
                ("samples", .int(font.samples.count)), ("sampleFrames", .int(font.sampleData.count)),
                ("24bit", .bool(font.sampleLowBytes != nil)),
            ]
            if let store = font.sampleStore {
                fields += [("compressedSamples", .int(store.compressedCount)), ("compressedBytes", .int(store.compressedBytes)),
                           ("decodedBytes", .int(store.decodedBytesIfAll))]
            }
            return fields
        }

        /// A SoundFont 3 font's compression, in three lines (nothing for SoundFont 2).
        func compressionLines(_ font: SoundFont) {
            guard let store = font.sampleStore else { return }
            Console.out("compressed samples: \(store.compressedCount) of \(font.samples.count) (Ogg Vorbis, SoundFont 3)")
            Console.out("compressed bytes: \(store.compressedBytes) (\(mebibytes(store.compressedBytes)))")
            Console.out("decoded size if all were decoded: \(store.decodedBytesIfAll) (\(mebibytes(store.decodedBytesIfAll)))")
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
                    Console.out(JSONText.object(fontFields(entry.font, path: files[layer])
                        + [("layer", .int(layer)), ("top", .bool(layer == fonts.count - 1))]))
                    for (preset, shadowedBy) in entry.presets {
                        Console.out(JSONText.object(presetFields(preset) + [("layer", .int(layer))]
                            + (shadowedBy.map { [("shadowedBy", .string(files[$0]))] } ?? [])))
                    }
                }
                Console.out(JSONText.object([("type", .string("stack")), ("fonts", .int(fonts.count)),
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
                compressionLines(entry.font)
                Console.out("presets: \(entry.presets.count), \(entry.presets.count - shadowed) played, \(shadowed) shadowed")
                for (preset, shadowedBy) in entry.presets {
                    let note = shadowedBy.map { " (shadowed by \(TerminalText.sanitized(fonts[$0].fileName)))" } ?? ""
                    Console.out("\(preset.bank):\(preset.program) \(TerminalText.sanitized(preset.name))\(note)")
                }
            }
            Console.out("")
            Console.out("stack presets: \(stacked.presetCount)")
        }

        /// A sample's 16-bit frames in bytes (decoded, for SF3); `i` through a stack's samples.
        func sampleBytes(_ font: SoundFont, _ i: Int) -> Int {
            guard let (owner, indices) = font.samplesByFont([i]).first, let local = indices.first else { return 0 }
            if let store = owner.sampleStore { return store.decodedSize(local) }
            let sample = owner.samples[local]
            return 2 * max(Int(sample.end) - Int(sample.start), 0)
        }

        /// A SoundFont 3 sample's Ogg Vorbis bytes (0 for SoundFont 2); `i` through a stack's samples.
        func compressedBytes(_ font: SoundFont, _ i: Int) -> Int {
            guard let (owner, indices) = font.samplesByFont([i]).first, let local = indices.first else { return 0 }
            return owner.sampleStore?.compressedSize(local) ?? 0
        }

        func name(_ font: SoundFont, _ i: Int) -> String { i < font.sampleNames.count ? font.sampleNames[i] : "" }

        func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    }
}
