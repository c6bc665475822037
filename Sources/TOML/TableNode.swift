// The mutable tree the parser builds: tables stay open to later headers and dotted keys until the document
// ends, then the tree is frozen into TOMLTable values.

/// A table under construction.
final class TableNode {
    /// What a key of a table under construction holds.
    enum Child {
        /// A finished value (arrays and inline tables included: they cannot be extended), with its key's line.
        case value(TOMLValue, line: Int)
        /// A table made by a header, by dotted keys or implicitly as a header's super-table.
        case table(TableNode)
        /// An array of tables made by `[[header]]`s.
        case tableArray(TableArrayNode)
    }

    var line: Int
    /// Set once the table is defined, by its `[header]` or by dotted keys in a section that has ended: then
    /// no header may define it again and no dotted key may add to it.
    var isSealed: Bool
    private(set) var keys: [String] = []
    private(set) var children: [String: Child] = [:]

    init(line: Int, isSealed: Bool) {
        self.line = line
        self.isSealed = isSealed
    }

    subscript(key: String) -> Child? { children[key] }

    /// Adds `key`, which the table does not have yet, as a new table that is still open (a super-table a
    /// header or dotted key passes through); returns it.
    func openTable(_ key: String, line: Int) -> TableNode {
        let table = TableNode(line: line, isSealed: false)
        add(key, .table(table))
        return table
    }

    /// Adds a key that the table does not have yet.
    func add(_ key: String, _ child: Child) {
        keys.append(key)
        children[key] = child
    }

    /// The finished table: sub-tables frozen too, arrays of tables as arrays of tables.
    func freeze() -> TOMLTable {
        var entries: [String: TOMLTable.Entry] = [:]
        entries.reserveCapacity(children.count)
        for (key, child) in children {
            entries[key] = switch child {
            case let .value(value, line): TOMLTable.Entry(value: value, line: line)
            case let .table(table): TOMLTable.Entry(value: .table(table.freeze()), line: table.line)
            case let .tableArray(array):
                TOMLTable.Entry(value: .array(array.elements.map { .table($0.freeze()) }), line: array.line)
            }
        }
        return TOMLTable(line: line, keys: keys, entries: entries)
    }
}

/// An array of tables under construction: one table per `[[header]]`, the last one open to key/value lines
/// and to headers below it.
final class TableArrayNode {
    /// The line of the first `[[header]]`.
    let line: Int
    private(set) var elements: [TableNode]
    /// The table of the latest `[[header]]`.
    private(set) var last: TableNode

    init(line: Int, first: TableNode) {
        self.line = line
        elements = [first]
        last = first
    }

    func append(_ table: TableNode) {
        elements.append(table)
        last = table
    }
}
