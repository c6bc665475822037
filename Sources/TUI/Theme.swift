import Foundation
import MIDI
import Settings
import TextOutput
import TOML

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
///
/// or, starting from another theme and setting only what changes:
///
///     extends = "dark"
///     [styles]
///     title = { fg = "#ffaf00" }   # bg, bold... stay dark's
public struct Theme: Equatable, Sendable {
    public var name: String
    public var styles: [Style]

    public subscript(role: Role) -> Style {
        get { styles[role.index] }
        set { styles[role.index] = newValue }
    }

    /// A theme file's text. A theme without `extends` names every element: one that forgets one would draw
    /// it in an accident of colours. A theme with `extends = "NAME"` (a theme found like `--theme` finds one,
    /// or a path, relative to this file) starts from that theme, resolved the same way, and sets only what it
    /// changes; in each element it names, the fields it leaves out are the parent's.
    public static func parse(_ text: String, file: String,
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigFileError) -> Theme {
        try build(try ThemeSource.parse(text, file: file), chain: [], environment: environment)
    }

    /// Loads a theme file (and the themes it extends).
    public static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigFileError) -> Theme {
        try parse(try TOMLFile.read(path: path, what: "a theme"), file: path, environment: environment)
    }

    /// `chain`: the files already on the way down (canonical path, shown name), for the cycle check.
    private static func build(_ source: ThemeSource, chain: [(path: String, name: String)],
                              environment: [String: String]) throws(ConfigFileError) -> Theme {
        let chain = chain + [(canonicalPath(source.file), shownName(source.file))]
        guard let parent = source.parent else {
            let accepted = Role.allCases.map(\.rawValue).joined(separator: ", ")
            var styles = [Style]()
            for role in Role.allCases {
                guard let changes = source.styles[role] else {
                    throw ConfigFileError(file: source.file, line: source.stylesLine, message:
                        "[styles] does not name element \"\(role.rawValue)\"; a theme without \"extends\" names every element: \(accepted) (or start from a theme with extends = \"dark\" and set only what changes)")
                }
                styles.append(changes.applied(to: Style()))
            }
            return Theme(name: source.name, styles: styles)
        }
        let base: Theme
        switch locate(parent.name, from: source.file, environment: environment) {
        case .builtInDark:
            base = .builtInDark
        case .file(let path):
            let key = canonicalPath(path)
            if let first = chain.firstIndex(where: { $0.path == key }) {
                let names = chain[first...].map(\.name) + [chain[first].name]
                let hint = chain.count - first == 1 ? " (a theme cannot extend itself: name the parent by its path to start from another file of the same name)" : ""
                throw ConfigFileError(file: source.file, line: parent.line, message:
                    "extends = \"\(TerminalText.sanitized(parent.name))\" makes a cycle: \(names.map(TerminalText.sanitized).joined(separator: " -> "))\(hint)")
            }
            base = try build(try ThemeSource.parse(try TOMLFile.read(path: path, what: "a theme"), file: path), chain: chain, environment: environment)
        case .missingFile(let path):
            throw ConfigFileError(file: source.file, line: parent.line, message: "extends: no theme file at \(TerminalText.sanitized(path))")
        case .unknownName:
            throw ConfigFileError(file: source.file, line: parent.line, message:
                "extends: no theme named \"\(TerminalText.sanitized(parent.name))\"; available: \(availableNames(environment: environment).map(TerminalText.sanitized).joined(separator: ", "))")
        }
        return Theme(name: source.name, styles: Role.allCases.map { source.styles[$0]?.applied(to: base[$0]) ?? base[$0] })
    }

    private enum Location { case file(String), builtInDark, missingFile(String), unknownName }

    /// Where `extends` points: a path (has a `/` or ends in `.toml`, relative to the extending file's folder)
    /// or a name, looked up like `--theme`.
    private static func locate(_ nameOrPath: String, from file: String, environment: [String: String]) -> Location {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") {
            let path = nameOrPath.hasPrefix("/") ? nameOrPath
                : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(nameOrPath).path
            return FileManager.default.fileExists(atPath: path) ? .file(path) : .missingFile(path)
        }
        let name = nameOrPath == "default" ? "dark" : nameOrPath
        if let path = find(name, environment: environment) { return .file(path) }
        return name == "dark" ? .builtInDark : .unknownName
    }

    private static func find(_ name: String, environment: [String: String]) -> String? {
        searchDirectories(environment: environment).map { $0 + "/" + name + ".toml" }.first { FileManager.default.fileExists(atPath: $0) }
    }

    private static func canonicalPath(_ file: String) -> String {
        URL(fileURLWithPath: file).resolvingSymlinksInPath().standardizedFileURL.path
    }

    private static func shownName(_ file: String) -> String {
        (file as NSString).lastPathComponent.replacingOccurrences(of: ".toml", with: "")
    }

    /// Every theme name `--theme` and `extends` can find: the files in the search folders and the built-in dark.
    public static func availableNames(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var names: Set<String> = ["dark"]
        for directory in searchDirectories(environment: environment) {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where entry.hasSuffix(".toml") {
                names.insert(String(entry.dropLast(5)))
            }
        }
        return names.sorted()
    }

    /// Finds a theme by name or path: a path (has a `/` or ends in `.toml`) is read as is; a name is looked up in
    /// `$BACKBEAT_THEMES`, `$XDG_CONFIG_HOME/backbeat/themes`, then a `themes/` or `share/backbeat/themes/`
    /// folder next to or above the executable. "dark" is built in when no file is found.
    public static func resolve(_ nameOrPath: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigFileError) -> Theme {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml") { return try load(path: nameOrPath, environment: environment) }
        let name = nameOrPath == "default" ? "dark" : nameOrPath
        if let path = find(name, environment: environment) { return try load(path: path, environment: environment) }
        if name == "dark" { return .builtInDark }
        throw ConfigFileError(file: nameOrPath, line: 0, message: "no theme named \"\(TerminalText.sanitized(nameOrPath))\" in \(searchDirectories(environment: environment).map(TerminalText.sanitized).joined(separator: ", ")); available: \(availableNames(environment: environment).map(TerminalText.sanitized).joined(separator: ", "))")
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
