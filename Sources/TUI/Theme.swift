import Foundation
import MIDI
import TOMLKit

/// How one element looks: foreground, background and attributes.
public struct Style: Equatable, Sendable {
    public var fg: ThemeColor
    public var bg: ThemeColor
    public var bold = false
    public var reverse = false
    public var underline = false
    public init(fg: ThemeColor = .terminalDefault, bg: ThemeColor = .terminalDefault, bold: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.fg = fg; self.bg = bg; self.bold = bold; self.reverse = reverse; self.underline = underline
    }
}

/// A theme: a style for every `Role`. Read from `themes/NAME.toml`:
///
///     name = "dark"
///     [styles]
///     normal = { fg = "#c8c8c8", bg = "default" }
///     clip = { fg = "white", bg = "#d70000", bold = true }
///     meter_low = "green"          # a bare colour sets the foreground
public struct Theme: Equatable, Sendable {
    public var name: String
    public var styles: [Style]

    public subscript(role: Role) -> Style {
        get { styles[role.index] }
        set { styles[role.index] = newValue }
    }

    /// Every element must be named: a theme that forgets one would draw it in an accident of colours.
    public static func parse(_ text: String, file: String) throws(ConfigFileError) -> Theme {
        let lines = KeyLines(text)
        let root = try TOMLFile.parse(text, file: file)
        func fail(_ line: Int, _ message: String) -> ConfigFileError { ConfigFileError(file: file, line: line, message: message) }
        for key in root.keys.sorted(by: { lines.line($0) < lines.line($1) }) where !["name", "styles"].contains(key) {
            throw fail(lines.line(key), "unknown key \"\(key)\"; a theme has \"name\" and a [styles] table")
        }
        var name = (file as NSString).lastPathComponent.replacingOccurrences(of: ".toml", with: "")
        if let value = root["name"] {
            guard let s = value.string else { throw fail(lines.line("name"), "\"name\" must be a string") }
            name = s
        }
        guard let stylesValue = root["styles"] else { throw fail(1, "missing the [styles] table") }
        guard let styles = stylesValue.table else { throw fail(lines.line("styles"), "\"styles\" must be a table: [styles]") }
        let accepted = Role.allCases.map(\.rawValue)
        for key in styles.keys.sorted(by: { lines.line($0, in: "styles") < lines.line($1, in: "styles") }) where Role(rawValue: key) == nil {
            throw fail(lines.line(key, in: "styles"), "unknown element \"\(key)\" in [styles]; elements: \(accepted.joined(separator: ", "))")
        }
        var result = [Style]()
        for role in Role.allCases {
            let line = lines.line(role.rawValue, in: "styles")
            guard let value = styles[role.rawValue] else {
                throw fail(lines.tables["styles"]?.line ?? 1, "[styles] does not name element \"\(role.rawValue)\"; a theme names every element: \(accepted.joined(separator: ", "))")
            }
            result.append(try style(value, key: role.rawValue, line: line, fail: fail))
        }
        return Theme(name: name, styles: result)
    }

    private static func color(_ value: TOMLValueConvertible, key: String, line: Int, fail: (Int, String) -> ConfigFileError) throws(ConfigFileError) -> ThemeColor {
        if let n = value.int, let c = ThemeColor(text: String(n)) { return c }
        if let s = value.string, let c = ThemeColor(text: s) { return c }
        throw fail(line, "\"\(key)\": expected \(ThemeColor.expected); got \(value.debugDescription)")
    }

    private static func style(_ value: TOMLValueConvertible, key: String, line: Int, fail: (Int, String) -> ConfigFileError) throws(ConfigFileError) -> Style {
        guard let table = value.table else { return Style(fg: try color(value, key: key, line: line, fail: fail)) }
        var style = Style()
        for k in table.keys.sorted() {
            guard let v = table[k] else { continue }
            switch k {
            case "fg": style.fg = try color(v, key: "\(key).fg", line: line, fail: fail)
            case "bg": style.bg = try color(v, key: "\(key).bg", line: line, fail: fail)
            case "bold", "reverse", "underline":
                guard let b = v.bool else { throw fail(line, "\"\(key).\(k)\": expected true or false") }
                if k == "bold" { style.bold = b } else if k == "reverse" { style.reverse = b } else { style.underline = b }
            default:
                throw fail(line, "\"\(key)\": unknown field \"\(k)\"; accepted: fg, bg, bold, reverse, underline")
            }
        }
        return style
    }

    /// Loads a theme file.
    public static func load(path: String) throws(ConfigFileError) -> Theme {
        try parse(try TOMLFile.read(path: path), file: path)
    }

    /// Finds a theme by name or path: a path (has a `/` or ends in `.toml`) is read as is; a name is looked up in
    /// `$XDG_CONFIG_HOME/backbeat/themes`, `$BACKBEAT_THEMES`, then a `themes/` or `share/backbeat/themes/`
    /// folder next to or above the executable. "dark" is built in when no file is found.
    public static func resolve(_ nameOrPath: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigFileError) -> Theme {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") { return try load(path: nameOrPath) }
        let nameOrPath = nameOrPath == "default" ? "dark" : nameOrPath
        for directory in searchDirectories(environment: environment) {
            let path = directory + "/" + nameOrPath + ".toml"
            if FileManager.default.fileExists(atPath: path) { return try load(path: path) }
        }
        if nameOrPath == "dark" || nameOrPath == "default" { return .builtInDark }
        throw ConfigFileError(file: nameOrPath, line: 0, message: "no theme named \"\(TerminalText.sanitized(nameOrPath))\" in \(searchDirectories(environment: environment).map(TerminalText.sanitized).joined(separator: ", ")); built in: dark")
    }

    static func searchDirectories(environment: [String: String]) -> [String] {
        var dirs: [String] = []
        if let env = environment["BACKBEAT_THEMES"], !env.isEmpty { dirs.append(env) }
        dirs.append(Config.configDirectory(environment: environment) + "/themes")
        dirs.append(contentsOf: InstalledFiles.directories("themes"))
        // Near the root the walk up stays at "/": each folder once, written plainly ("/themes", not "//themes").
        var seen = Set<String>()
        return dirs.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.filter { seen.insert($0).inserted }
    }

    /// The default dark theme, built in so Backbeat draws well with no theme files installed
    /// (themes/dark.toml holds the same values).
    public static let builtInDark: Theme = {
        var s = [Style](repeating: Style(), count: Role.allCases.count)
        func set(_ r: Role, _ fg: String, _ bg: String = "default", bold: Bool = false, reverse: Bool = false) {
            s[r.index] = Style(fg: ThemeColor(text: fg)!, bg: ThemeColor(text: bg)!, bold: bold, reverse: reverse)
        }
        set(.normal, "#c6c6c6"); set(.dim, "#6c6c6c"); set(.border, "#4e4e4e"); set(.borderFocused, "#5fafff", bold: true)
        set(.title, "#87afd7", bold: true); set(.header, "#d0d0d0", "#262626"); set(.headerValue, "#ffffff", "#262626", bold: true)
        set(.badgeActive, "black", "#5faf5f", bold: true); set(.badgeWarning, "black", "#ffaf00", bold: true)
        set(.selected, "black", "#5fafff"); set(.statusLine, "#bcbcbc", "#303030"); set(.error, "#ff5f5f", bold: true)
        set(.meterLow, "#5faf5f"); set(.meterMid, "#d7d75f"); set(.meterHigh, "#ff5f5f"); set(.meterPeak, "#87875f")
        set(.meterTrack, "#3a3a3a"); set(.meterHold, "#ffffff", bold: true); set(.meterScale, "#808080")
        set(.clip, "white", "#d70000", bold: true); set(.clipOff, "#4e4e4e")
        set(.monitorTime, "#808080"); set(.monitorSource, "#87afd7"); set(.monitorNote, "#87d787"); set(.monitorControl, "#d7af87")
        set(.monitorSystem, "#af87d7"); set(.monitorLost, "#ff5f5f", bold: true); set(.monitorHex, "#6c6c6c")
        set(.whiteKey, "black", "#d0d0d0"); set(.blackKey, "#d0d0d0", "#121212")
        set(.noteOnSoft, "#005f87", "#005f87"); set(.noteOnMedium, "#0087d7", "#0087d7"); set(.noteOnLoud, "#5fd7ff", "#5fd7ff")
        set(.help, "#d0d0d0", "#1c1c1c")
        return Theme(name: "dark", styles: s)
    }()

    /// The theme as TOML (used to write themes/dark.toml and to check the shipped files).
    public var toml: String {
        var out = "# Backbeat theme. Every element is named; colours: \"#rrggbb\", 0...255, \"default\" or a name.\nname = \"\(name)\"\n\n[styles]\n"
        for role in Role.allCases {
            let st = self[role]
            var fields = ["fg = \"\(st.fg)\"", "bg = \"\(st.bg)\""]
            if st.bold { fields.append("bold = true") }
            if st.reverse { fields.append("reverse = true") }
            if st.underline { fields.append("underline = true") }
            out += "\(role.rawValue) = { \(fields.joined(separator: ", ")) }\n"
        }
        return out
    }
}
