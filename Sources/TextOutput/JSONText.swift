/// A JSON scalar, enough for the flat objects of Backbeat's JSON lines (decode, monitor, smf, soundfont,
/// bench, lifecycle).
public enum JSONValue: Hashable, Sendable {
    case int(Int)
    case string(String)
    case bool(Bool)
    case double(Double)

    /// The JSON text of this value.
    public var json: String {
        switch self {
        case .int(let v): String(v)
        case .string(let s): JSONText.quote(s)
        case .bool(let b): b ? "true" : "false"
        case .double(let d): d.isFinite ? String(d) : "null"
        }
    }
}

/// A tiny JSON writer for flat objects with ordered keys, one object a line.
public enum JSONText {
    /// `s` as a JSON string literal, quotes included. Escapes `"`, `\` and every scalar a terminal would not
    /// show as text (C0, DEL, C1, line separators, bidirectional overrides: see ``TerminalText/isPrintable(_:)``)
    /// as `\uNNNN`, so JSON read on a terminal cannot carry an escape sequence either.
    public static func quote(_ s: String) -> String {
        "\"" + TerminalText.escaping(s) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case let c where !TerminalText.isPrintable(c):
                "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
            default: nil
            }
        } + "\""
    }

    /// One JSON object on one line, keys in the given order: `{"type":"note-on","channel":1,...}`.
    public static func object(_ fields: [(key: String, value: JSONValue)]) -> String {
        "{" + fields.map { quote($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
    }
}
