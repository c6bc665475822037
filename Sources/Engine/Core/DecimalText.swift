// Numbers as a person types them: the one reading of every number Backbeat takes from a command line.

/// Decimal numbers in plain digits: an optional sign, digits, and for a decimal a point and an exponent.
/// Swift's own initializers take more than anyone means on a command line (`Double("0x10")` is 16,
/// `Double("nan")` and `Double("inf")` are numbers, `Int("+ 1")` fails but `Double(" 1")` does not on every
/// platform): what they take beyond this grammar is refused here.
public enum DecimalText {
    /// `text` as a whole number (`-12`, `+3`, `0048`), or nil (also when it does not fit an `Int`).
    public static func integer(_ text: String) -> Int? {
        var digits = Substring(text)
        if let first = digits.first, first == "+" || first == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text.hasPrefix("+") ? String(text.dropFirst()) : text)
    }

    /// `text` as a finite decimal (`2.5`, `-.5`, `1e3`, `10.`), or nil.
    public static func decimal(_ text: String) -> Double? {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return nil }
        }
        guard bytes.isEmpty, let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
