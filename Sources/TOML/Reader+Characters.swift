// Checking the input is UTF-8, and naming characters in error messages.

extension Reader {
    /// Throws at the first byte that does not start a well-formed UTF-8 sequence (overlong forms, surrogates
    /// and code points above U+10FFFF included), so that strings can later be made from any byte range.
    func validateUTF8() throws(ParseFailure) {
        var i = 0
        while i < end {
            let lead = base[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length = Reader.utf8SequenceLength(lead, base + i, end - i)
            guard length > 0 else { throw fail("invalid UTF-8 (byte 0x\(hex(lead, digits: 2)))", at: i) }
            i += length
        }
    }

    /// The length of the UTF-8 sequence at `bytes` (lead byte `lead`, at least 0x80) if it is well formed, or 0.
    private static func utf8SequenceLength(_ lead: UInt8, _ bytes: UnsafePointer<UInt8>, _ available: Int) -> Int {
        // The length and the range of the second byte (narrower than 0x80...0xBF where the lead byte alone
        // would allow an overlong form, a surrogate or a code point above U+10FFFF).
        let length: Int
        let second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return 0
        }
        guard available >= length, second.contains(bytes[1]) else { return 0 }
        for i in 2..<length where !bytes[i].isUTF8Continuation { return 0 }
        return length
    }

    /// The character at `offset` for a message: `'x'` for printable ASCII, `'é' (U+00E9)` for other printable
    /// characters, `U+0007` for control and invisible characters, "end of line", "end of input".
    func describe(_ offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let byte = base[offset]
        switch byte {
        case UInt8(ascii: "\n"): return "end of line"
        case UInt8(ascii: "\r") where offset + 1 < end && base[offset + 1] == UInt8(ascii: "\n"): return "end of line"
        case UInt8(ascii: " "): return "a space"
        case UInt8(ascii: "\t"): return "a tab"
        case UInt8(ascii: "'"): return "\"'\""
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0..<0x80: return "U+\(hex(UInt32(byte), digits: 4))"
        default: return describeScalar(at: offset)
        }
    }

    private func describeScalar(at offset: Int) -> String {
        var bytes = UnsafeBufferPointer(start: base + offset, count: min(4, end - offset)).makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&bytes) else {
            return "byte 0x\(hex(base[offset], digits: 2))"
        }
        let code = "U+\(hex(scalar.value, digits: 4))"
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
             .spaceSeparator, .nonspacingMark, .enclosingMark, .spacingMark:
            return code
        default:
            return "'\(Character(scalar))' (\(code))"
        }
    }
}

/// `value` in upper-case hexadecimal with leading zeros up to `digits` digits.
func hex<Value: BinaryInteger>(_ value: Value, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
}
