import Foundation
import Engine
import MIDI
import TextOutput
import TOML
import SystemPackage

/// An error in a theme, config, preset or session file: names the file, the line, the key and what was expected.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    public init(file: String, line: Int, message: String) { self.file = file; self.line = line; self.message = message }
    /// `file:line: message` (`file: message` when the error has no line), one line, the path escaped and the
    /// message's values (echoed from the file) made visible.
    public var description: String {
        let shown = TerminalText.sanitized(file)
        let said = TerminalText.visible(message)
        return line > 0 ? "\(shown):\(line): \(said)" : "\(shown): \(said)"
    }
}

/// Where keys are in a TOML file, for error messages: the parsed root table knows the line of each key and
/// each `[table]`.
public struct KeyLines {
    let root: TOMLTable
    public init(_ root: TOMLTable) { self.root = root }

    /// The line of `key` in `table` (nil: top level); the table's header line, else 1, when not found.
    public func line(_ key: String, in table: String? = nil) -> Int {
        guard let table else { return root.line(of: key) ?? 1 }
        guard let inner = root[table]?.table else { return root.line(of: table) ?? 1 }
        return inner.line(of: key) ?? inner.line
    }
}

/// Reads a TOML file into a table, turning every failure into a `ConfigFileError`.
public enum TOMLFile {
    /// `what`: the kind of file, for the size limit's message ("a config file").
    public static func read(path: String, what: String) throws(ConfigFileError) -> String {
        let bytes: [UInt8]
        do throws(ReadFailure) { bytes = try SystemCall.readFile(path, limit: ReadLimit.text, what: what) } catch {
            throw ConfigFileError(file: path, line: 0, message: "cannot read the file: \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigFileError(file: path, line: 1, message: "not UTF-8 text")
        }
        OutputFile.protect(path)  // a config, theme or preset is never overwritten by a recording or render
        return text
    }

    public static func parse(_ text: String, file: String) throws(ConfigFileError) -> TOMLTable {
        do {
            return try TOMLTable(string: text)
        } catch {
            throw ConfigFileError(file: file, line: error.line, message: "TOML syntax (column \(error.column)): \(error.message)")
        }
    }
}
