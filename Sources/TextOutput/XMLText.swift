/// Text for XML character data and attribute values.
public enum XMLText {
    /// Escapes `& < > " '`, turns tabs and line breaks into spaces, and drops what XML 1.0 forbids
    /// (other control characters, U+FFFE, U+FFFF).
    public static func escape(_ s: String) -> String {
        TerminalText.escaping(s) { u in
            switch u {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\t", "\n", "\r": " "
            case let c where c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF || (0x7F...0x9F).contains(c.value): ""
            default: nil
            }
        }
    }
}
