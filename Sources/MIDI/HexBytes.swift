import TextOutput
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
        "bad hex token '\(TerminalText.sanitized(token))' (token \(tokenNumber), at character \(offset)): \(reason)"
    }
}

/// Reads bytes written as hex text.
public enum HexBytes {
    /// Parses whitespace-separated hex: single pairs ("90 3C 64"), contiguous pairs ("903C64") or both,
    /// each token with an optional 0x prefix ("0x90 0x3c"). Case-insensitive. (The whole text at once; a
    /// ``HexReader`` reads it as it arrives.)
    public static func parse(_ text: String) throws(HexParseError) -> [UInt8] {
        var reader = HexReader()
        var bytes: [UInt8] = []
        var text = text
        let failure = text.withUTF8 { utf8 -> HexInputError? in
            do throws(HexInputError) {
                try reader.read(utf8, into: &bytes)
                try reader.finish(into: &bytes)
                return nil
            } catch {
                return error
            }
        }
        switch failure {
        case nil: return bytes
        case .badToken(let bad): throw bad
        case .notUTF8: preconditionFailure("a String is UTF-8")
        }
    }
}
