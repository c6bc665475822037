// Writing values as TOML text: one value on one line (TOMLValue.debugDescription), or a table as a document
// (TOMLTable.tomlText).

public extension TOMLTable {
    /// The table as a TOML document that parses back to an equal table: each table's keys with values that
    /// are not tables first, then each sub-table under its `[header]`. Arrays, arrays of tables included, are
    /// written inline (`key = [{ a = 1 }, { a = 2 }]`).
    var tomlText: String {
        var text = ""
        TOMLWriter.writeSection(self, path: [], to: &text)
        return text
    }
}

/// Writes TOML text.
enum TOMLWriter {
    /// The value on one line: `"abc"`, `42`, `1.5`, `1979-05-27T07:32:00Z`, `[1, 2]`, `{ a = 1 }`.
    static func inline(_ value: TOMLValue) -> String {
        switch value {
        case .string(let string): quoted(string)
        case .integer(let integer): String(integer)
        case .float(let float): self.float(float)
        case .bool(let bool): String(bool)
        case .dateTime(let dateTime): dateTime.description
        case .array(let array): "[" + array.map(inline).joined(separator: ", ") + "]"
        case .table(let table) where table.count == 0: "{}"
        case .table(let table): "{ " + table.pairs.map(pair).joined(separator: ", ") + " }"
        }
    }

    /// `key = value`, with the key bare if it can be.
    private static func pair(_ key: String, _ value: TOMLValue) -> String {
        "\(self.key(key)) = \(inline(value))"
    }

    /// `table`'s keys that are not tables as `key = value` lines, then its sub-tables as sections.
    static func writeSection(_ table: TOMLTable, path: [String], to text: inout String) {
        let pairs = table.pairs
        for (key, value) in pairs where value.table == nil {
            text += pair(key, value) + "\n"
        }
        for (key, value) in pairs {
            guard let subTable = value.table else { continue }
            let subPath = path + [key]
            if !text.isEmpty { text += "\n" }
            text += "[" + subPath.map(self.key).joined(separator: ".") + "]\n"
            writeSection(subTable, path: subPath, to: &text)
        }
    }

    /// A key as TOML writes it: bare (`a-b_1`) if it can be, else quoted.
    static func key(_ key: String) -> String {
        let isBare = !key.isEmpty && key.utf8.allSatisfy(\.isBareKeyByte)
        return isBare ? key : quoted(key)
    }

    /// `string` as a basic string: in double quotes, with `"`, `\` and control characters (C0, DEL and C1)
    /// escaped.
    static func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}": text += "\\u" + hex(scalar.value, digits: 4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    /// A float as TOML writes it: Swift's shortest round-tripping form (`1.5`, `1e+100`), `inf`, `-inf`, `nan`.
    private static func float(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return value.description
    }
}
