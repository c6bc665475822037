import Engine
import Foundation
import MIDI
#if canImport(Glibc)
import Glibc
import TextOutput
#endif

/// The saved synth presets: `NAME.toml` files in one folder, `$XDG_DATA_HOME/backbeat/presets` (default
/// `~/.local/share/backbeat/presets`).
public struct PresetLibrary: Sendable {
    public var directory: String

    public init(directory: String) { self.directory = directory }

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(directory: Self.defaultDirectory(environment: environment))
    }

    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/backbeat/presets" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/backbeat/presets"
    }

    public func path(of name: String) -> String { directory + "/" + name + ".toml" }

    /// The saved presets' names, in natural order (preset-2 before preset-10); none when there is no folder.
    public func names() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }
            .sorted { $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending }
    }

    /// `preset-N` for the smallest N not saved yet.
    public func nextFreeName() -> String {
        let taken = Set(names())
        var n = 1
        while taken.contains("preset-\(n)") { n += 1 }
        return "preset-\(n)"
    }

    /// Why `name` cannot name a preset file, or nil when it can.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a preset needs a name" }
        if name.contains("/") { return "a preset name cannot contain \"/\" (it names a file in the presets folder)" }
        if name.hasPrefix(".") { return "a preset name cannot start with \".\"" }
        if name.unicodeScalars.contains(where: { !TerminalText.isPrintable($0) }) { return "a preset name cannot contain control characters" }
        if name.utf8.count > 100 { return "a preset name has at most 100 bytes" }
        return nil
    }

    /// A preset by name (in this folder) or path (has a `/` or ends in `.toml`), as `--preset` takes it.
    public func resolve(_ nameOrPath: String) throws(ConfigFileError) -> SynthPreset {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") {
            guard FileManager.default.fileExists(atPath: nameOrPath) else {
                throw ConfigFileError(file: nameOrPath, line: 0, message: "no such preset file")
            }
            return try SynthPreset.load(path: nameOrPath)
        }
        let path = path(of: nameOrPath)
        guard FileManager.default.fileExists(atPath: path) else {
            let saved = names()
            throw ConfigFileError(file: nameOrPath, line: 0, message: "no preset named \"\(TerminalText.sanitized(nameOrPath))\" in "
                + TerminalText.sanitized(directory) + "; "
                + (saved.isEmpty ? "none saved yet (s in the synth panel saves one)" : "saved: " + saved.map(TerminalText.sanitized).joined(separator: ", ")))
        }
        return try SynthPreset.load(path: path)
    }

    /// Writes `preset` as `NAME.toml`, creating the folder: to a temporary file beside it, then renamed into
    /// place, so the file is the old one or the new one, never half of either. Returns the path.
    @discardableResult
    public func save(_ preset: SynthPreset, as name: String) throws(ConfigFileError) -> String {
        if let problem = Self.problem(withName: name) { throw ConfigFileError(file: name, line: 0, message: problem) }
        let target = path(of: name)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ConfigFileError(file: directory, line: 0, message: "cannot create the presets folder: \(error.localizedDescription)")
        }
        // Saving over the preset that was loaded (with --preset) is what saving is for.
        do { try OutputFile.write(Array(preset.toml.utf8), to: target, replacingReadFiles: true) } catch {
            throw ConfigFileError(file: target, line: 0, message: "cannot write the preset: \(error)")
        }
        return target
    }
}
