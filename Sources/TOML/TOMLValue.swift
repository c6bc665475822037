// A TOML value and its typed accessors.

/// A value in a TOML document.
///
/// Equality compares the case and the contents, with one exception to `Double`'s `==`: NaN equals NaN, so a
/// document always equals itself parsed again.
public enum TOMLValue: Sendable, Equatable, CustomDebugStringConvertible {
    case string(String)
    /// A 64-bit signed integer (an integer literal outside that range is a parse error).
    case integer(Int)
    case float(Double)
    case bool(Bool)
    case dateTime(TOMLDateTime)
    /// An array: `[1, "a"]` in the text (TOML 1.0 allows mixed types), or an array of tables (`[[name]]`).
    case array([TOMLValue])
    /// A table: a `[header]` section, a table made by dotted keys, or an inline table `{ a = 1 }`.
    case table(TOMLTable)

    /// The string, or nil if the value is not a string.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The integer, or nil if the value is not an integer.
    public var int: Int? { if case .integer(let value) = self { value } else { nil } }
    /// The float, or nil if the value is not a float (an integer gives nil too:
    /// write `value.double ?? value.int.map(Double.init)` to accept both).
    public var double: Double? { if case .float(let value) = self { value } else { nil } }
    /// The boolean, or nil if the value is not a boolean.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The date-time, or nil if the value is not a date, time or date-time.
    public var dateTime: TOMLDateTime? { if case .dateTime(let value) = self { value } else { nil } }
    /// The elements, or nil if the value is not an array.
    public var array: [TOMLValue]? { if case .array(let value) = self { value } else { nil } }
    /// The table, or nil if the value is not a table.
    public var table: TOMLTable? { if case .table(let value) = self { value } else { nil } }

    /// The value written as TOML on one line: `"abc"`, `42`, `1.5`, `[1, 2]`, `{ a = 1 }`.
    public var debugDescription: String { TOMLWriter.inline(self) }

    public static func == (lhs: TOMLValue, rhs: TOMLValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.float(a), .float(b)): a == b || (a.isNaN && b.isNaN)
        case let (.bool(a), .bool(b)): a == b
        case let (.dateTime(a), .dateTime(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.table(a), .table(b)): a == b
        default: false
        }
    }
}
