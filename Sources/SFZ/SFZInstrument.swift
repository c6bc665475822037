import OSCall

/// A `<curve>`: its index (`curve_index`) and the points it names (`vNNN=value`, NNN 0 to 127, values
/// -1 to 1); a player draws lines between the points.
public struct SFZCurve: Sendable, Hashable {
    public var index: Int
    public var points: [Int: Double]
    public var location: SFZLocation

    public init(index: Int, points: [Int: Double], location: SFZLocation) { (self.index, self.points, self.location) = (index, points, location) }
}

/// An SFZ instrument as read: its regions with everything they inherit applied, its curves and control
/// settings, and what the text had that Backbeat does not take (unknown opcodes and headers, counted per
/// name; diagnostics with file and line). `soundFont(bank:)` makes it playable (SFZSoundFont.swift).
public struct SFZInstrument: Sendable {
    /// The root file as named.
    public var path: String
    public var regions: [SFZRegion] = []
    public var curves: [SFZCurve] = []
    /// `label_ccN`, by CC.
    public var controlLabels: [Int: String] = [:]
    /// `label_keyN`, by key.
    public var keyLabels: [Int: String] = [:]
    /// `set_ccN`: a CC's value before any MIDI arrives, by CC.
    public var initialControls: [Int: Int] = [:]
    /// The last `default_path` the `<control>` headers set (backslashes read as `/`).
    public var defaultPath = ""
    /// The `#define` variables at the end of the text.
    public var defines: [String: String] = [:]
    /// Opcodes Backbeat does not know, sorted by name, each with how often the text writes it.
    public var unknownOpcodes: [SFZNameCount] = []
    /// Headers other than control, global, master, group, region and curve (their opcodes are skipped).
    public var unknownHeaders: [SFZNameCount] = []
    /// Bad values, malformed text, includes that could not be read, in the text's order.
    public var diagnostics: [SFZDiagnostic] = []

    public init(path: String) { self.path = path }

    /// The largest text read as an SFZ file (the root or an include): real ones are kilobytes.
    public static let readLimit = 16 << 20

    /// Reads the instrument at `path` and the files it includes. Only an unreadable root file throws; every
    /// other problem is in `diagnostics`.
    public static func load(path: String) throws(SFZLoadError) -> SFZInstrument {
        let bytes: [UInt8]
        do {
            bytes = try SystemCall.readFile(path, limit: readLimit, what: "an SFZ file")
        } catch {
            throw SFZLoadError(path: path, reason: error.description)
        }
        return parse(bytes, path: path) { include in
            do throws(ReadFailure) {
                return .success(try SystemCall.readFile(include, limit: readLimit, what: "an SFZ file"))
            } catch {
                return .failure(SFZLoadError(path: include, reason: error.description))
            }
        }
    }

    /// Reads `bytes` as the SFZ file `path` (relative sample paths and includes are taken from its folder);
    /// `readInclude` reads each `#include`d file (refusing all of them reads the text alone).
    public static func parse(_ bytes: [UInt8], path: String, readInclude: @escaping SFZIncludeReader) -> SFZInstrument {
        var lexer = SFZLexer(readInclude: readInclude)
        lexer.read(bytes, path: path)
        var builder = SFZInstrumentBuilder(path: path)
        for token in lexer.tokens { builder.take(token) }
        var instrument = builder.finish()
        instrument.defines = lexer.defines
        return instrument
    }

    /// Each sample file the regions play, once, with the first `sample=` line that names it.
    public var sampleFiles: [(path: String, location: SFZLocation?)] {
        var seen: Set<String> = []
        var out: [(path: String, location: SFZLocation?)] = []
        for region in regions {
            guard case .file(let file)? = region.sample, seen.insert(file).inserted else { continue }
            out.append((file, region.sampleLocation))
        }
        return out
    }
}
