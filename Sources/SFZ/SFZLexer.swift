/// One thing the SFZ text says, in order: a header (`<region>`), an opcode (`name=value`) or a problem the
/// reader found (kept in the stream so the instrument's diagnostics keep the text's order), with where it is.
struct SFZToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case header(String)
        case opcode(name: String, value: String)
        case diagnostic(String)
    }

    var kind: Kind
    var location: SFZLocation
}

/// Reads an included file: its text's bytes, or why it cannot be read.
public typealias SFZIncludeReader = (_ path: String) -> Result<[UInt8], SFZLoadError>

/// Turns SFZ text into headers and opcodes: comments removed, `#define` variables substituted, `#include`d
/// files read in place (relative to the including file's folder; a file that includes itself, directly or
/// not, and nesting deeper than `maximumIncludeDepth` are refused with a diagnostic).
///
/// A value runs to the end of its line, spaces included (`sample=My Piano C4.wav`), but stops before the next
/// `name=` on the same line, a header or a directive, as sfizz reads it; trailing blanks are dropped.
struct SFZLexer {
    static let maximumIncludeDepth = 16

    private(set) var tokens: [SFZToken] = []
    /// `#define $NAME value`, in the order read (a later definition replaces an earlier one).
    private(set) var defines: [String: String] = [:]
    /// The longest variable name defined, so a long `$word` is looked up only as far as a name could match.
    private var longestDefine = 0
    private let readInclude: SFZIncludeReader
    /// The files being read, outermost first (normalized paths), to refuse recursion.
    private var includeStack: [String] = []

    init(readInclude: @escaping SFZIncludeReader) { self.readInclude = readInclude }

    /// Reads `bytes` as the file `path` (the path names it in diagnostics and anchors its includes).
    mutating func read(_ bytes: [UInt8], path: String) {
        includeStack.append(SFZPath.normalized(path))
        defer { includeStack.removeLast() }
        var cursor = Cursor(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.position = 3 }
        while let byte = cursor.peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0C, 0x0B:
                cursor.position += 1
            case UInt8(ascii: "\n"):
                cursor.advanceLine()
            case UInt8(ascii: "/") where cursor.peek(1) == UInt8(ascii: "/"):
                cursor.skipToEndOfLine()
            case UInt8(ascii: "/") where cursor.peek(1) == UInt8(ascii: "*"):
                let line = cursor.line
                if !cursor.skipBlockComment() {
                    report(SFZDiagnostic(SFZLocation(file: path, line: line), "a /* comment is never closed with */"))
                }
            case UInt8(ascii: "<"):
                readHeader(&cursor, path: path)
            case UInt8(ascii: "#"):
                readDirective(&cursor, path: path)
            default:
                readOpcode(&cursor, path: path)
            }
        }
    }

    private mutating func report(_ diagnostic: SFZDiagnostic) {
        tokens.append(SFZToken(kind: .diagnostic(diagnostic.message), location: diagnostic.location))
    }

    private mutating func readHeader(_ cursor: inout Cursor, path: String) {
        let location = SFZLocation(file: path, line: cursor.line)
        let start = cursor.position + 1
        var end = start
        while end < cursor.bytes.count, ![UInt8(ascii: ">"), UInt8(ascii: "\n"), UInt8(ascii: "<")].contains(cursor.bytes[end]) { end += 1 }
        guard end < cursor.bytes.count, cursor.bytes[end] == UInt8(ascii: ">") else {
            report(SFZDiagnostic(location, "a header's '<' is not closed by '>' on its line; the text up to the next '<' or the line's end is ignored"))
            cursor.position = end
            return
        }
        cursor.position = end + 1
        let name = SFZText.trimmed(SFZText.string(cursor.bytes[start..<end]))
        tokens.append(SFZToken(kind: .header(name), location: location))
    }

    private mutating func readDirective(_ cursor: inout Cursor, path: String) {
        let location = SFZLocation(file: path, line: cursor.line)
        let lineBytes = cursor.restOfLine()
        let text = SFZText.trimmed(SFZText.string(lineBytes))
        cursor.skipToEndOfLine()
        if text.hasPrefix("#define") {
            let rest = SFZText.trimmed(String(text.dropFirst("#define".count)))
            guard rest.hasPrefix("$") else {
                report(SFZDiagnostic(location, "#define needs a variable and a value: '#define $NAME value'"))
                return
            }
            let name = String(rest.dropFirst().prefix { SFZText.isIdentifier($0) })
            let value = SFZText.trimmed(String(rest.dropFirst(1 + name.utf8.count)))
            guard !name.isEmpty, !value.isEmpty else {
                report(SFZDiagnostic(location, "#define needs a variable and a value: '#define $NAME value'"))
                return
            }
            // The value ends at the first blank (sfizz reads it so); a comment after it is not part of it.
            // Variables in it are replaced now, so `#define $B $A` takes $A's value.
            defines[name] = expand(String(value.prefix { $0 != " " && $0 != "\t" }), location: location)
            longestDefine = max(longestDefine, name.count)
        } else if text.hasPrefix("#include") {
            let rest = SFZText.trimmed(String(text.dropFirst("#include".count)))
            guard rest.hasPrefix("\""), let close = rest.dropFirst().firstIndex(of: "\"") else {
                report(SFZDiagnostic(location, "#include needs a quoted file name: '#include \"file.sfz\"'"))
                return
            }
            let target = expand(String(rest[rest.index(after: rest.startIndex)..<close]), location: location)
            // What follows the closing quote on the line is read after the included file, as sfizz does.
            if let open = lineBytes.firstIndex(of: UInt8(ascii: "\"")), let end = lineBytes[(open + 1)...].firstIndex(of: UInt8(ascii: "\"")) {
                cursor.position = end + 1
            }
            include(target, from: path, location: location)
        } else {
            report(SFZDiagnostic(location, "unknown directive '\(SFZText.clipped(text))'; #define and #include are accepted"))
        }
    }

    private mutating func include(_ target: String, from path: String, location: SFZLocation) {
        let resolved = SFZPath.normalized(SFZPath.resolve(target, relativeTo: SFZPath.folder(of: path)))
        if includeStack.contains(resolved) {
            report(SFZDiagnostic(location, "#include \"\(target)\" is refused: it would include \(resolved) inside itself"))
            return
        }
        if includeStack.count > Self.maximumIncludeDepth {
            report(SFZDiagnostic(location, "#include \"\(target)\" is refused: includes nest at most \(Self.maximumIncludeDepth) deep"))
            return
        }
        switch readInclude(resolved) {
        case .success(let bytes): read(bytes, path: resolved)
        case .failure(let error): report(SFZDiagnostic(location, "#include \"\(target)\": \(error)"))
        }
    }

    private mutating func readOpcode(_ cursor: inout Cursor, path: String) {
        let location = SFZLocation(file: path, line: cursor.line)
        let start = cursor.position
        while let b = cursor.peek(), SFZText.isNameByte(b) { cursor.position += 1 }
        let rawName = SFZText.string(cursor.bytes[start..<cursor.position])
        guard !rawName.isEmpty, cursor.peek() == UInt8(ascii: "=") else {
            // Not an opcode: skip the word (at least one byte) and say what it was.
            while let b = cursor.peek(), !SFZText.isBlank(b), b != UInt8(ascii: "\n"), b != UInt8(ascii: "\r"), b != UInt8(ascii: "<") {
                cursor.position += 1
            }
            if cursor.position == start { cursor.position += 1 }
            let word = SFZText.string(cursor.bytes[start..<cursor.position])
            report(SFZDiagnostic(location, "expected 'opcode=value' or a <header>, found '\(SFZText.clipped(word))'; it is ignored"))
            return
        }
        cursor.position += 1
        if rawName == "base64data" {
            // A <sample>'s embedded file runs over lines, up to the next header or directive (as sfizz reads it).
            while let b = cursor.peek(), b != UInt8(ascii: "<"), b != UInt8(ascii: "#") {
                if b == UInt8(ascii: "\n") { cursor.line += 1 }
                cursor.position += 1
            }
            tokens.append(SFZToken(kind: .opcode(name: rawName, value: ""), location: location))
            return
        }
        let valueEnd = Self.valueEnd(cursor.bytes, from: cursor.position)
        let value = SFZText.trimmed(SFZText.string(cursor.bytes[cursor.position..<valueEnd]))
        cursor.position = valueEnd
        let name = expand(rawName, location: location)
        tokens.append(SFZToken(kind: .opcode(name: name, value: expand(value, location: location)), location: location))
    }

    /// Where the value starting at `start` ends: the end of its line or a comment, or the blank before the
    /// next `name=`, `<header>` or `#directive` on the same line.
    static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") { return i }
            if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") || bytes[i + 1] == UInt8(ascii: "*") { return i }
            if b == UInt8(ascii: "<") { return i }
            if SFZText.isBlank(b) {
                var j = i
                while j < bytes.count, SFZText.isBlank(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "<") || isDirective(bytes, at: j) { return i }
                var k = j
                while k < bytes.count, SFZText.isNameByte(bytes[k]) { k += 1 }
                if k > j, k < bytes.count, bytes[k] == UInt8(ascii: "=") { return i }
                i = j
                continue
            }
            i += 1
        }
        return i
    }

    /// Whether `#define` or `#include` starts at `i` (another `#` is part of a value, as in `sample=Take #2.wav`).
    static func isDirective(_ bytes: [UInt8], at i: Int) -> Bool {
        bytes[i...].starts(with: Array("#define".utf8)) || bytes[i...].starts(with: Array("#include".utf8))
    }

    /// `text` with each `$NAME` that `#define` set replaced by its value (the longest defined name wins); an
    /// undefined `$NAME` stays as written, with a diagnostic.
    private mutating func expand(_ text: String, location: SFZLocation) -> String {
        guard text.contains("$") else { return text }
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            let word = after.prefix { SFZText.isIdentifier($0) }
            var matched: String?
            var length = min(word.count, longestDefine)
            while length > 0 {
                if let value = defines[String(word.prefix(length))] { matched = value; break }
                length -= 1
            }
            if let matched {
                out += matched
                rest = after.dropFirst(length)
            } else {
                if !word.isEmpty { report(SFZDiagnostic(location, "$\(SFZText.clipped(String(word))) is not defined by a #define; it stays as written")) }
                out += "$"
                rest = after
            }
        }
        return out + rest
    }

    /// A position in one file's bytes and its line.
    struct Cursor {
        let bytes: [UInt8]
        var position = 0
        var line = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        func peek(_ ahead: Int = 0) -> UInt8? { position + ahead < bytes.count ? bytes[position + ahead] : nil }

        mutating func advanceLine() { position += 1; line += 1 }

        /// The bytes from here to the line's end (without the newline).
        func restOfLine() -> ArraySlice<UInt8> {
            var end = position
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            return bytes[position..<end]
        }

        /// Moves to the line's newline (not past it, so the line count stays right).
        mutating func skipToEndOfLine() {
            while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
        }

        /// Moves past the `*/` closing the comment that starts here; false (at the end) if none closes it.
        mutating func skipBlockComment() -> Bool {
            position += 2
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") { position += 2; return true }
                if bytes[position] == UInt8(ascii: "\n") { line += 1 }
                position += 1
            }
            return false
        }
    }
}
