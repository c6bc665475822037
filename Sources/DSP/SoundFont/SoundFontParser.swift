import MIDI
import TextOutput
// The structural half of the SoundFont loader: RIFF 'sfbk' → INFO, sdta and pdta, each of pdta's nine
// record chunks checked (record size, terminal record, indices increasing and in range), the zones of every
// preset and instrument read with FluidSynth's tolerances (see SoundFontParser+Zones.swift), and the sample
// headers checked against the smpl chunk. The result is a `ParsedSoundFont`, which SoundFontResolver.swift
// turns into the flat real-time tables.

/// A preset or instrument zone as read: its own generators (not yet combined with the global zone), its
/// ranges if it set them, the instrument or sample it points to, and its modulators.
struct ParsedZone {
    /// Generator values the zone sets; `isSet` bit g says whether generator g was given.
    var values = [Int32](repeating: 0, count: SoundFontGenerator.count)
    var isSet: UInt64 = 0
    var keyRange: (low: UInt8, high: UInt8)?
    var velocityRange: (low: UInt8, high: UInt8)?
    /// The instrument (preset zone) or sample (instrument zone) index, nil for a global zone.
    var target: Int?
    var modulators: [SoundFontModulator] = []

    func value(_ generator: Int) -> Int32? {
        isSet & (1 << UInt64(generator)) != 0 ? values[generator] : nil
    }

    mutating func set(_ generator: Int, _ value: Int32) {
        values[generator] = value
        isSet |= 1 << UInt64(generator)
    }
}

/// A preset (phdr) or instrument (inst) with its zones: the global zone apart, the others in file order.
struct ParsedBagOwner {
    var name: String
    /// The file offset of its phdr or inst record (for errors).
    var offset = 0
    var bank: UInt16 = 0
    var program: UInt16 = 0
    var global: ParsedZone?
    var zones: [ParsedZone] = []
}

/// Everything the resolver needs from the file.
struct ParsedSoundFont {
    var name = ""
    var versionMajor: UInt16 = 0
    var versionMinor: UInt16 = 0
    var presets: [ParsedBagOwner] = []
    var instruments: [ParsedBagOwner] = []
    var samples: [SoundFontSample] = []
    var sampleNames: [String] = []
    /// Whether each sample can be played (not a ROM sample, not empty); zones pointing at one that cannot
    /// are dropped.
    var sampleUsable: [Bool] = []
    /// For each compressed (SoundFont 3, Ogg Vorbis) sample: its stream's bytes in the file and the frame
    /// count its last Ogg page gives; nil for a 16-bit PCM sample. A compressed sample's loop points are
    /// frames from the start of its decoded data (FluidSynth's and MuseScore's SF3 convention).
    var compressed: [(bytes: Range<Int>, frames: Int)?] = []
    /// File offsets of the smpl chunk's data (a whole number of 16-bit frames), of all its bytes (an SF3
    /// smpl may be odd), and of a usable sm24 chunk.
    var smpl: Range<Int> = 0 ..< 0
    var smplBytes: Range<Int> = 0 ..< 0
    var sm24: Range<Int>?

    var isCompressed: Bool { compressed.contains { $0 != nil } }
}

enum SoundFontParser {
    /// The nine pdta chunks in the specification's order, with their record sizes.
    static let hydraChunks: [(id: String, recordSize: Int)] = [
        ("phdr", 38), ("pbag", 4), ("pmod", 10), ("pgen", 4), ("inst", 22), ("ibag", 4), ("imod", 10),
        ("igen", 4), ("shdr", 46),
    ]

    static func parse(_ reader: RIFFReader) throws(SoundFontError) -> ParsedSoundFont {
        let r = reader
        guard r.count >= 12 else {
            throw r.error("RIFF", 0, "not a RIFF file: \(r.count) bytes, too short for a RIFF header")
        }
        guard r.fourCC(0) == "RIFF" else {
            throw r.error("RIFF", 0, "not a RIFF file: starts with '\(r.fourCC(0))', expected 'RIFF'")
        }
        guard r.fourCC(8) == "sfbk" else {
            throw r.error("RIFF", 8, "not a SoundFont: RIFF form '\(r.fourCC(8))', expected 'sfbk'")
        }
        let riffSize = Int(r.u32(4))
        guard riffSize >= 4, riffSize <= r.count - 8 else {
            throw r.error("RIFF", 4, "bad size \(riffSize): the file has \(r.count - 8) bytes after the RIFF header (truncated?)")
        }
        var lists: [String: RIFFChunk] = [:]
        for chunk in try r.chunks(in: 12 ..< 8 + riffSize, parent: "RIFF") where chunk.id == "LIST" {
            guard chunk.size >= 4 else { throw r.error("LIST", chunk.offset, "bad size \(chunk.size): a LIST needs 4 bytes for its type") }
            let type = r.fourCC(chunk.dataStart)
            if lists[type] == nil { lists[type] = chunk }
        }
        var font = ParsedSoundFont()
        for type in ["INFO", "sdta", "pdta"] where lists[type] == nil {
            throw r.error(type, 12, "missing chunk: no LIST '\(type)' in the RIFF 'sfbk' body")
        }
        try parseInfo(r, lists["INFO"]!, into: &font)
        try parseSampleData(r, lists["sdta"]!, into: &font)
        try parseHydra(r, lists["pdta"]!, into: &font)
        return font
    }

    static func subchunks(_ r: RIFFReader, _ list: RIFFChunk, _ name: String) throws(SoundFontError) -> [RIFFChunk] {
        try r.chunks(in: list.dataStart + 4 ..< list.dataEnd, parent: name)
    }

    static func parseInfo(_ r: RIFFReader, _ list: RIFFChunk, into font: inout ParsedSoundFont) throws(SoundFontError) {
        var sawVersion = false
        for chunk in try subchunks(r, list, "INFO") {
            switch chunk.id {
            case "ifil" where !sawVersion:
                guard chunk.size == 4 else { throw r.error("INFO/ifil", chunk.offset, "bad size \(chunk.size), expected 4") }
                font.versionMajor = r.u16(chunk.dataStart)
                font.versionMinor = r.u16(chunk.dataStart + 2)
                sawVersion = true
            case "INAM" where font.name.isEmpty:
                font.name = r.string(chunk.dataStart, length: min(chunk.size, 256))
            default:
                break  // other INFO chunks (engine, copyright, dates, ROM) are not needed to play the font
            }
        }
        guard sawVersion else { throw r.error("INFO/ifil", list.offset, "missing chunk: the INFO list has no 'ifil' (version)") }
        // SoundFont 3 is SoundFont 2 with Ogg Vorbis samples (flag 0x10 in the sample type).
        guard font.versionMajor == 2 || font.versionMajor == 3 else {
            throw r.error("INFO/ifil", list.offset, "version \(font.versionMajor).\(font.versionMinor) is not SoundFont 2 or 3")
        }
    }

    static func parseSampleData(_ r: RIFFReader, _ list: RIFFChunk, into font: inout ParsedSoundFont) throws(SoundFontError) {
        let chunks = try subchunks(r, list, "sdta")
        guard let smpl = chunks.first(where: { $0.id == "smpl" }) else {
            throw r.error("sdta/smpl", list.offset, "missing chunk: the sdta list has no 'smpl' (sample data)")
        }
        font.smpl = smpl.dataStart ..< smpl.dataStart + smpl.size / 2 * 2
        font.smplBytes = smpl.dataStart ..< smpl.dataEnd
        // sm24 (2.04 and later) holds one low byte per frame, its size rounded up to even; otherwise ignored.
        let frames = smpl.size / 2
        if font.versionMinor >= 4, let sm24 = chunks.first(where: { $0.id == "sm24" }), sm24.size == frames + frames % 2 {
            font.sm24 = sm24.dataStart ..< sm24.dataStart + frames
        }
    }

    static func parseHydra(_ r: RIFFReader, _ list: RIFFChunk, into font: inout ParsedSoundFont) throws(SoundFontError) {
        var found: [String: RIFFChunk] = [:]
        for chunk in try subchunks(r, list, "pdta") where found[chunk.id] == nil { found[chunk.id] = chunk }
        var hydra: [String: RIFFChunk] = [:]
        for (id, recordSize) in hydraChunks {
            guard let chunk = found[id] else {
                throw r.error("pdta/\(id)", list.offset, "missing chunk: the pdta list has no '\(id)'")
            }
            guard chunk.size % recordSize == 0, chunk.size >= recordSize else {
                throw r.error("pdta/\(id)", chunk.offset, chunk.size < recordSize
                    ? "bad size \(chunk.size): no terminal record (records are \(recordSize) bytes)"
                    : "bad size \(chunk.size): not a multiple of the \(recordSize)-byte record")
            }
            hydra[id] = chunk
        }
        try parseSamples(r, hydra["shdr"]!, into: &font)
        let instruments = try readOwners(r, hydra["inst"]!, recordSize: 22, isPreset: false)
        font.instruments = try readZones(r, owners: instruments, bags: hydra["ibag"]!, gens: hydra["igen"]!,
                                         mods: hydra["imod"]!, level: .instrument, targetCount: font.samples.count)
        let presets = try readOwners(r, hydra["phdr"]!, recordSize: 38, isPreset: true)
        font.presets = try readZones(r, owners: presets, bags: hydra["pbag"]!, gens: hydra["pgen"]!,
                                     mods: hydra["pmod"]!, level: .preset, targetCount: font.instruments.count)
    }

    /// The sample headers (without the terminal record), each checked against the smpl chunk: an end past
    /// the data is clamped to it (FluidSynth tolerates such fonts), loop points are clamped into the sample,
    /// and a loop whose start is past its end becomes no loop (loopStart == loopEnd == start).
    static func parseSamples(_ r: RIFFReader, _ chunk: RIFFChunk, into font: inout ParsedSoundFont) throws(SoundFontError) {
        let count = chunk.size / 46 - 1
        let frames = UInt32(truncatingIfNeeded: font.smpl.count / 2)
        font.samples.reserveCapacity(count)
        font.compressed.reserveCapacity(count)
        for i in 0 ..< count {
            let o = chunk.dataStart + i * 46
            let name = r.string(o, length: 20)
            var s = SoundFontSample(start: r.u32(o + 20), end: r.u32(o + 24), loopStart: r.u32(o + 28),
                                    loopEnd: r.u32(o + 32), sampleRate: r.u32(o + 36), originalPitch: r.u8(o + 40),
                                    pitchCorrection: Int8(bitPattern: r.u8(o + 41)), link: r.u16(o + 42),
                                    type: r.u16(o + 44))
            if s.link >= count { s.link = UInt16(i) }  // a link out of range points at itself
            font.sampleNames.append(name)
            // ROM samples (0x8000) live in a synthesizer's ROM: they cannot be played, their zones are dropped.
            let playable = s.type & 0x8000 == 0
            if playable && s.type & 0x10 != 0 {
                // Compressed (SoundFont 3): start and end are byte offsets of an Ogg Vorbis stream in smpl.
                let label = "sample \(i) '\(TerminalText.sanitized(name))'"
                let size = font.smplBytes.count
                guard s.end > s.start, Int(s.start) < size else {
                    throw r.error("pdta/shdr", o, "\(label): compressed data outside smpl (bytes \(s.start) to \(s.end), smpl has \(size))")
                }
                let bytes = font.smplBytes.lowerBound + Int(s.start) ..< font.smplBytes.lowerBound + min(Int(s.end), size)
                guard let frames = OggPages.lastGranule(r, bytes) else {
                    throw r.error("pdta/shdr", o, "\(label): compressed sample is not an Ogg stream (no Ogg page with a sample count in bytes \(s.start) to \(s.end))")
                }
                // The slots of all samples must fit one mapping indexed by 32-bit frames (SoundFontSampleStore).
                let most = Int(Int32.max) / 2
                guard frames < most else {
                    throw r.error("pdta/shdr", o, "\(label): its last Ogg page claims \(frames) frames, an implausible count (a sample has fewer than \(most))")
                }
                font.samples.append(s)
                font.compressed.append((bytes, frames))
                font.sampleUsable.append(frames > 0)  // an empty stream plays nothing, as in FluidSynth
                continue
            }
            font.compressed.append(nil)
            if playable {
                guard s.end >= s.start else {
                    throw r.error("pdta/shdr", o, "sample \(i) '\(TerminalText.sanitized(name))' ends (\(s.end)) before it starts (\(s.start))")
                }
                guard s.start <= frames else {
                    throw r.error("pdta/shdr", o, "sample \(i) '\(TerminalText.sanitized(name))': sample points outside smpl (start \(s.start), smpl has \(frames) frames)")
                }
                s.end = min(s.end, frames)
                s.loopStart = min(max(s.loopStart, s.start), s.end)
                s.loopEnd = min(max(s.loopEnd, s.start), s.end)
                if s.loopStart > s.loopEnd { s.loopStart = s.start; s.loopEnd = s.start }
            }
            font.samples.append(s)
            font.sampleUsable.append(playable && s.end > s.start)
        }
    }

    /// The headers of phdr or inst (names, bank/program, first bag), terminal record included; the bag
    /// indices must not decrease.
    static func readOwners(_ r: RIFFReader, _ chunk: RIFFChunk, recordSize: Int,
                           isPreset: Bool) throws(SoundFontError) -> [(owner: ParsedBagOwner, bag: Int, offset: Int)] {
        let count = chunk.size / recordSize
        var result: [(owner: ParsedBagOwner, bag: Int, offset: Int)] = []
        result.reserveCapacity(count)
        for i in 0 ..< count {
            let o = chunk.dataStart + i * recordSize
            var owner = ParsedBagOwner(name: r.string(o, length: 20), offset: o)
            let bag: Int
            if isPreset {
                owner.program = r.u16(o + 20)
                owner.bank = r.u16(o + 22)
                bag = Int(r.u16(o + 24))
            } else {
                bag = Int(r.u16(o + 20))
            }
            if let previous = result.last, bag < previous.bag {
                throw r.error("pdta/\(chunk.id)", o, "bag indices not increasing: record \(i) starts at bag \(bag), before record \(i - 1)'s \(previous.bag)")
            }
            result.append((owner, bag, o))
        }
        return result
    }
}
