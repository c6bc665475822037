import ArgumentParser
import DSP
import Foundation
import Engine
import MIDI

/// `backbeat soundfont`: commands about SoundFont 2 and 3 files.
struct SoundFontCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soundfont",
        abstract: "Inspect SoundFont 2 and 3 (.sf2, .sf3) files.",
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
                chunk, byte offset, reason) and exits with status 2.
                """
        )

        @Argument(help: "The .sf2 or .sf3 file.")
        var file: String

        @Flag(help: "JSON lines: the font, then one object per preset.")
        var json = false

        @Option(name: .customLong("for"), help: ArgumentHelp("List the samples this Standard MIDI File's notes reach (what a render decodes of an SF3 font).", valueName: "file.mid"))
        var midiFile: String?

        func run() throws {
            let font: SoundFont
            do {
                font = try SoundFont.load(path: file)
            } catch {
                Console.message(error.description, prefix: "backbeat soundfont: ")
                throw ExitCode(2)
            }
            var needed: [Int]?
            if let midiFile {
                do {
                    let file = try StandardMIDIFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: midiFile))))
                    let messages = OfflineRenderer.messages(of: file)
                        .enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }
                    needed = font.samplesNeeded(by: messages.map { $0.element.message })
                } catch {
                    Console.message("'\(midiFile)': \(error)", prefix: "backbeat soundfont: ")
                    throw ExitCode(2)
                }
            }
            let store = font.sampleStore
            if json {
                var fields: [(key: String, value: JSONValue)] = [
                    ("type", .string("font")), ("path", .string(file)), ("name", .string(font.name)),
                    ("presets", .int(font.presetCount)), ("zones", .int(font.zones.count)),
                    ("samples", .int(font.samples.count)), ("sampleFrames", .int(font.sampleData.count)),
                    ("24bit", .bool(font.sampleLowBytes != nil)),
                ]
                if let store {
                    fields += [("compressedSamples", .int(store.compressedCount)), ("compressedBytes", .int(store.compressedBytes)),
                               ("decodedBytes", .int(store.decodedBytesIfAll))]
                }
                if let needed {
                    fields += [("neededSamples", .int(needed.count)), ("neededBytes", .int(needed.reduce(0) { $0 + sampleBytes(font, $1) })),
                               ("neededCompressedBytes", .int(needed.reduce(0) { $0 + (store?.compressedSize($1) ?? 0) }))]
                }
                Console.out(MIDIJSON.object(fields))
                if let needed {
                    for i in needed {
                        var sample: [(key: String, value: JSONValue)] = [("type", .string("sample")), ("index", .int(i)),
                                                            ("name", .string(name(font, i))), ("bytes", .int(sampleBytes(font, i)))]
                        if let store { sample.append(("compressedBytes", .int(store.compressedSize(i)))) }
                        Console.out(MIDIJSON.object(sample))
                    }
                    return
                }
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
            if let store {
                Console.out("compressed samples: \(store.compressedCount) of \(font.samples.count) (Ogg Vorbis, SoundFont 3)")
                Console.out("compressed bytes: \(store.compressedBytes) (\(mebibytes(store.compressedBytes)))")
                Console.out("decoded size if all were decoded: \(store.decodedBytesIfAll) (\(mebibytes(store.decodedBytesIfAll)))")
            }
            if let needed, let midiFile {
                let bytes = needed.reduce(0) { $0 + sampleBytes(font, $1) }
                Console.out("samples for \(TerminalText.sanitized(midiFile)): \(needed.count), \(bytes) bytes decoded (\(mebibytes(bytes)))"
                            + (store.map { s in ", \(needed.reduce(0) { $0 + s.compressedSize($1) }) bytes compressed" } ?? ""))
                for i in needed {
                    Console.out("\(i) \(TerminalText.sanitized(name(font, i))) \(sampleBytes(font, i))"
                                + (store.map { " \($0.compressedSize(i))" } ?? ""))
                }
                return
            }
            for p in font.presets {
                Console.out("\(p.bank):\(p.program) \(TerminalText.sanitized(p.name))")
            }
        }

        /// A sample's 16-bit frames in bytes (decoded, for SF3).
        func sampleBytes(_ font: SoundFont, _ i: Int) -> Int {
            if let store = font.sampleStore { return store.decodedSize(i) }
            guard i >= 0 && i < font.samples.count else { return 0 }
            return 2 * max(Int(font.samples[i].end) - Int(font.samples[i].start), 0)
        }

        func name(_ font: SoundFont, _ i: Int) -> String { i < font.sampleNames.count ? font.sampleNames[i] : "" }

        func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    }
}
