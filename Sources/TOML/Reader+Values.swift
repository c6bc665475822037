// Values: which kind starts here, arrays, inline tables, booleans, integers and floats.

extension Reader {
    /// Parses the value at `pos`, held by a table or array at `depth`.
    mutating func parseValue(depth: Int) throws(ParseFailure) -> TOMLValue {
        guard let byte = peek() else { throw fail("expected a value, found end of input") }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .string(try parseString())
        case UInt8(ascii: "["):
            return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "{"):
            return .table(try parseInlineTable(depth: depth + 1))
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try parseBool())
        case UInt8(ascii: "0")...UInt8(ascii: "9") where startsDate():
            return .dateTime(try parseDateOrDateTime())
        case UInt8(ascii: "0")...UInt8(ascii: "9") where startsTime():
            return .dateTime(try parseLocalTime())
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "i"), UInt8(ascii: "n"):
            return try parseNumber()
        default:
            throw fail("expected a value, found \(describe(pos))")
        }
    }

    /// Checks that a boolean, number, date or time ends here (at whitespace, a newline, a comment, a comma or
    /// a closing bracket), not in the middle of something that looks like more of it.
    func checkScalarEnd(_ what: String) throws(ParseFailure) {
        guard let byte = peek() else { return }
        if byte.isBareKeyByte || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "+") {
            throw fail("unexpected \(describe(pos)) in \(what)")
        }
    }

    // MARK: Arrays and inline tables

    /// Parses `[value, ...]`: newlines and comments are allowed between values, and a trailing comma.
    private mutating func parseArray(depth: Int) throws(ParseFailure) -> [TOMLValue] {
        try checkDepth(depth)
        let open = pos
        pos += 1
        var values: [TOMLValue] = []
        while true {
            try skipBlankLines()
            if peek() == UInt8(ascii: "]") { break }
            values.append(try parseValue(depth: depth))
            try skipBlankLines()
            if peek() == UInt8(ascii: ",") {
                pos += 1
            } else if peek() == UInt8(ascii: "]") {
                break
            } else if pos == end {
                throw fail("unterminated array (opened on line \(line(at: open))): expected ']', found end of input")
            } else {
                throw fail("expected ',' or ']' after a value of the array, found \(describe(pos))")
            }
        }
        pos += 1
        return values
    }

    /// Parses `{ key = value, ... }`: on one line, without a trailing comma.
    private mutating func parseInlineTable(depth: Int) throws(ParseFailure) -> TOMLTable {
        try checkDepth(depth)
        let table = TableNode(line: line(at: pos), isSealed: false)
        pos += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            pos += 1
            return table.freeze()
        }
        while true {
            _ = try parseKeyValue(into: table, depth: depth)  // nothing to seal: the table is complete at '}'
            skipWhitespace()
            guard let byte = peek(), byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") else {
                let hint = peek() == UInt8(ascii: "\n") || peek() == UInt8(ascii: "\r") ? " (an inline table must be on one line)" : ""
                throw fail("expected ',' or '}' after a value of the inline table, found \(describe(pos))\(hint)")
            }
            pos += 1
            if byte == UInt8(ascii: "}") { return table.freeze() }
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { throw fail("an inline table cannot end with a comma") }
        }
    }

    // MARK: Booleans

    private mutating func parseBool() throws(ParseFailure) -> Bool {
        let value: Bool
        if lookingAt("true") {
            value = true
        } else if lookingAt("false") {
            value = false
        } else {
            throw fail("expected a value, found \(describe(pos)) (booleans are true and false, in lower case)")
        }
        pos += value ? 4 : 5
        try checkScalarEnd("a boolean")
        return value
    }

    // MARK: Numbers

    /// Parses an integer (decimal, `0x`, `0o` or `0b`) or a float (with a fraction and/or an exponent, or
    /// `inf` or `nan` with an optional sign). Underscores are allowed between digits.
    private mutating func parseNumber() throws(ParseFailure) -> TOMLValue {
        let start = pos
        let sign = peek().flatMap { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") ? $0 : nil }
        if sign != nil { pos += 1 }
        let negative = sign == UInt8(ascii: "-")
        if lookingAt("inf") || lookingAt("nan") {
            let value = base[pos] == UInt8(ascii: "i") ? Double.infinity : Double.nan
            pos += 3
            try checkScalarEnd("a float")
            return .float(negative ? -value : value)
        }
        if peek() == UInt8(ascii: "0"), let radix = peek(1).flatMap(Reader.radix) {
            let prefix = string(pos..<pos + 2)
            guard sign == nil else { throw fail("a sign is not allowed before \(prefix)", at: start) }
            pos += 2
            let digits = pos
            try skipDigits(radix: radix, expected: "a digit after \(prefix)")
            try checkScalarEnd("an integer")
            return .integer(try integer(digits..<pos, radix: radix, negative: false, at: start))
        }
        guard peek()?.isDecimalDigit == true else {
            throw fail(sign == nil ? "expected a value, found \(describe(pos))" : "expected a digit after the sign, found \(describe(pos))")
        }
        let digits = pos
        try skipDigits(radix: 10, expected: "a digit")
        if base[digits] == UInt8(ascii: "0") && pos - digits > 1 {
            throw fail("leading zeros are not allowed in a number", at: digits)
        }
        var isFloat = false
        if peek() == UInt8(ascii: ".") {
            pos += 1
            try skipDigits(radix: 10, expected: "a digit after the decimal point")
            isFloat = true
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            pos += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { pos += 1 }
            try skipDigits(radix: 10, expected: "a digit in the exponent")
            isFloat = true
        }
        try checkScalarEnd(isFloat ? "a float" : "an integer")
        return isFloat
            ? .float(try float(start..<pos))
            : .integer(try integer(digits..<pos, radix: 10, negative: negative, at: start))
    }

    /// The radix that `x`, `o` or `b` after a `0` gives.
    private static func radix(_ letter: UInt8) -> UInt64? {
        switch letter {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    /// Skips digits in `radix` with single underscores between them; at least one digit.
    private mutating func skipDigits(radix: UInt64, expected: String) throws(ParseFailure) {
        guard peek().flatMap({ Reader.digitValue($0, radix: radix) }) != nil else {
            throw fail("expected \(expected), found \(describe(pos))")
        }
        pos += 1
        while let byte = peek() {
            if Reader.digitValue(byte, radix: radix) != nil {
                pos += 1
            } else if byte == UInt8(ascii: "_") {
                guard peek(1).flatMap({ Reader.digitValue($0, radix: radix) }) != nil else {
                    throw fail("an underscore in a number must be between two digits")
                }
                pos += 2
            } else {
                return
            }
        }
    }

    /// The value of `byte` as a digit in `radix` (hexadecimal digits in either case), or nil.
    static func digitValue(_ byte: UInt8, radix: UInt64) -> UInt64? {
        let value: UInt8
        if byte.isDecimalDigit {
            value = byte - UInt8(ascii: "0")
        } else if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f") {
            value = byte - UInt8(ascii: "a") + 10
        } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F") {
            value = byte - UInt8(ascii: "A") + 10
        } else {
            return nil
        }
        return UInt64(value) < radix ? UInt64(value) : nil
    }

    /// The integer of the (checked) digits and underscores in `digits`; out of Int64's range is an error.
    private func integer(_ digits: Range<Int>, radix: UInt64, negative: Bool, at start: Int) throws(ParseFailure) -> Int {
        var magnitude: UInt64 = 0
        for i in digits {
            guard let digit = Reader.digitValue(base[i], radix: radix) else { continue }  // an underscore
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            guard !overflow && !carry else { throw integerOutOfRange(at: start) }
            magnitude = sum
        }
        if negative {
            guard magnitude <= Int.min.magnitude else { throw integerOutOfRange(at: start) }
            return magnitude == Int.min.magnitude ? Int.min : -Int(magnitude)
        }
        guard magnitude <= Int.max.magnitude else { throw integerOutOfRange(at: start) }
        return Int(magnitude)
    }

    private func integerOutOfRange(at start: Int) -> ParseFailure {
        fail("integer out of range (TOML integers are 64-bit: \(Int.min) to \(Int.max))", at: start)
    }

    /// The float of the (checked) text in `range`; a finite literal too large for a Double is an error.
    private func float(_ range: Range<Int>) throws(ParseFailure) -> Double {
        var text: [UInt8] = []
        text.reserveCapacity(range.count)
        for i in range where base[i] != UInt8(ascii: "_") { text.append(base[i]) }
        guard let value = Double(String(decoding: text, as: UTF8.self)) else {
            throw fail("invalid float", at: range.lowerBound)
        }
        guard value.isFinite else {
            throw fail("float out of range (beyond ±\(Double.greatestFiniteMagnitude))", at: range.lowerBound)
        }
        return value
    }
}
