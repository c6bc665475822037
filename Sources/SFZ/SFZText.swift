/// Character classes and small string helpers of the SFZ reader.
enum SFZText {
    static func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == 0x0C || b == 0x0B }

    /// A byte of an opcode name as written: letters, digits, `_`, and `$` (a `#define` variable).
    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
    }

    /// A character of a `#define` variable's name: ASCII letters, digits and `_`.
    static func isIdentifier(_ c: Character) -> Bool {
        guard let a = c.asciiValue else { return false }
        return isNameByte(a) && a != UInt8(ascii: "$")
    }

    /// The bytes as text (invalid UTF-8 becomes U+FFFD).
    static func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// `s` without leading and trailing blanks and line ends.
    static func trimmed(_ s: String) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\u{0C}" || $0 == "\u{0B}" }
        guard let first = s.firstIndex(where: { !blank($0) }), let last = s.lastIndex(where: { !blank($0) }) else { return "" }
        return String(s[first...last])
    }

    /// `s` cut to 60 characters for a message, control characters shown as U+XXXX.
    static func clipped(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars.prefix(60) {
            if scalar.value < 0x20 || scalar.value == 0x7F || (scalar.value >= 0x80 && scalar.value < 0xA0) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return s.unicodeScalars.count > 60 ? out + "..." : out
    }
}

/// Paths as SFZ writes them: `/` or `\` between folders, relative to a folder.
enum SFZPath {
    /// The folder holding `path` ("" for a bare file name, "/" for a file at the root).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` (backslashes read as `/`) taken from `folder` unless it is absolute.
    static func resolve(_ path: String, relativeTo folder: String) -> String {
        let path = path.replacing("\\", with: "/")
        if path.hasPrefix("/") || folder.isEmpty { return path }
        return folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }

    /// `path` without `.` parts, doubled slashes and `name/..` pairs (a leading `..` of a relative path stays).
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
