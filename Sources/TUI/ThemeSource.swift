import Foundation
import MIDI
import Settings
import TOML

/// The fields one `[styles]` entry names; the others come from the parent theme's style for that element
/// (from the terminal's defaults, no attributes, in a theme without `extends`).
struct StyleChanges: Equatable, Sendable {
    var fg: ThemeColor?
    var bg: ThemeColor?
    var bold: Bool?
    var reverse: Bool?
    var underline: Bool?

    func applied(to base: Style) -> Style {
        Style(fg: fg ?? base.fg, bg: bg ?? base.bg, bold: bold ?? base.bold, reverse: reverse ?? base.reverse,
              underline: underline ?? base.underline)
    }
}

/// One theme file as written: its name, the theme it `extends` (if any) and the elements it sets.
struct ThemeSource: Sendable {
    var file: String
    var name: String
    /// `extends = "NAME"` (or a path) and its line.
    var parent: (name: String, line: Int)?
    var styles: [Role: StyleChanges]
    /// Line of the `[styles]` header (1 when there is none).
    var stylesLine: Int

    static let keys = ["name", "extends", "styles"]

    static func parse(_ text: String, file: String) throws(ConfigFileError) -> ThemeSource {
        let root = try TOMLFile.parse(text, file: file)
        let lines = KeyLines(root)
        func fail(_ line: Int, _ message: String) -> ConfigFileError { ConfigFileError(file: file, line: line, message: message) }
        for key in root.keys.sorted(by: { lines.line($0) < lines.line($1) }) where !keys.contains(key) {
            throw fail(lines.line(key), "unknown key \"\(key)\"; a theme has \"name\", \"extends\" and a [styles] table")
        }
        var name = (file as NSString).lastPathComponent.replacingOccurrences(of: ".toml", with: "")
        if let value = root["name"] {
            guard let s = value.string else { throw fail(lines.line("name"), "\"name\" must be a string") }
            name = s
        }
        var parent: (String, Int)?
        if let value = root["extends"] {
            guard let s = value.string, !s.isEmpty else {
                throw fail(lines.line("extends"), "\"extends\" must be the name of a theme (such as \"dark\") or a path to one")
            }
            parent = (s, lines.line("extends"))
        }
        var result: [Role: StyleChanges] = [:]
        if let stylesValue = root["styles"] {
            guard let styles = stylesValue.table else { throw fail(lines.line("styles"), "\"styles\" must be a table: [styles]") }
            let accepted = Role.allCases.map(\.rawValue)
            for key in styles.keys.sorted(by: { lines.line($0, in: "styles") < lines.line($1, in: "styles") }) where Role(rawValue: key) == nil {
                throw fail(lines.line(key, in: "styles"), "unknown element \"\(key)\" in [styles]; elements: \(accepted.joined(separator: ", "))")
            }
            for role in Role.allCases {
                guard let value = styles[role.rawValue] else { continue }
                result[role] = try changes(value, key: role.rawValue, line: lines.line(role.rawValue, in: "styles"), fail: fail)
            }
        } else if parent == nil {
            throw fail(1, "missing the [styles] table (or \"extends\" = a theme to start from)")
        }
        return ThemeSource(file: file, name: name, parent: parent, styles: result, stylesLine: root["styles"]?.table?.line ?? 1)
    }

    private static func color(_ value: TOMLValue, key: String, line: Int, fail: (Int, String) -> ConfigFileError) throws(ConfigFileError) -> ThemeColor {
        if let n = value.int, let c = ThemeColor(text: String(n)) { return c }
        if let s = value.string, let c = ThemeColor(text: s) { return c }
        throw fail(line, "\"\(key)\": expected \(ThemeColor.expected); got \(value.debugDescription)")
    }

    /// A table of fields, or a bare colour (the foreground).
    private static func changes(_ value: TOMLValue, key: String, line: Int, fail: (Int, String) -> ConfigFileError) throws(ConfigFileError) -> StyleChanges {
        guard let table = value.table else { return StyleChanges(fg: try color(value, key: key, line: line, fail: fail)) }
        var changes = StyleChanges()
        for k in table.keys.sorted() {
            guard let v = table[k] else { continue }
            switch k {
            case "fg": changes.fg = try color(v, key: "\(key).fg", line: line, fail: fail)
            case "bg": changes.bg = try color(v, key: "\(key).bg", line: line, fail: fail)
            case "bold", "reverse", "underline":
                guard let b = v.bool else { throw fail(line, "\"\(key).\(k)\": expected true or false") }
                if k == "bold" { changes.bold = b } else if k == "reverse" { changes.reverse = b } else { changes.underline = b }
            default:
                throw fail(line, "\"\(key)\": unknown field \"\(k)\"; accepted: fg, bg, bold, reverse, underline")
            }
        }
        return changes
    }
}
