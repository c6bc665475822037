import Engine
import Foundation
import MIDI
import TextOutput
import TOML

/// What an NSM session keeps of Backbeat, in the folder the session manager names (its instance path):
///
///     <path>/synth.toml     the synth's settings, a preset file (`SynthPreset`), the same for every channel,
///                           with the channel mixer's mute, solo and offsets (`PresetMixer`) when any is set
///     <path>/session.toml   the theme and the JACK connections of Backbeat's ports:
///
///         theme = "dark"                      # optional: the workstation's theme when the session opens
///         [connections]                       # the other ends of each port, full JACK port names
///         midi_in = ["a2j:Keystation [20] (capture): Keystation MIDI 1"]
///         out_L = ["system:playback_1"]
///         out_R = ["system:playback_2"]
///
/// A `soundfont` key is reserved for the SoundFont player (none yet). Each file is written to a temporary
/// name and renamed, so a save that fails half way leaves the last good state.
public struct SessionState: Equatable, Sendable {
    public var synth: SynthPreset?
    public var theme: String?
    /// By our port's short name (`midi_in`, `out_L`, `out_R`).
    public var connections: [String: [String]]

    public static let ports = ["midi_in", "out_L", "out_R"]

    public init(synth: SynthPreset? = nil, theme: String? = nil, connections: [String: [String]] = [:]) {
        self.synth = synth
        self.theme = theme
        self.connections = connections
    }

    public static func synthPath(_ directory: String) -> String { directory + "/synth.toml" }
    public static func sessionPath(_ directory: String) -> String { directory + "/session.toml" }

    /// The state in `directory`, or nil when the session is new (no folder there yet). A file that is
    /// there but wrong is an error naming the file and the line.
    public static func load(directory: String) throws(ConfigFileError) -> SessionState? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { throw ConfigFileError(file: directory, line: 0, message: "the NSM instance path is not a folder") }
        var state = SessionState()
        if FileManager.default.fileExists(atPath: synthPath(directory)) { state.synth = try SynthPreset.load(path: synthPath(directory)) }
        let file = sessionPath(directory)
        guard FileManager.default.fileExists(atPath: file) else { return state }
        let text = try TOMLFile.read(path: file, what: "a session file")
        let root = try TOMLFile.parse(text, file: file)
        let lines = KeyLines(root)
        for key in root.keys where !["theme", "connections", "soundfont"].contains(key) {
            throw ConfigFileError(file: file, line: lines.line(key), message: "unknown key \"\(TerminalText.sanitized(key))\"; a session has: theme, connections")
        }
        if let value = root["theme"] {
            guard let name = value.string else { throw ConfigFileError(file: file, line: lines.line("theme"), message: "\"theme\" must be a string; got \(value.debugDescription)") }
            state.theme = name
        }
        if let value = root["connections"] {
            guard let table = value.table else { throw ConfigFileError(file: file, line: lines.line("connections"), message: "\"connections\" must be a table") }
            for key in table.keys {
                let line = lines.line(key, in: "connections")
                guard ports.contains(key) else {
                    throw ConfigFileError(file: file, line: line, message: "unknown port \"\(TerminalText.sanitized(key))\"; Backbeat's ports: \(ports.joined(separator: ", "))")
                }
                guard let array = table[key]?.array, let names = Optional(array.compactMap { $0.string }), names.count == array.count else {
                    throw ConfigFileError(file: file, line: line, message: "connections.\(key) must be a list of JACK port names (strings)")
                }
                state.connections[key] = names
            }
        }
        return state
    }

    /// `s` as a TOML basic string (the TOML module's writer: every control character escaped).
    static func quoted(_ s: String) -> String { TOMLValue.string(s).debugDescription }

    /// The session file's text (ports in a fixed order, names quoted as TOML basic strings).
    public var sessionTOML: String {
        var out = "# Backbeat's NSM session state: the theme and the JACK connections of its ports. The synth's\n"
        out += "# settings are in synth.toml beside this file.\n"
        if let theme { out += "theme = \(Self.quoted(theme))\n" }
        out += "\n[connections]\n"
        for port in Self.ports {
            let names = (connections[port] ?? []).sorted().map(Self.quoted).joined(separator: ", ")
            out += "\(port) = [\(names)]\n"
        }
        return out
    }

    /// Writes both files into `directory` (made if missing), each atomically.
    public func save(directory: String) throws(ConfigFileError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ConfigFileError(file: directory, line: 0, message: "cannot create the session folder: \(error.localizedDescription)")
        }
        if let synth { try Self.writeAtomically(synth.toml, to: Self.synthPath(directory)) }
        try Self.writeAtomically(sessionTOML, to: Self.sessionPath(directory))
    }

    static func writeAtomically(_ text: String, to target: String) throws(ConfigFileError) {
        do { try OutputFile.write(Array(text.utf8), to: target, replacingReadFiles: true) } catch {  // it was read at start
            throw ConfigFileError(file: target, line: 0, message: "cannot write the session state: \(error)")
        }
    }
}
