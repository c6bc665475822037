// Reading a document's bytes: the position, whitespace, comments and newlines, lines of offsets, and errors.

/// A parse error before it has a line and column: the byte offset where it was found.
struct ParseFailure: Error {
    let offset: Int
    let message: String
}

/// Reads keys and values from the UTF-8 bytes of a TOML document, for `Parser`, which puts them in tables.
///
/// Bytes are read through a raw pointer for speed (this runs in debug builds too); every read is checked
/// against `end`, by `peek` or by an explicit `pos < end`. Recursion (arrays and inline tables) is bounded by
/// `maxDepth`, and every loop moves `pos` forward, so no input can trap, overflow the stack or hang. The
/// struct holds no references, so that copying it (which debug builds do for each non-mutating call) is cheap.
struct Reader {
    /// How deeply tables and arrays may nest. Each part of a header or dotted key is one level, an array of
    /// tables two (the array and its table), each `[` or `{` of a value one more.
    static let maxDepth = 128

    let base: UnsafePointer<UInt8>
    let end: Int
    var pos = 0
    /// The last offset `line(at:)` counted up to, and its line.
    private var lineCursor = (offset: 0, line: 1)

    init(base: UnsafePointer<UInt8>, end: Int) {
        self.base = base
        self.end = end
    }

    // MARK: Reading bytes

    /// The byte `ahead` bytes after `pos`, or nil past the end.
    func peek(_ ahead: Int = 0) -> UInt8? {
        let offset = pos + ahead
        return offset < end ? base[offset] : nil
    }

    /// Whether the bytes at `pos` are the UTF-8 of `text`.
    func lookingAt(_ text: String) -> Bool {
        var offset = pos
        for byte in text.utf8 {
            guard offset < end, base[offset] == byte else { return false }
            offset += 1
        }
        return true
    }

    /// The string of the (validated UTF-8) bytes in `range`.
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// Appends the bytes in `range` to `buffer`.
    func append(_ range: Range<Int>, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    // MARK: Whitespace, comments, newlines

    /// Skips a byte order mark at the start of the document.
    mutating func skipByteOrderMark() {
        let byteOrderMark = "\u{FEFF}"
        if pos == 0 && lookingAt(byteOrderMark) { pos = byteOrderMark.utf8.count }
    }

    /// Skips spaces and tabs.
    mutating func skipWhitespace() {
        while pos < end, base[pos] == UInt8(ascii: " ") || base[pos] == UInt8(ascii: "\t") { pos += 1 }
    }

    /// Skips whitespace, comments and newlines (between the values of an array).
    mutating func skipBlankLines() throws(ParseFailure) {
        while let byte = peek() {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                pos += 1
            } else if byte == UInt8(ascii: "#") {
                try skipComment()
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                try skipNewline()
            } else {
                return
            }
        }
    }

    /// Skips a `#` comment up to (not including) the end of its line.
    mutating func skipComment() throws(ParseFailure) {
        pos += 1
        while pos < end {
            let byte = base[pos]
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n")) { return }
            if byte.isForbiddenControl { throw fail("\(describe(pos)) is not allowed in a comment") }
            pos += 1
        }
    }

    /// Skips the line feed or CR LF at `pos`.
    mutating func skipNewline() throws(ParseFailure) {
        if peek() == UInt8(ascii: "\r") {
            guard peek(1) == UInt8(ascii: "\n") else { throw loneCarriageReturn() }
            pos += 1
        }
        pos += 1
    }

    /// Ends a line after a header or a key/value pair: whitespace, an optional comment, then a newline or the
    /// end of the document.
    mutating func finishLine(after what: String) throws(ParseFailure) {
        skipWhitespace()
        if peek() == UInt8(ascii: "#") { try skipComment() }
        guard let byte = peek() else { return }
        guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
            throw fail("expected a new line after \(what), found \(describe(pos))")
        }
        try skipNewline()
    }

    // MARK: Lines and errors

    /// The 1-based line of `offset`. Counts line feeds from the last offset asked about, which is cheap while
    /// offsets only grow (as they do during a parse).
    mutating func line(at offset: Int) -> Int {
        if offset < lineCursor.offset { lineCursor = (0, 1) }
        var (i, line) = lineCursor
        let stop = min(offset, end)
        while i < stop {
            if base[i] == UInt8(ascii: "\n") { line += 1 }
            i += 1
        }
        lineCursor = (offset, line)
        return line
    }

    /// An error at `offset` (by default the current position).
    func fail(_ message: String, at offset: Int? = nil) -> ParseFailure {
        ParseFailure(offset: offset ?? pos, message: message)
    }

    func loneCarriageReturn() -> ParseFailure {
        fail("a carriage return (U+000D) must be followed by a line feed")
    }

    /// Checks that something at `depth` is not nested too deeply.
    func checkDepth(_ depth: Int, at offset: Int? = nil) throws(ParseFailure) {
        guard depth <= Reader.maxDepth else { throw fail("nesting deeper than \(Reader.maxDepth)", at: offset) }
    }

    /// The public error for `failure`: its line, and its column in Unicode scalars.
    mutating func located(_ failure: ParseFailure) -> TOMLError {
        let offset = min(failure.offset, end)
        let line = line(at: offset)
        var lineStart = offset
        while lineStart > 0, base[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var column = 1
        for i in lineStart..<offset where !base[i].isUTF8Continuation { column += 1 }
        return TOMLError(line: line, column: column, message: failure.message)
    }
}

extension UInt8 {
    /// A–Z, a–z, 0–9, `_` or `-`: a byte of a bare key.
    var isBareKeyByte: Bool {
        (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || isDecimalDigit || self == UInt8(ascii: "_") || self == UInt8(ascii: "-")
    }

    var isDecimalDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    /// A control character that TOML allows in no comment or string: U+0000–U+001F except tab, and U+007F.
    var isForbiddenControl: Bool { (self < 0x20 && self != UInt8(ascii: "\t")) || self == 0x7F }

    var isUTF8Continuation: Bool { self & 0xC0 == 0x80 }
}
