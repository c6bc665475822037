// A TOML table, the root of a parsed document.

/// A TOML table: keys in document order, their values, and the lines they were defined on.
///
/// `TOMLTable(string:)` and `TOMLTable(bytes:)` parse a whole TOML 1.0 document into its root table. Equality
/// compares contents only (the same keys with equal values, in any order), not lines.
public struct TOMLTable: Sendable, Equatable {
    /// A value and the line its key was defined on.
    struct Entry: Sendable {
        var value: TOMLValue
        var line: Int
    }

    /// The keys in document order.
    public let keys: [String]
    private let entries: [String: Entry]
    /// The 1-based line where the table was defined: its `[header]` or `[[header]]`, the `{` of an inline
    /// table, 1 for the root. A table made implicitly (the `a` of `[a.b]` or of `a.b = 1`) has the line of
    /// the first header or key that made it, until a `[a]` header defines it.
    public let line: Int

    init(line: Int, keys: [String], entries: [String: Entry]) {
        self.line = line
        self.keys = keys
        self.entries = entries
    }

    /// Parses a TOML document.
    public init(string: String) throws(TOMLError) {
        var text = string
        self = try text.withUTF8 { Parser.parse($0) }.get()
    }

    /// Parses a TOML document from its UTF-8 bytes (invalid UTF-8 is an error; a leading byte order mark is
    /// skipped).
    public init(bytes: [UInt8]) throws(TOMLError) {
        self = try bytes.withUnsafeBufferPointer { Parser.parse($0) }.get()
    }

    /// The value of `key`, a direct key of this table (not a dotted path).
    public subscript(key: String) -> TOMLValue? { entries[key]?.value }

    /// The keys and their values, in document order.
    var pairs: [(key: String, value: TOMLValue)] {
        keys.compactMap { key in entries[key].map { (key, $0.value) } }
    }

    /// How many keys the table has.
    public var count: Int { keys.count }

    /// The 1-based line where `key` (a direct key of this table) was defined: the line of its `key = value`,
    /// or for a sub-table its `line`, or for an array of tables the line of its first `[[header]]`.
    public func line(of key: String) -> Int? { entries[key]?.line }

    public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        lhs.entries.count == rhs.entries.count
            && lhs.entries.allSatisfy { key, entry in rhs.entries[key]?.value == entry.value }
    }
}
