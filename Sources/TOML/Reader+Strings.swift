// Strings: basic ("..."), literal ('...') and their multi-line forms, with escapes.

extension Reader {
    /// Parses a string of any kind: basic, literal, multi-line basic or multi-line literal.
    mutating func parseString() throws(ParseFailure) -> String {
        let quote = base[pos]
        if peek(1) == quote && peek(2) == quote { return try parseMultiline(quote: quote) }
        return quote == UInt8(ascii: "\"") ? try parseBasicString() : try parseLiteralString()
    }

    /// Parses `"..."` with escapes.
    mutating func parseBasicString() throws(ParseFailure) -> String {
        pos += 1
        var text: [UInt8] = []
        var run = pos
        while true {
            guard pos < end else { throw fail("unterminated string: expected '\"', found end of input") }
            let byte = base[pos]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                append(run..<pos, to: &text)
                if byte == UInt8(ascii: "\"") { break }
                try parseEscape(into: &text)
                run = pos
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                throw fail("unterminated string: expected '\"', found end of line (a string on several lines needs \"\"\")")
            } else if byte.isForbiddenControl {
                throw fail("\(describe(pos)) must be escaped in a string")
            } else {
                pos += 1
            }
        }
        pos += 1
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses `'...'`: no escapes.
    mutating func parseLiteralString() throws(ParseFailure) -> String {
        pos += 1
        let start = pos
        while true {
            guard pos < end else { throw fail("unterminated string: expected \"'\", found end of input") }
            let byte = base[pos]
            if byte == UInt8(ascii: "'") { break }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                throw fail("unterminated string: expected \"'\", found end of line (a string on several lines needs ''')")
            }
            if byte.isForbiddenControl { throw fail("\(describe(pos)) is not allowed in a literal string") }
            pos += 1
        }
        pos += 1
        return string(start..<pos - 1)
    }

    /// Parses a multi-line string delimited by three `quote`s: `"""` (basic: escapes, and a backslash at the
    /// end of a line trims the newline and the whitespace after it) or `'''` (literal). A newline right after
    /// the opening delimiter is dropped, newlines are kept (CR LF as LF), and one or two quotes may stand
    /// anywhere (right before the closing delimiter too).
    private mutating func parseMultiline(quote: UInt8) throws(ParseFailure) -> String {
        let hasEscapes = quote == UInt8(ascii: "\"")
        let open = pos
        pos += 3
        if peek() == UInt8(ascii: "\n") || peek() == UInt8(ascii: "\r") { try skipNewline() }
        var text: [UInt8] = []
        while true {
            guard pos < end else {
                throw fail("unterminated multi-line string: no closing \(String(repeating: Character(Unicode.Scalar(quote)), count: 3))",
                           at: open)
            }
            let byte = base[pos]
            if byte == quote {
                var quotes = 1
                while peek(quotes) == quote { quotes += 1 }
                let kept = quotes >= 3 ? min(quotes - 3, 2) : quotes
                text.append(contentsOf: repeatElement(quote, count: kept))
                pos += kept
                if quotes >= 3 {
                    pos += 3
                    return String(decoding: text, as: UTF8.self)
                }
            } else if byte == UInt8(ascii: "\\") && hasEscapes {
                if try !skipLineEndingBackslash() { try parseEscape(into: &text) }
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                try skipNewline()
                text.append(UInt8(ascii: "\n"))
            } else if byte.isForbiddenControl {
                throw fail("\(describe(pos)) is not allowed in a string" + (hasEscapes ? " (escape it)" : ""))
            } else {
                let run = pos
                pos += 1
                while pos < end, base[pos] != quote, base[pos] != UInt8(ascii: "\\"), base[pos] >= 0x20 || base[pos] == UInt8(ascii: "\t"),
                      base[pos] != 0x7F {
                    pos += 1
                }
                append(run..<pos, to: &text)
            }
        }
    }

    /// If the backslash at `pos` ends its line (only whitespace follows it there), skips it and all the
    /// whitespace and newlines after it, and returns true.
    private mutating func skipLineEndingBackslash() throws(ParseFailure) -> Bool {
        var next = pos + 1
        while next < end, base[next] == UInt8(ascii: " ") || base[next] == UInt8(ascii: "\t") { next += 1 }
        guard next < end, base[next] == UInt8(ascii: "\n") || base[next] == UInt8(ascii: "\r") else {
            if next > pos + 1 { throw fail("a backslash followed by whitespace must be the last thing on its line") }
            return false
        }
        pos = next
        try skipBlankLinesInString()
        return true
    }

    /// Skips whitespace and newlines (after a line-ending backslash).
    private mutating func skipBlankLinesInString() throws(ParseFailure) {
        while let byte = peek() {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                pos += 1
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                try skipNewline()
            } else {
                return
            }
        }
    }

    /// Parses the escape sequence at `pos` (at its backslash) and appends its character's UTF-8.
    mutating func parseEscape(into text: inout [UInt8]) throws(ParseFailure) {
        let start = pos
        guard let letter = peek(1) else { throw fail("expected an escape sequence after '\\', found end of input") }
        pos += 2
        switch letter {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(letter)
        case UInt8(ascii: "u"): text.append(contentsOf: try parseUnicodeEscape(digits: 4, at: start).utf8)
        case UInt8(ascii: "U"): text.append(contentsOf: try parseUnicodeEscape(digits: 8, at: start).utf8)
        default:
            let shown = letter >= 0x21 && letter <= 0x7E ? "'\\\(Character(Unicode.Scalar(letter)))'" : "'\\' followed by \(describe(start + 1))"
            throw fail("invalid escape sequence \(shown) (TOML has \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", at: start)
        }
    }

    /// The Unicode scalar of the `digits` hexadecimal digits at `pos` (after `\u` or `\U` at `start`).
    private mutating func parseUnicodeEscape(digits: Int, at start: Int) throws(ParseFailure) -> Unicode.Scalar {
        let escape = digits == 4 ? "\\u" : "\\U"
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let digit = peek().flatMap({ Reader.digitValue($0, radix: 16) }) else {
                throw fail("expected \(digits) hexadecimal digits after \(escape), found \(describe(pos))")
            }
            value = value << 4 | UInt32(digit)
            pos += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw fail("\(escape)\(hex(value, digits: digits)) is not a Unicode scalar value "
                       + "(surrogates D800 to DFFF and values above 10FFFF are not)", at: start)
        }
        return scalar
    }
}
