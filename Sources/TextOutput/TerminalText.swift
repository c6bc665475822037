/// Text that came from outside (port and client names, sysex, MIDI) never reaches the terminal raw:
/// control characters become visible escapes, so nothing can write an escape sequence to the screen.
public enum TerminalText {
    /// True for scalars the terminal draws as one visible column: not C0, DEL, C1, nor line/paragraph
    /// separators or bidirectional overrides (which reorder what follows).
    public static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return false }
        if (0x200B...0x200F).contains(v) || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v) { return false }
        if v == 0xFEFF { return false }
        return true
    }

    /// `text` with every non-printable scalar written as `\xNN` (or `\u{NNNN}`), and backslashes doubled.
    public static func sanitized(_ text: String) -> String {
        escaping(text) { scalar in scalar == "\\" ? "\\\\" : escape(scalar) }
    }

    /// `text` with every non-printable scalar written as `sanitized` writes it, backslashes kept as they are:
    /// for a whole line on its way to the terminal, whose parts may already be sanitized (applied twice, it
    /// changes nothing). Every message Backbeat's commands write to standard error goes through it, so a
    /// string from outside that a message forgot to sanitize still cannot reach the terminal raw.
    public static func visible(_ text: String) -> String {
        escaping(text, escape)
    }

    /// `\xNN` (or `\u{NNNN}`) for a scalar the terminal must not get raw; nil for a printable one.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        if isPrintable(scalar) { return nil }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return scalar.value <= 0xFF ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{\(hex)}"
    }

    /// `text` with each scalar for which `replacement` returns a string replaced by it (an empty string drops
    /// the scalar); the others kept. The one loop behind the terminal, JSON and XML escapers.
    public static func escaping(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let r = replacement(scalar) { out += r } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Bytes (sysex, raw MIDI) as text: printable ASCII kept, everything else `\xNN`.
    public static func sanitized(bytes: some Sequence<UInt8>) -> String {
        var out = ""
        for byte in bytes {
            if byte >= 0x20 && byte < 0x7F && byte != 0x5C {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            }
        }
        return out
    }
}
