import TextOutput
/// Reads hex text as it arrives, in chunks of any size: the bytes of every complete pair of digits come out
/// at once, so a pipe is decoded while it is still open. Same syntax as ``HexBytes/parse(_:)``: whitespace
/// separates tokens, a token is one or more pairs with an optional 0x prefix.
///
/// A token is known to be bad only when it is (a character that is not a hex digit, no digits, an odd number
/// of them): the pairs before that point have already come out. The error names the token as written (its
/// first 64 characters), its number and its character offset.
public struct HexReader {
    /// Longest part of a bad token quoted in the error.
    static let quotedLimit = 64

    private var offset = 0            // characters (Unicode scalars) read so far
    private var tokenNumber = 0
    private var tokenStart = 0
    private var inToken = false
    private var tokenLength = 0       // characters in the token so far
    private var digits = 0            // hex digits in the token, after the prefix
    private var pendingNibble: Int = -1
    private var firstWasZero = false
    private var tokenText: [Unicode.Scalar] = []
    private var failure: String?      // set when the token is bad; reported when it ends

    // UTF-8 decoding of non-ASCII scalars (only whitespace is acceptable there, but it must be recognised).
    private var scalarValue: UInt32 = 0
    private var continuationBytes = 0
    private var scalarLowest: UInt32 = 0
    private var byteOffset = 0
    private var scalarStartByte = 0

    public init() {}

    /// Reads `chunk`, appending the bytes of complete pairs to `bytes`.
    public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) throws(HexInputError) {
        for byte in chunk {
            defer { byteOffset &+= 1 }
            if continuationBytes > 0 {
                guard byte & 0xC0 == 0x80 else { throw notUTF8(byte) }
                scalarValue = scalarValue << 6 | UInt32(byte & 0x3F)
                continuationBytes -= 1
                if continuationBytes > 0 { continue }
                guard scalarValue >= scalarLowest, let scalar = Unicode.Scalar(scalarValue) else { throw notUTF8(byte, at: scalarStartByte) }
                try take(scalar, into: &bytes)
                continue
            }
            if byte < 0x80 {
                try take(Unicode.Scalar(byte), into: &bytes)
                continue
            }
            scalarStartByte = byteOffset
            switch byte {
            case 0xC2...0xDF: scalarValue = UInt32(byte & 0x1F); continuationBytes = 1; scalarLowest = 0x80
            case 0xE0...0xEF: scalarValue = UInt32(byte & 0x0F); continuationBytes = 2; scalarLowest = 0x800
            case 0xF0...0xF4: scalarValue = UInt32(byte & 0x07); continuationBytes = 3; scalarLowest = 0x10000
            default: throw notUTF8(byte)
            }
        }
    }

    /// Ends the text: the last token is checked.
    public mutating func finish(into bytes: inout [UInt8]) throws(HexInputError) {
        if continuationBytes > 0 { throw HexInputError.notUTF8(byte: nil, byteOffset: scalarStartByte) }
        try endToken()
    }

    private func notUTF8(_ byte: UInt8, at position: Int? = nil) -> HexInputError {
        .notUTF8(byte: byte, byteOffset: position ?? byteOffset)
    }

    private mutating func take(_ scalar: Unicode.Scalar, into bytes: inout [UInt8]) throws(HexInputError) {
        defer { offset += 1 }
        let v = scalar.value
        let isSpace = v == 0x20 || (0x09...0x0D).contains(v) || (v >= 0x80 && scalar.properties.isWhitespace)
        if isSpace {
            try endToken()
            return
        }
        if !inToken {
            inToken = true
            tokenNumber += 1
            tokenStart = offset
            tokenLength = 0
            digits = 0
            pendingNibble = -1
            firstWasZero = false
            tokenText.removeAll(keepingCapacity: true)
        }
        if tokenText.count < Self.quotedLimit { tokenText.append(scalar) }
        tokenLength += 1
        guard failure == nil else { return }
        if tokenLength == 2 && firstWasZero && (v == 0x78 || v == 0x58) {  // "0x": a prefix, not digits
            digits = 0
            pendingNibble = -1
            return
        }
        guard let nibble = Self.nibble(v) else {
            failure = "'\(TerminalText.sanitized(String(scalar)))' is not a hex digit"
            return
        }
        if tokenLength == 1 && nibble == 0 { firstWasZero = true }
        digits += 1
        if pendingNibble < 0 {
            pendingNibble = Int(nibble)
        } else {
            bytes.append(UInt8(pendingNibble) << 4 | nibble)
            pendingNibble = -1
        }
    }

    private mutating func endToken() throws(HexInputError) {
        guard inToken else { return }
        inToken = false
        if failure == nil {
            if digits == 0 { failure = "no hex digits" } else if pendingNibble >= 0 { failure = "odd number of hex digits" }
        }
        if let reason = failure {
            var text = ""
            text.unicodeScalars.append(contentsOf: tokenText)
            if tokenLength > tokenText.count { text += "..." }
            throw .badToken(HexParseError(token: text, tokenNumber: tokenNumber, offset: tokenStart, reason: reason))
        }
    }

    static func nibble(_ v: UInt32) -> UInt8? {
        switch v {
        case 0x30...0x39: UInt8(v - 0x30)
        case 0x41...0x46: UInt8(v - 0x41 + 10)
        case 0x61...0x66: UInt8(v - 0x61 + 10)
        default: nil
        }
    }
}

/// Hex text that cannot be read: a bad token, or bytes that are not UTF-8.
public enum HexInputError: Error, Equatable, CustomStringConvertible {
    case badToken(HexParseError)
    /// `byte` nil: the text ended inside a UTF-8 sequence.
    case notUTF8(byte: UInt8?, byteOffset: Int)

    public var description: String {
        switch self {
        case .badToken(let error): error.description
        case .notUTF8(let byte, let offset):
            "the hex input is not UTF-8 text: " + (byte.map { "byte \(hexString([$0])) at byte offset \(offset)" }
                                                   ?? "it ends inside the character that starts at byte offset \(offset)")
        }
    }
}
