// The document: its lines, its headers, and TOML's rules on defining each table and key once.
//
// The rules, as TOML 1.0 states them and toml-test checks them:
// - a key is defined once, and a table is defined once: by its `[header]`, or by the dotted keys of one
//   section (dotted keys in a later section may not add to it, nor may a header define it again);
// - a header may pass through (name a sub-table of) a table defined either way, but not through a value;
// - inline tables and arrays are values: complete where they are written, never extended;
// - `[[name]]` appends to an array of tables, which only `[[name]]` headers make.

/// Parses a TOML document in one pass: a `Reader` reads its keys and values, the parser builds the tree of
/// `TableNode`s they go to, and freezes it into a `TOMLTable` at the end.
struct Parser {
    private var reader: Reader
    private let root = TableNode(line: 1, isSealed: false)
    /// The table that key/value lines go to: the root, then the table of the last header.
    private var section: TableNode
    /// The nesting depth of `section`.
    private var sectionDepth = 0
    /// Tables that dotted keys made or added to since the last header: the next header seals them.
    private var dottedTables: [TableNode] = []

    private init(_ reader: Reader) {
        self.reader = reader
        section = root
    }

    /// Parses the document in `buffer`.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<TOMLTable, TOMLError> {
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            return .success(TableNode(line: 1, isSealed: false).freeze())
        }
        var parser = Parser(Reader(base: base, end: buffer.count))
        do throws(ParseFailure) {
            try parser.parseDocument()
            return .success(parser.root.freeze())
        } catch {
            return .failure(parser.reader.located(error))
        }
    }

    /// Parses the whole document into `root`.
    private mutating func parseDocument() throws(ParseFailure) {
        try reader.validateUTF8()
        reader.skipByteOrderMark()
        while true {
            reader.skipWhitespace()
            guard let byte = reader.peek() else { return }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                try reader.skipNewline()
            case UInt8(ascii: "#"):
                try reader.skipComment()
            case UInt8(ascii: "["):
                try parseHeader()
                try reader.finishLine(after: "the table header")
            default:
                dottedTables += try reader.parseKeyValue(into: section, depth: sectionDepth)
                try reader.finishLine(after: "the value")
            }
        }
    }

    // MARK: Headers

    /// Parses a `[table]` or `[[array of tables]]` header and makes its table the current section.
    private mutating func parseHeader() throws(ParseFailure) {
        let start = reader.pos
        let isArray = reader.peek(1) == UInt8(ascii: "[")
        let (open, close) = isArray ? ("[[", "]]") : ("[", "]")
        reader.pos += open.utf8.count
        reader.skipWhitespace()
        let key = try reader.parseKey(expected: "a table name after '\(open)'")
        reader.skipWhitespace()
        guard reader.lookingAt(close) else {
            throw reader.fail("expected '\(close)' after \(open)\(path(key)), found \(reader.describe(reader.pos))")
        }
        reader.pos += close.utf8.count
        let line = reader.line(at: start)
        for table in dottedTables { table.isSealed = true }
        dottedTables.removeAll()
        (section, sectionDepth) = isArray
            ? try appendTableArrayElement(key, line: line)
            : try defineTable(key, line: line)
    }

    /// The table that the parts of a header before its last one name, made where missing, and its depth.
    private func headerParent(_ key: [KeyPart], line: Int) throws(ParseFailure) -> (TableNode, Int) {
        var table = root
        var depth = 0
        for (index, part) in key.dropLast().enumerated() {
            depth += 1
            switch table[part.name] {
            case nil:
                table = table.openTable(part.name, line: line)
            case .table(let existing):
                table = existing
            case .tableArray(let array):
                table = array.last
                depth += 1
            case let .value(value, line: valueLine):
                throw reader.fail(cannotExtend(key[...index], value, line: valueLine), at: part.offset)
            }
            try reader.checkDepth(depth, at: part.offset)
        }
        return (table, depth)
    }

    /// Defines the table of a `[header]`.
    private func defineTable(_ key: [KeyPart], line: Int) throws(ParseFailure) -> (TableNode, Int) {
        let (parent, parentDepth) = try headerParent(key, line: line)
        guard let last = key.last else { throw reader.fail("expected a table name") }
        try reader.checkDepth(parentDepth + 1, at: last.offset)
        switch parent[last.name] {
        case nil:
            let table = TableNode(line: line, isSealed: true)
            parent.add(last.name, .table(table))
            return (table, parentDepth + 1)
        case .table(let table):
            guard !table.isSealed else {
                throw reader.fail("table [\(path(key))] is already defined (line \(table.line))", at: last.offset)
            }
            table.isSealed = true
            table.line = line
            return (table, parentDepth + 1)
        case .tableArray(let array):
            throw reader.fail("table [\(path(key))] is already defined as an array of tables (line \(array.line))",
                              at: last.offset)
        case let .value(value, line: valueLine):
            let name = path(key)
            throw reader.fail("[\(name)] cannot be a table: \(name) is already \(kind(of: value)) (line \(valueLine))",
                              at: last.offset)
        }
    }

    /// Adds a table to the array of tables of a `[[header]]`, making the array if it is the first.
    private func appendTableArrayElement(_ key: [KeyPart], line: Int) throws(ParseFailure) -> (TableNode, Int) {
        let (parent, parentDepth) = try headerParent(key, line: line)
        guard let last = key.last else { throw reader.fail("expected a table name") }
        try reader.checkDepth(parentDepth + 2, at: last.offset)
        let table = TableNode(line: line, isSealed: true)
        switch parent[last.name] {
        case nil:
            parent.add(last.name, .tableArray(TableArrayNode(line: line, first: table)))
        case .tableArray(let array):
            array.append(table)
        case .table(let existing):
            let name = path(key)
            throw reader.fail("[[\(name)]] cannot add to \(name): it is a table (line \(existing.line)), not an array of tables",
                              at: last.offset)
        case let .value(value, line: valueLine):
            let name = path(key)
            throw reader.fail("[[\(name)]] cannot add to \(name): it is \(kind(of: value)) (line \(valueLine)), "
                              + "not an array of tables (which only [[\(name)]] headers make)", at: last.offset)
        }
        return (table, parentDepth + 2)
    }
}
