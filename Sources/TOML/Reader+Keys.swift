// Keys and key/value pairs (of a document's sections and of inline tables).

/// One part of a dotted key and where it starts.
struct KeyPart {
    let name: String
    let offset: Int
}

extension Reader {
    /// Parses `key = value` into `table` (a section or an inline table), whose depth is `depth`. Returns the
    /// tables that a dotted key made or added to on the way to its last part (a document seals them at its
    /// next header).
    mutating func parseKeyValue(into table: TableNode, depth: Int) throws(ParseFailure) -> [TableNode] {
        let key = try parseKey(expected: "a key")
        skipWhitespace()
        guard peek() == UInt8(ascii: "=") else {
            throw fail("expected '=' after the key \(quotedPath(key)), found \(describe(pos))")
        }
        pos += 1
        skipWhitespace()
        guard let last = key.last else { throw fail("expected a key") }
        let line = line(at: key[0].offset)
        let passed = try tablesOnTheWay(to: key, from: table, depth: depth, line: line)
        let parent = passed.last ?? table
        if let existing = parent[last.name] {
            throw fail(duplicate(key, existing), at: last.offset)
        }
        let value = try parseValue(depth: depth + passed.count)
        parent.add(last.name, .value(value, line: line))
        return passed
    }

    /// The tables that the parts of `key` before its last one name, from `table` (at `depth`) down, made
    /// where missing.
    private func tablesOnTheWay(to key: [KeyPart], from table: TableNode, depth: Int,
                                line: Int) throws(ParseFailure) -> [TableNode] {
        var tables: [TableNode] = []
        var table = table
        for index in 0..<key.count - 1 {
            let part = key[index]
            try checkDepth(depth + index + 1, at: part.offset)
            switch table[part.name] {
            case nil:
                table = table.openTable(part.name, line: line)
            case .table(let existing):
                guard !existing.isSealed else {
                    throw fail("dotted keys cannot add to table \(quotedPath(key[...index])): it is already defined "
                               + "(line \(existing.line))", at: part.offset)
                }
                table = existing
            case .tableArray(let array):
                throw fail("dotted keys cannot add to the array of tables \(quotedPath(key[...index])) (line \(array.line))",
                           at: part.offset)
            case let .value(value, line: valueLine):
                throw fail(cannotExtend(key[...index], value, line: valueLine), at: part.offset)
            }
            tables.append(table)
        }
        return tables
    }

    /// Parses a key: bare, quoted or literal parts separated by dots (with optional whitespace around them).
    /// `expected` names what a missing key was expected to be.
    mutating func parseKey(expected: String) throws(ParseFailure) -> [KeyPart] {
        var parts: [KeyPart] = []
        var expected = expected
        while true {
            parts.append(try parseKeyPart(expected: expected))
            let afterPart = pos
            skipWhitespace()
            guard peek() == UInt8(ascii: ".") else {
                pos = afterPart
                return parts
            }
            pos += 1
            skipWhitespace()
            expected = "a key after '.'"
        }
    }

    private mutating func parseKeyPart(expected: String) throws(ParseFailure) -> KeyPart {
        let start = pos
        guard let byte = peek() else { throw fail("expected \(expected), found end of input") }
        if byte.isBareKeyByte {
            while pos < end, base[pos].isBareKeyByte { pos += 1 }
            return KeyPart(name: string(start..<pos), offset: start)
        }
        guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") else {
            throw fail("expected \(expected), found \(describe(pos))")
        }
        if peek(1) == byte && peek(2) == byte {
            throw fail("a key cannot be a multi-line string")
        }
        let name = byte == UInt8(ascii: "\"") ? try parseBasicString() : try parseLiteralString()
        return KeyPart(name: name, offset: start)
    }
}

// MARK: Messages

/// A dotted key as TOML writes it, `a."c d"`: the name in a header.
func path(_ key: some Collection<KeyPart>) -> String {
    key.map { TOMLWriter.key($0.name) }.joined(separator: ".")
}

/// A dotted key as TOML writes it, in double quotes: "a.b", "a.\"c d\"".
func quotedPath(_ key: some Collection<KeyPart>) -> String {
    TOMLWriter.quoted(path(key))
}

/// "an inline table", "an array" or "a value".
func kind(of value: TOMLValue) -> String {
    switch value {
    case .table: "an inline table"
    case .array: "an array"
    default: "a value"
    }
}

/// Why `key`, a value (`value`, defined on `line`), cannot have keys added to it.
func cannotExtend(_ key: some Collection<KeyPart>, _ value: TOMLValue, line: Int) -> String {
    let name = quotedPath(key)
    return switch value {
    case .table: "cannot add to the inline table \(name) (line \(line)): inline tables are complete where written"
    case .array: "cannot add to the array \(name) (line \(line)): arrays are complete where written"
    default: "cannot use \(name) as a table: it is already a value (line \(line))"
    }
}

/// Why `key` cannot be defined: it already holds `existing`.
private func duplicate(_ key: [KeyPart], _ existing: TableNode.Child) -> String {
    let name = quotedPath(key)
    return switch existing {
    case let .value(_, line): "duplicate key \(name) (first defined on line \(line))"
    case let .table(table): "duplicate key \(name): it is already a table (line \(table.line))"
    case let .tableArray(array): "duplicate key \(name): it is already an array of tables (line \(array.line))"
    }
}
