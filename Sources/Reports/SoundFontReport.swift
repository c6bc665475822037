import DSP
import Foundation
import TextOutput

/// What `backbeat soundfont info` prints: a font's name, its preset count and one line per preset (with a
/// SoundFont 3 font, its compression); with the samples a MIDI file's notes reach, those samples instead;
/// for a stack, each font from the top down with the presets a higher font shadows marked. With `json`,
/// one JSON object per line.
public struct SoundFontReport {
    /// The font files as named, the bottom font of a stack first.
    public let files: [String]
    public let json: Bool

    public init(files: [String], json: Bool) {
        self.files = files
        self.json = json
    }

    /// One font, or a stack read as one (`files` joined by " + "): its presets, or with `needed` (sample
    /// indexes, through a stack's samples) the samples `midiFile`'s notes reach.
    public func lines(_ font: SoundFont, needed: [Int]? = nil, midiFile: String? = nil) -> [String] {
        let file = files.count > 1 ? files.joined(separator: " + ") : files.first ?? ""
        let compressed = !font.sampleStores.isEmpty
        var out: [String] = []
        if json {
            var fields = fontFields(font, path: file)
            if let needed {
                fields += [("neededSamples", .int(needed.count)), ("neededBytes", .int(needed.reduce(0) { $0 + Self.sampleBytes(font, $1) })),
                           ("neededCompressedBytes", .int(needed.reduce(0) { $0 + Self.compressedBytes(font, $1) }))]
            }
            out.append(JSONText.object(fields))
            if let needed {
                for i in needed {
                    var sample: [(key: String, value: JSONValue)] = [("type", .string("sample")), ("index", .int(i)),
                                                                     ("name", .string(Self.name(font, i))), ("bytes", .int(Self.sampleBytes(font, i)))]
                    if compressed { sample.append(("compressedBytes", .int(Self.compressedBytes(font, i)))) }
                    out.append(JSONText.object(sample))
                }
                return out
            }
            for p in font.presets { out.append(JSONText.object(Self.presetFields(p))) }
            return out
        }
        out.append("name: \(TerminalText.sanitized(font.name))")
        out.append("presets: \(font.presetCount)")
        out += Self.compressionLines(font)
        if let needed, let midiFile {
            let bytes = needed.reduce(0) { $0 + Self.sampleBytes(font, $1) }
            out.append("samples for \(TerminalText.sanitized(midiFile)): \(needed.count), \(bytes) bytes decoded (\(Self.mebibytes(bytes)))"
                       + (compressed ? ", \(needed.reduce(0) { $0 + Self.compressedBytes(font, $1) }) bytes compressed" : ""))
            for i in needed {
                out.append("\(i) \(TerminalText.sanitized(Self.name(font, i))) \(Self.sampleBytes(font, i))"
                           + (compressed ? " \(Self.compressedBytes(font, i))" : ""))
            }
            return out
        }
        for p in font.presets { out.append(Self.presetLine(p)) }
        return out
    }

    /// A stack of `fonts` (one per file, bottom first), top font first: each font's presets, those a higher
    /// font shadows marked (the stack plays the higher one), then what the stack plays in all.
    public func stackLines(_ fonts: [SoundFont]) -> [String] {
        let stacked = SoundFont.stacked(fonts)
        let listing = stacked.stackListing()
        var out: [String] = []
        if json {
            for (layer, entry) in listing.enumerated().reversed() {
                out.append(JSONText.object(fontFields(entry.font, path: files[layer])
                    + [("layer", .int(layer)), ("top", .bool(layer == fonts.count - 1))]))
                for (preset, shadowedBy) in entry.presets {
                    out.append(JSONText.object(Self.presetFields(preset) + [("layer", .int(layer))]
                        + (shadowedBy.map { [("shadowedBy", .string(files[$0]))] } ?? [])))
                }
            }
            out.append(JSONText.object([("type", .string("stack")), ("fonts", .int(fonts.count)),
                                        ("presets", .int(stacked.presetCount))]))
            return out
        }
        out.append("stack: \(fonts.count) fonts, the last named on top; a preset is looked up from the top down")
        for (layer, entry) in listing.enumerated().reversed() {
            let shadowed = entry.presets.count { $0.shadowedBy != nil }
            let position = layer == fonts.count - 1 ? "top" : layer == 0 ? "bottom" : "layer \(layer + 1)"
            out.append("")
            out.append("font \(layer + 1) (\(position)): \(TerminalText.sanitized(files[layer]))")
            out.append("name: \(TerminalText.sanitized(entry.font.name))")
            out += Self.compressionLines(entry.font)
            out.append("presets: \(entry.presets.count), \(entry.presets.count - shadowed) played, \(shadowed) shadowed")
            for (preset, shadowedBy) in entry.presets {
                let note = shadowedBy.map { " (shadowed by \(TerminalText.sanitized(fonts[$0].fileName)))" } ?? ""
                out.append(Self.presetLine(preset) + note)
            }
        }
        out.append("")
        out.append("stack presets: \(stacked.presetCount)")
        return out
    }

    /// The font's JSON fields (its file as `path`).
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

    /// A SoundFont 3 font's compression, in three lines (none for SoundFont 2).
    static func compressionLines(_ font: SoundFont) -> [String] {
        guard let store = font.sampleStore else { return [] }
        return ["compressed samples: \(store.compressedCount) of \(font.samples.count) (Ogg Vorbis, SoundFont 3)",
                "compressed bytes: \(store.compressedBytes) (\(mebibytes(store.compressedBytes)))",
                "decoded size if all were decoded: \(store.decodedBytesIfAll) (\(mebibytes(store.decodedBytesIfAll)))"]
    }

    /// A preset's line: "bank:program name".
    public static func presetLine(_ p: SoundFontPreset) -> String { "\(p.bank):\(p.program) \(TerminalText.sanitized(p.name))" }

    /// A preset's JSON fields.
    public static func presetFields(_ p: SoundFontPreset) -> [(key: String, value: JSONValue)] {
        [
            ("type", .string("preset")), ("bank", .int(Int(p.bank))), ("program", .int(Int(p.program))),
            ("name", .string(p.name)), ("zones", .int(Int(p.zoneCount))),
        ]
    }

    /// A sample's 16-bit frames in bytes (decoded, for SF3); `i` through a stack's samples.
    static func sampleBytes(_ font: SoundFont, _ i: Int) -> Int {
        guard let (owner, indices) = font.samplesByFont([i]).first, let local = indices.first else { return 0 }
        if let store = owner.sampleStore { return store.decodedSize(local) }
        let sample = owner.samples[local]
        return 2 * max(Int(sample.end) - Int(sample.start), 0)
    }

    /// A SoundFont 3 sample's Ogg Vorbis bytes (0 for SoundFont 2); `i` through a stack's samples.
    static func compressedBytes(_ font: SoundFont, _ i: Int) -> Int {
        guard let (owner, indices) = font.samplesByFont([i]).first, let local = indices.first else { return 0 }
        return owner.sampleStore?.compressedSize(local) ?? 0
    }

    static func name(_ font: SoundFont, _ i: Int) -> String { i < font.sampleNames.count ? font.sampleNames[i] : "" }

    /// Bytes in MiB with one decimal: "2.5 MiB".
    public static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
}
