import SFZ
import TextOutput

/// What `backbeat instrument info` prints about an SFZ instrument: its regions, the key map (the keys each
/// sample plays), velocity layers, round robins, key switches, labelled CCs, the memory its samples need as
/// 32-bit floats (from the files' headers; missing files listed with the line that wants them), the regions
/// whose sound follows the note or the wheel (SFZReport+NoteFollowing.swift), the opcodes Backbeat does not
/// know and the diagnostics. With `json`, one JSON object per line.
public struct SFZReport {
    /// What opening a sample file's headers gave.
    public typealias SampleStatus = Result<SampleFileInfo, SampleFileError>

    public let instrument: SFZInstrument
    /// Each sample file's headers (or why they could not be read), by the path the regions name.
    public let samples: [String: SampleStatus]
    public let json: Bool

    public init(instrument: SFZInstrument, samples: [String: SampleStatus], json: Bool) {
        (self.instrument, self.samples, self.json) = (instrument, samples, json)
    }

    /// Reads the headers of every sample file `instrument` plays (not their frames); a name written in other
    /// letter cases than the file's is found as sfizz finds it (SFZSampleLookup).
    public static func readSampleHeaders(_ instrument: SFZInstrument) -> [String: SampleStatus] {
        var out: [String: SampleStatus] = [:]
        var lookup = SFZSampleLookup()
        for (path, _) in instrument.sampleFiles {
            do throws(SampleFileError) {
                out[path] = .success(try SampleFile.info(path: lookup.find(path) ?? path))
            } catch {
                out[path] = .failure(error)
            }
        }
        return out
    }

    public func lines() -> [String] { json ? jsonLines() : textLines() }

    /// The sample files that read, their bytes as floats in all.
    var sampleBytes: Int {
        instrument.sampleFiles.reduce(0) { total, file in
            guard case .success(let info)? = samples[file.path] else { return total }
            let (sum, overflow) = total.addingReportingOverflow(info.floatBytes)
            return overflow ? Int.max : sum
        }
    }

    /// The sample files that could not be read: path, the `sample=` line that wants it, and why.
    var missing: [(path: String, location: SFZLocation?, reason: String)] {
        instrument.sampleFiles.compactMap { file in
            switch samples[file.path] {
            case .success?: nil
            case .failure(let error)?: (file.path, file.location, error.reason)
            case nil: (file.path, file.location, "not read")
            }
        }
    }

    var generatorCount: Int {
        instrument.regions.count { if case .generator? = $0.sample { true } else { false } }
    }

    func textLines() -> [String] {
        let regions = instrument.regions
        var out = ["instrument: \(TerminalText.sanitized(instrument.path))", "regions: \(regions.count)"]
        let files = instrument.sampleFiles
        out.append("samples: \(files.count) files, \(missing.count) missing; \(generatorCount) regions play a generator")
        out.append("sample memory: \(sampleBytes) bytes as 32-bit float (\(SoundFontReport.mebibytes(sampleBytes)))")
        for m in missing {
            out.append("missing sample: \(TerminalText.sanitized(m.path))\(m.location.map { " (wanted at \(TerminalText.sanitized($0.description)))" } ?? ""): \(TerminalText.sanitized(m.reason))")
        }
        out.append("key map:")
        for entry in keyMap() {
            var line = "  \(entry.keys) \(TerminalText.sanitized(entry.sample))"
            if case .success(let info)? = samples[entry.path ?? ""] {
                let loop = info.loops.first.map { ", loop \($0.start)-\($0.end)" } ?? ""
                line += " (\(info.channels == 1 ? "mono" : "\(info.channels) channels"), \(info.sampleRate) Hz, \(info.frames) frames, \(TerminalText.sanitized(info.format))\(loop))"
            }
            out.append(line)
        }
        let layers = velocityLayers()
        out.append("velocity layers: \(layers.count)" + (layers.isEmpty ? "" : ": " + layers.map { "\($0.range.low)-\($0.range.high) (\($0.regions))" }.joined(separator: ", ")))
        let robins = roundRobins()
        out.append("round robins: " + (robins.isEmpty ? "none" : robins.map { "seq_length \($0.length): \($0.regions) regions" }.joined(separator: ", ")))
        let switches = keySwitches()
        out.append("key switches: \(switches.count)")
        for s in switches {
            out.append("  \(s.key) (\(SFZNote.name(s.key)))\(s.label.map { " " + TerminalText.sanitized($0) } ?? ""): \(s.regions) regions\(s.isDefault ? ", the default" : "")")
        }
        let controls = labelledControls()
        out.append("labelled CCs: \(controls.count)")
        for c in controls {
            out.append("  cc\(c.cc)\(c.label.map { " " + TerminalText.sanitized($0) } ?? "")\(c.initial.map { " (starts at \($0))" } ?? "")")
        }
        out.append(noteFollowingLine())
        out.append("unknown opcodes: \(instrument.unknownOpcodes.count)" + Self.counts(instrument.unknownOpcodes))
        if !instrument.unknownHeaders.isEmpty {
            out.append("unknown headers (their opcodes skipped): \(instrument.unknownHeaders.count)" + Self.counts(instrument.unknownHeaders))
        }
        out.append("diagnostics: \(instrument.diagnostics.count)")
        for d in instrument.diagnostics { out.append("  \(TerminalText.sanitized(d.description))") }
        return out
    }

    func jsonLines() -> [String] {
        var out = [JSONText.object([
            ("type", .string("instrument")), ("path", .string(instrument.path)), ("regions", .int(instrument.regions.count)),
            ("sampleFiles", .int(instrument.sampleFiles.count)), ("missingSamples", .int(missing.count)),
            ("generatorRegions", .int(generatorCount)), ("sampleBytes", .int(sampleBytes)),
            ("velocityLayers", .int(velocityLayers().count)), ("keySwitches", .int(keySwitches().count)),
            ("unknownOpcodes", .int(instrument.unknownOpcodes.count)), ("diagnostics", .int(instrument.diagnostics.count)),
        ])]
        for entry in keyMap() {
            var fields: [(key: String, value: JSONValue)] = [("type", .string("sample")), ("sample", .string(entry.sample)), ("keys", .string(entry.keys)),
                                                             ("regions", .int(entry.regions))]
            switch samples[entry.path ?? ""] {
            case .success(let info)?:
                fields += [("frames", .int(info.frames)), ("channels", .int(info.channels)), ("sampleRate", .int(info.sampleRate)),
                           ("format", .string(info.format)), ("bytes", .int(info.floatBytes)), ("loops", .int(info.loops.count))]
            case .failure(let error)?:
                fields += [("missing", .bool(true)), ("error", .string(error.reason))]
                if let location = instrument.sampleFiles.first(where: { $0.path == entry.path })?.location {
                    fields += [("file", .string(location.file)), ("line", .int(location.line))]
                }
            case nil: break
            }
            out.append(JSONText.object(fields))
        }
        for layer in velocityLayers() {
            out.append(JSONText.object([("type", .string("velocityLayer")), ("low", .int(layer.range.low)), ("high", .int(layer.range.high)),
                                        ("regions", .int(layer.regions))]))
        }
        for robin in roundRobins() {
            out.append(JSONText.object([("type", .string("roundRobin")), ("seqLength", .int(robin.length)), ("regions", .int(robin.regions))]))
        }
        for s in keySwitches() {
            var fields: [(key: String, value: JSONValue)] = [("type", .string("keySwitch")), ("key", .int(s.key)), ("note", .string(SFZNote.name(s.key)))]
            if let label = s.label { fields.append(("label", .string(label))) }
            out.append(JSONText.object(fields + [("regions", .int(s.regions)), ("default", .bool(s.isDefault))]))
        }
        for c in labelledControls() {
            var fields: [(key: String, value: JSONValue)] = [("type", .string("cc")), ("cc", .int(c.cc))]
            if let label = c.label { fields.append(("label", .string(label))) }
            if let initial = c.initial { fields.append(("initial", .int(initial))) }
            out.append(JSONText.object(fields))
        }
        out += noteFollowingJSON()
        for u in instrument.unknownOpcodes {
            out.append(JSONText.object([("type", .string("unknownOpcode")), ("name", .string(u.name)), ("count", .int(u.count))]))
        }
        for u in instrument.unknownHeaders {
            out.append(JSONText.object([("type", .string("unknownHeader")), ("name", .string(u.name)), ("count", .int(u.count))]))
        }
        for d in instrument.diagnostics {
            out.append(JSONText.object([("type", .string("diagnostic")), ("file", .string(d.location.file)), ("line", .int(d.location.line)),
                                        ("message", .string(d.message))]))
        }
        return out
    }

    /// " (name ×count, ...)", or "" for none.
    static func counts(_ names: [SFZNameCount]) -> String {
        names.isEmpty ? "" : " (" + names.map { "\(TerminalText.sanitized($0.name)) ×\($0.count)" }.joined(separator: ", ") + ")"
    }
}
