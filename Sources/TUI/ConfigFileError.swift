import Foundation
import Engine
import MIDI
import TOMLKit

/// An error in a theme or config file: names the file, the line, the key and what was expected.
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

/// Where keys are in a TOML text: TOMLKit gives values without lines, so a light scan finds the line of each
/// top-level key and of each `[table]` and its keys. (Mirrors Lifecycle's scenario `SourceMap`; the two
/// could share one helper in a small module.)
struct KeyLines {
    private(set) var top: [String: Int] = [:]
    private(set) var tables: [String: (line: Int, keys: [String: Int])] = [:]

    init(_ text: String) {
        var current: String?
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                let name = line.drop(while: { $0 == "[" }).prefix(while: { $0 != "]" }).trimmingCharacters(in: .whitespaces)
                if tables[name] == nil { tables[name] = (i + 1, [:]) }
                current = name
                continue
            }
            guard let key = Self.key(of: line[...]) else { continue }
            if let current {
                if tables[current]?.keys[key] == nil { tables[current]?.keys[key] = i + 1 }
            } else if top[key] == nil {
                top[key] = i + 1
            }
        }
    }

    /// The (first) key a `key = value` line sets: bare (`foo`), quoted (`"foo"`, `"a b"`, `"x=y"`) or literal
    /// (`'foo'`); the first part of a dotted key. Nil for anything else (comments, continuation lines).
    static func key(of line: Substring) -> String? {
        var rest = line
        var key = ""
        guard let first = rest.first else { return nil }
        if first == "\"" || first == "'" {
            rest = rest.dropFirst()
            while let c = rest.first, c != first {
                rest = rest.dropFirst()
                if c == "\\" && first == "\"", let escaped = rest.first {
                    rest = rest.dropFirst()
                    switch escaped {
                    case "n": key.append("\n")
                    case "t": key.append("\t")
                    case "\"", "\\": key.append(escaped)
                    default: key.append(c); key.append(escaped)
                    }
                } else {
                    key.append(c)
                }
            }
            guard rest.first == first else { return nil }
            rest = rest.dropFirst()
        } else {
            key = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
            rest = rest.dropFirst(key.count)
            if key.isEmpty { return nil }
        }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard let next = rest.first, next == "=" || next == "." else { return nil }
        return key
    }

    /// The line of `key` in `table` (nil: top level); the table's header line, else 1, when not found.
    func line(_ key: String, in table: String? = nil) -> Int {
        if let table { return tables[table]?.keys[key] ?? tables[table]?.line ?? 1 }
        return top[key] ?? tables[key]?.line ?? 1
    }
}

/// Reads a TOML file into a table, turning every failure into a `ConfigFileError`.
enum TOMLFile {
    static func read(path: String) throws(ConfigFileError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigFileError(file: path, line: 0, message: "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigFileError(file: path, line: 1, message: "not UTF-8 text")
        }
        OutputFile.protect(path)  // a config, theme or preset is never overwritten by a recording or render
        return text
    }

    static func parse(_ text: String, file: String) throws(ConfigFileError) -> TOMLTable {
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigFileError(file: file, line: error.source.begin.line, message: "TOML syntax: \(error.description)")
        } catch {
            throw ConfigFileError(file: file, line: 1, message: "TOML syntax: \(error)")
        }
    }
}
