import ArgumentParser
import DSP
import Engine
import Foundation
import SFZ
import TextOutput

/// `--instrument FILE.sfz` and `--instrument CH=FILE.sfz`: SFZ instruments played by the sample voices, on
/// every channel or on one, over the SoundFont (or beside the built-in synth) the other channels play.
enum InstrumentFile {
    /// One `--instrument` value: the channel (1...16) it is given, or nil for every channel, and the file.
    struct Assignment: Equatable {
        var channel: Int?
        var path: String

        /// "FILE" or "CH=FILE" (CH 1...16): only a value whose text before its first "=" is a whole number is
        /// read as a channel, so a file name with "=" in it is taken whole.
        init(_ text: String) throws {
            if let equals = text.firstIndex(of: "="), let number = Int(text[..<equals]) {
                guard (1...16).contains(number) else {
                    throw ValidationError("--instrument \(text): the channel is \(number); channels are 1...16")
                }
                channel = number
                path = String(text[text.index(after: equals)...])
            } else {
                channel = nil
                path = text
            }
            if path.isEmpty { throw ValidationError("--instrument \(text): no file name") }
        }
    }

    /// The most instruments one run loads (each takes 16 banks above the MIDI-reachable ones).
    static let maximum = 16

    static func validate(_ values: [String]) throws {
        let assignments = try values.map(Assignment.init)
        if assignments.count > maximum { throw ValidationError("--instrument is given \(assignments.count) times; at most \(maximum)") }
        if assignments.filter({ $0.channel == nil }).count > 1 {
            throw ValidationError("--instrument without a channel is given more than once; give the others as CH=FILE")
        }
        let channels = assignments.compactMap(\.channel)
        if Set(channels).count != channels.count {
            throw ValidationError("--instrument gives a channel two instruments")
        }
    }

    /// `base` (the SoundFont or stack, or nil) with the instruments `values` name stacked on top and pinned to
    /// their channels; `base` itself without any. An instrument that cannot play ends Backbeat with its
    /// file:line (exit 2); what the translation approximated is said as warnings.
    /// `sampleCacheMiB` (nil: the default 512) is the bound an instrument's samples decoded must fit to load
    /// whole; a bigger one is streamed from disk (docs/sfz.md).
    static func loadOrExit(_ values: [String], over base: SoundFont?, command: String? = nil, sampleCacheMiB: Int? = nil) -> SoundFont? {
        guard !values.isEmpty else { return base }
        let prefix = command.map { "backbeat \($0): " } ?? "backbeat: "
        let assignments: [Assignment]
        do {
            try validate(values)
            assignments = try values.map(Assignment.init)
        } catch {
            Console.message("\(error)", prefix: prefix)
            exit(2)
        }
        var layers = base?.stack ?? []
        var pins: [Int: Int32] = [:]
        // The channel-less instrument first, so a CH= one replaces it on its channel.
        let ordered = assignments.filter { $0.channel == nil } + assignments.filter { $0.channel != nil }
        for (i, assignment) in ordered.enumerated() {
            let loaded = load(assignment.path, bank: SFZInstrument.firstBank + 16 * i, prefix: prefix,
                              sampleCacheBytes: sampleCacheMiB.map { $0 << 20 } ?? SoundFontSampleStore.defaultLimitBytes)
            layers.append(loaded.font)
            if let channel = assignment.channel {
                pins[channel - 1] = loaded.channelPresetKeys[channel - 1]
            } else {
                for ch in 0..<16 { pins[ch] = loaded.channelPresetKeys[ch] }
            }
        }
        guard layers.count <= SoundFont.maxLayers else {
            Console.message("\(layers.count) fonts and instruments; at most \(SoundFont.maxLayers)", prefix: prefix)
            exit(2)
        }
        var played: UInt16 = base == nil ? 0 : 0xFFFF
        for ch in pins.keys { played |= 1 << UInt16(ch) }
        return SoundFont.stacked(layers).pinning(pins, played: played)
    }

    /// The instrument at `path` (a leading `~/` is the home directory) as a font, its diagnostics said as
    /// warnings, then one line with its size, the memory its samples take and how long it took to load; one
    /// that cannot be read or played ends Backbeat (exit 2).
    static func load(_ path: String, bank: Int, prefix: String, sampleCacheBytes: Int) -> SFZSoundFont {
        let expanded = path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst(1) : path
        let started = ContinuousClock.now
        do {
            let instrument = try SFZInstrument.load(path: expanded)
            for diagnostic in instrument.diagnostics { Console.message("warning: \(diagnostic)", prefix: prefix) }
            if !instrument.unknownOpcodes.isEmpty {
                let names = instrument.unknownOpcodes.map { "\($0.name) (\($0.count))" }.joined(separator: ", ")
                Console.message("warning: '\(path)': opcodes Backbeat does not know: \(names)", prefix: prefix)
            }
            let playable = try instrument.soundFont(bank: bank, sampleCacheBytes: sampleCacheBytes)
            for note in playable.notes { Console.message("warning: '\(path)': approximated: \(note)", prefix: prefix) }
            Console.message(loadReport(path, instrument, playable.font, took: ContinuousClock.now - started), prefix: prefix)
            OutputFile.protect(expanded) // no render or recording may write over the instrument
            return playable
        } catch let error as SFZPlayError {
            Console.message("\(error)", prefix: prefix)
        } catch {
            Console.message("\(error)", prefix: prefix)
        }
        exit(2)
    }

    /// "'piano.sfz': 960 regions, 480 sample files, 612.4 MB of samples, loaded in 2.31 s": the samples' memory
    /// is their 16-bit frames and 24-bit low bytes as decoded. A streamed instrument says what of it is in
    /// memory after the load (the heads) and the bound: "..., 1024.0 MB of samples, streamed from disk (12.3 MB
    /// in memory, --sample-cache 256 MiB), loaded in 0.41 s".
    private static func streamed(_ store: SampleStreamStore?) -> String {
        guard let status = store?.status else { return "" }
        return String(cFormat: ", streamed from disk (%.1f MB in memory, --sample-cache %ld MiB)", Double(status.residentBytes) / 1_048_576,
                      status.limitBytes >> 20)
    }

    static func loadReport(_ path: String, _ instrument: SFZInstrument, _ font: SoundFont, took: Duration) -> String {
        let bytes = font.sampleData.count * 2 + (font.sampleLowBytes?.count ?? 0)
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) * 1e-18
        let time = seconds < 1 ? String(cFormat: "%.0f ms", seconds * 1000) : String(cFormat: "%.2f s", seconds)
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return "'\(path)': \(count(instrument.regions.count, "region")), \(count(instrument.sampleFiles.count, "sample file")), "
            + String(cFormat: "%.1f MB of samples", Double(bytes) / 1_048_576) + streamed(font.sampleStream) + ", loaded in \(time)"
    }
}
