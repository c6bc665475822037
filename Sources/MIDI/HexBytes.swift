/// A hex text that is not a list of bytes: which token, where.
public struct HexParseError: Error, Equatable, CustomStringConvertible {
    /// The offending whitespace-separated token, as written.
    public var token: String
    /// 1-based number of the token in the input.
    public var tokenNumber: Int
    /// 0-based character offset of the token in the input.
    public var offset: Int
    /// What is wrong with it.
    public var reason: String

    public var description: String {
        "bad hex token '\(token)' (token \(tokenNumber), at character \(offset)): \(reason)"
    }
}

/// Reads bytes written as hex text.
public enum HexBytes {
    /// Parses whitespace-separated hex: single pairs ("90 3C 64"), contiguous pairs ("903C64") or both,
    /// each token with an optional 0x prefix ("0x90 0x3c"). Case-insensitive.
    public static func parse(_ text: String) throws(HexParseError) -> [UInt8] {
        var bytes: [UInt8] = []
        var tokenNumber = 0
        var token: [Unicode.Scalar] = []
        var tokenStart = 0
        var offset = 0

        func digit(_ s: Unicode.Scalar) -> UInt8? {
            switch s.value {
            case 0x30...0x39: UInt8(s.value - 0x30)
            case 0x41...0x46: UInt8(s.value - 0x41 + 10)
            case 0x61...0x66: UInt8(s.value - 0x61 + 10)
            default: nil
            }
        }
        func flush() throws(HexParseError) {
            guard !token.isEmpty else { return }
            tokenNumber += 1
            var digits = token[...]
            if digits.count >= 2, digits[0] == "0", digits[1] == "x" || digits[1] == "X" { digits = digits.dropFirst(2) }
            func fail(_ reason: String) -> HexParseError {
                var text = ""
                text.unicodeScalars.append(contentsOf: token)
                return HexParseError(token: text, tokenNumber: tokenNumber, offset: tokenStart, reason: reason)
            }
            if digits.isEmpty { throw fail("no hex digits") }
            if let bad = digits.first(where: { digit($0) == nil }) { throw fail("'\(bad)' is not a hex digit") }
            if digits.count % 2 != 0 { throw fail("odd number of hex digits") }
            var i = digits.startIndex
            while i < digits.endIndex {
                bytes.append(digit(digits[i])! << 4 | digit(digits[i + 1])!)
                i += 2
            }
            token.removeAll(keepingCapacity: true)
        }

        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                try flush()
            } else {
                if token.isEmpty { tokenStart = offset }
                token.append(scalar)
            }
            offset += 1
        }
        try flush()
        return bytes
    }
}
