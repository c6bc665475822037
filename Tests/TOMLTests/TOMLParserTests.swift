// The TOML parser: malformed input throws with its line (never traps), values and their accessors, lines of
// keys and tables, and writing values back as TOML.
import Testing
import TOML

/// The error that parsing `text` throws, or nil (recorded as an issue) if it parses.
private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> TOMLError? {
    do {
        _ = try TOMLTable(string: text)
        Issue.record("parsed, but should not: \(text.prefix(80).debugDescription)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

// MARK: Malformed input

@Test("inputs that abort TOMLKit throw instead", arguments: ["[", "[[[1]]]", "[[=", "[a", "[[a]", "{", "a = [", "a = {", "=", "a.=1"])
func abortingInputsThrow(text: String) throws {
    let error = try #require(parseError(text))
    #expect(error.line == 1)
}

@Test func errorMessagesSayWhatWasExpected() throws {
    let bracket = try #require(parseError("["))
    #expect(bracket == TOMLError(line: 1, column: 2, message: "expected a table name after '[', found end of input"))
    #expect(bracket.description == "line 1, column 2: expected a table name after '[', found end of input")
    #expect(parseError("[[[1]]]")?.message == "expected a table name after '[[', found '['")
    #expect(parseError("[[=")?.message == "expected a table name after '[[', found '='")
    #expect(parseError("a = 1 b")?.message == "expected a new line after the value, found 'b'")
    #expect(parseError("a = tru")?.message.hasPrefix("expected a value, found 't'") == true)
}

@Test func redefinitionsThrowOnTheLineOfTheSecondDefinition() throws {
    let duplicateKey = try #require(parseError("a = 1\na = 2"))
    #expect(duplicateKey == TOMLError(line: 2, column: 1, message: "duplicate key \"a\" (first defined on line 1)"))
    #expect(parseError("[a]\n[a]")?.line == 2)
    #expect(parseError("[a]\nb = 1\n\n[a]")?.message == "table [a] is already defined (line 1)")
    // A table defined by dotted keys cannot get a header, nor dotted keys from another section.
    #expect(parseError("[fruit]\napple.color = 'red'\n[fruit.apple]")?.line == 3)
    #expect(parseError("[a.b.c]\nz = 9\n[a]\nb.c.t = 1")?.line == 4)
    // Inline tables and arrays are complete where written.
    #expect(parseError("a = {}\n[a.b]")?.line == 2)
    #expect(parseError("a = { b = 1 }\na.c = 2")?.line == 2)
    #expect(parseError("fruit = []\n[[fruit]]")?.line == 2)
    #expect(parseError("a = [{ b = 1 }]\n[a.c]")?.line == 2)
    // Tables and arrays of tables do not mix.
    #expect(parseError("[[a]]\n[a]")?.line == 2)
    #expect(parseError("[a]\n[[a]]")?.line == 2)
    #expect(parseError("[[a.b]]\n[a]\nb.y = 2")?.line == 3)
    #expect(parseError("a.b = 1\na.b.c = 2")?.line == 2)
    #expect(parseError("x = { a = 1, a = 2 }")?.message == "duplicate key \"a\" (first defined on line 1)")
}

@Test func deepNestingThrowsInsteadOfOverflowingTheStack() throws {
    let brackets = String(repeating: "[", count: 100_000)
    #expect(parseError(brackets)?.line == 1)
    #expect(parseError("a = " + brackets)?.message == "nesting deeper than 128")
    let inlineTables = String(repeating: "{a=", count: 100_000)
    #expect(parseError(inlineTables)?.line == 1)
    #expect(parseError("x = " + inlineTables)?.message == "nesting deeper than 128")
    #expect(parseError(Array(repeating: "a", count: 100_000).joined(separator: ".") + " = 1")?.message == "nesting deeper than 128")
    #expect(parseError("[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]")?.message == "nesting deeper than 128")
    // 128 levels are fine, 129 are not.
    let deepest = try TOMLTable(string: "a = " + String(repeating: "[", count: 127) + "{}" + String(repeating: "]", count: 127))
    #expect(deepest["a"] != nil)
    #expect(parseError("a = " + String(repeating: "[", count: 129) + String(repeating: "]", count: 129)) != nil)
}

@Test func integersOutOfRangeThrow() throws {
    #expect(parseError("a = 9223372036854775808")?.message.hasPrefix("integer out of range") == true)
    #expect(parseError("a = -9223372036854775809")?.message.hasPrefix("integer out of range") == true)
    #expect(parseError("a = 0xFFFFFFFFFFFFFFFF")?.message.hasPrefix("integer out of range") == true)
    #expect(parseError("a = 1\nb = 99999999999999999999999999")?.line == 2)
    let limits = try TOMLTable(string: "max = 9223372036854775807\nmin = -9223372036854775808\nhex = 0x7FFF_FFFF_FFFF_FFFF")
    #expect(limits["max"]?.int == Int.max)
    #expect(limits["min"]?.int == Int.min)
    #expect(limits["hex"]?.int == Int.max)
}

@Test func malformedValuesThrowOnTheirLine() throws {
    let cases: [(String, line: Int)] = [
        ("a = 1\nb = 01", 2),                       // leading zero
        ("a = 0x_1", 1), ("a = 1__0", 1), ("a = +0x1", 1), ("a = 1.", 1), ("a = .5", 1), ("a = 1e", 1),
        ("a = \"\\uD800\"", 1),                     // surrogate
        ("a = \"\\U00110000\"", 1),                 // above U+10FFFF
        ("a = \"\\e\"", 1),                         // TOML 1.1 escape
        ("a = 07:32", 1),                           // seconds are required in TOML 1.0
        ("a = 2023-02-29", 1), ("a = 2023-04-31", 1), ("a = 1979-05-27T24:00:00", 1), ("a = 1979-05-27T07:32:00+24:00", 1),
        ("a = 1\r\nb = \"\u{07}\"", 2),             // control character in a string
        ("# comment \u{7F}", 1),
        ("a = 1\rb = 2", 1),                        // a lone carriage return
        ("a = { b = 1,\n c = 2 }", 1),              // inline tables are on one line
        ("a = { b = 1, }", 1),                      // no trailing comma in an inline table
        ("a = \"\"\"\n\n\nabc", 1),                 // unterminated multi-line string: where it opens
        ("a = [1,\n2,\n", 3),                       // unterminated array: at the end
        ("\"\"\"a\"\"\" = 1", 1),                   // multi-line string as a key
    ]
    for (text, line) in cases {
        #expect(parseError(text)?.line == line, "\(text.debugDescription)")
    }
}

@Test func invalidUTF8ThrowsWithItsLineAndColumn() throws {
    let bytes = Array("a = 1\n# é\nb = \"é".utf8) + [0xC3, 0x28] + Array("\"".utf8)
    #expect(throws: TOMLError(line: 3, column: 7, message: "invalid UTF-8 (byte 0xC3)")) { try TOMLTable(bytes: bytes) }
    for bytes: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
        #expect(throws: TOMLError.self) { try TOMLTable(bytes: Array("a = \"".utf8) + bytes + Array("\"".utf8)) }
    }
}

@Test func messagesShowCharactersEscaped() throws {
    let bell = try #require(parseError("a = \"x\u{07}\""))
    #expect(bell.message == "U+0007 must be escaped in a string")
    #expect(bell.column == 7)
    #expect(parseError("é = 1")?.message == "expected a key, found 'é' (U+00E9)")
    #expect(parseError("a = \"é\" x")?.column == 9)  // columns count characters, not bytes
    #expect(parseError("\"\\u0007\" = 1\n\"\\u0007\" = 2")?.message == "duplicate key \"\\\"\\\\u0007\\\"\" (first defined on line 1)")
}

// MARK: Values

@Test func valuesAndAccessors() throws {
    let table = try TOMLTable(string: """
        str = "a\\tb \\u00E9 \\U0001F600"
        lit = 'C:\\path'
        int = -1_000
        hex = 0xDEAD_beef
        oct = 0o755
        bin = 0b1101
        float = 6.626e-34
        inf = -inf
        nan = nan
        yes = true
        odt = 1979-05-27T00:32:00.999999999-07:00
        ldt = 1979-05-27 07:32:00
        ld = 1979-05-27
        lt = 07:32:00.5
        mixed = [1, "two", [3.0], { four = 4 }]
        inline = { a.b = 1, c = "d" }
        """)
    #expect(table["str"]?.string == "a\tb é 😀")
    #expect(table["lit"]?.string == "C:\\path")
    #expect(table["int"]?.int == -1000)
    #expect(table["hex"]?.int == 0xDEADBEEF)
    #expect(table["oct"]?.int == 0o755)
    #expect(table["bin"]?.int == 13)
    #expect(table["float"]?.double == 6.626e-34)
    #expect(table["inf"]?.double == -.infinity)
    #expect(table["nan"]?.double?.isNaN == true)
    #expect(table["yes"]?.bool == true)
    #expect(table["odt"]?.dateTime == TOMLDateTime(date: TOMLDate(year: 1979, month: 5, day: 27),
                                                   time: TOMLTime(hour: 0, minute: 32, second: 0, nanosecond: 999_999_999),
                                                   offsetMinutes: -420))
    #expect(table["ldt"]?.dateTime == TOMLDateTime(date: TOMLDate(year: 1979, month: 5, day: 27),
                                                   time: TOMLTime(hour: 7, minute: 32, second: 0)))
    #expect(table["ld"]?.dateTime?.date == TOMLDate(year: 1979, month: 5, day: 27))
    #expect(table["ld"]?.dateTime?.time == nil)
    #expect(table["lt"]?.dateTime == TOMLDateTime(time: TOMLTime(hour: 7, minute: 32, second: 0, nanosecond: 500_000_000)))
    #expect(table["mixed"]?.array?.count == 4)
    #expect(table["mixed"]?.array?[3].table?["four"]?.int == 4)
    #expect(table["inline"]?.table?["a"]?.table?["b"]?.int == 1)
    #expect(table.keys == ["str", "lit", "int", "hex", "oct", "bin", "float", "inf", "nan", "yes", "odt", "ldt", "ld", "lt",
                           "mixed", "inline"])
    #expect(table.count == 16)
    #expect(table["missing"] == nil)

    // An accessor of another case gives nil; double is for floats only.
    let int = try #require(table["int"])
    #expect(int.string == nil && int.double == nil && int.bool == nil && int.dateTime == nil && int.array == nil && int.table == nil)
    #expect(int.double ?? int.int.map(Double.init) == -1000)
    #expect(table["str"]?.int == nil)
}

@Test func multilineStrings() throws {
    let table = try TOMLTable(string: "a = \"\"\"\r\none\r\ntwo \\\r\n    three\"\"\"\nb = '''\n'x' ''y'''''\nc = \"\"\"\"\"\"\"\"")
    #expect(table["a"]?.string == "one\ntwo three")
    #expect(table["b"]?.string == "'x' ''y''")
    #expect(table["c"]?.string == "\"\"")
}

@Test func tablesAndArraysOfTables() throws {
    let table = try TOMLTable(string: """
        [a.b.c]
        x = 1
        [a]
        y = 2
        [[fruits]]
        name = "apple"
        [fruits.physical]
        color = "red"
        [[fruits.varieties]]
        name = "red delicious"
        [[fruits]]
        name = "banana"
        [fruit]
        apple.color = "red"
        [fruit.apple.texture]
        smooth = true
        """)
    #expect(table["a"]?.table?["b"]?.table?["c"]?.table?["x"]?.int == 1)
    #expect(table["a"]?.table?["y"]?.int == 2)
    let fruits = try #require(table["fruits"]?.array)
    #expect(fruits.count == 2)
    #expect(fruits[0].table?["physical"]?.table?["color"]?.string == "red")
    #expect(fruits[0].table?["varieties"]?.array?.first?.table?["name"]?.string == "red delicious")
    #expect(fruits[1].table?["name"]?.string == "banana")
    #expect(table["fruit"]?.table?["apple"]?.table?["texture"]?.table?["smooth"]?.bool == true)
}

@Test func emptyAndOddlyFormedDocumentsParse() throws {
    #expect(try TOMLTable(string: "").count == 0)
    #expect(try TOMLTable(bytes: []).count == 0)
    #expect(try TOMLTable(string: "# only a comment").count == 0)
    #expect(try TOMLTable(bytes: [0xEF, 0xBB, 0xBF] + Array("a = 1".utf8))["a"]?.int == 1)
    #expect(try TOMLTable(string: "a=1\r\n[ b . \"c d\" ]\r\n'e'.f=2 # end")["b"]?.table?["c d"]?.table?["e"]?.table?["f"]?.int == 2)
}

// MARK: Lines

@Test func linesOfKeysAndTables() throws {
    let table = try TOMLTable(string: """
        title = "x"

        [server.http]
        port = 80
        limits = { rate = 1, burst = 2 }

        [[jobs]]
        name = "a"
        [[jobs]]
        name = "b"

        [server]
        host = "h"
        dotted.key = 1
        """)
    #expect(table.line == 1)
    #expect(table.line(of: "title") == 1)
    #expect(table.line(of: "missing") == nil)
    let server = try #require(table["server"]?.table)
    #expect(table.line(of: "server") == 12)  // implicit at line 3, then defined by [server] on line 12
    #expect(server.line == 12)
    #expect(server.line(of: "http") == 3)
    #expect(server.line(of: "host") == 13)
    #expect(server.line(of: "dotted") == 14)
    #expect(server["dotted"]?.table?.line == 14)
    let http = try #require(server["http"]?.table)
    #expect(http.line == 3)
    #expect(http.line(of: "port") == 4)
    #expect(http["limits"]?.table?.line == 5)
    #expect(table.line(of: "jobs") == 7)
    #expect(table["jobs"]?.array?.map { $0.table?.line } == [7, 9])
    #expect(table["jobs"]?.array?.last?.table?.line(of: "name") == 10)
}

@Test func implicitSuperTablesHaveTheLineThatMadeThem() throws {
    let table = try TOMLTable(string: "a = 1\n[x.y.z]\n[x.w]")
    #expect(table["x"]?.table?.line == 2)
    #expect(table["x"]?.table?["y"]?.table?.line == 2)
    #expect(table["x"]?.table?["w"]?.table?.line == 3)
}

// MARK: Writing

@Test func debugDescriptionWritesTOML() throws {
    #expect(TOMLValue.string("abc").debugDescription == "\"abc\"")
    #expect(TOMLValue.string("a\"b\\c\nd\u{07}\u{85}é").debugDescription == "\"a\\\"b\\\\c\\nd\\u0007\\u0085é\"")
    #expect(TOMLValue.integer(42).debugDescription == "42")
    #expect(TOMLValue.float(1.5).debugDescription == "1.5")
    #expect(TOMLValue.float(1).debugDescription == "1.0")
    #expect(TOMLValue.float(-.infinity).debugDescription == "-inf")
    #expect(TOMLValue.float(.nan).debugDescription == "nan")
    #expect(TOMLValue.bool(false).debugDescription == "false")
    #expect(TOMLValue.array([.integer(1), .integer(2)]).debugDescription == "[1, 2]")
    #expect(TOMLValue.array([]).debugDescription == "[]")
    let table = try TOMLTable(string: "a = 1\n\"b c\" = { d = [true] }\ne = {}")
    #expect(TOMLValue.table(table).debugDescription == "{ a = 1, \"b c\" = { d = [true] }, e = {} }")
    let dates = try TOMLTable(string: "a = 1979-05-27T07:32:00.120Z\nb = 1979-05-27t07:32:00+05:30\nc = 1979-05-27\nd = 00:00:01")
    #expect(dates.keys.compactMap { dates[$0]?.debugDescription }
            == ["1979-05-27T07:32:00.12Z", "1979-05-27T07:32:00+05:30", "1979-05-27", "00:00:01"])
}

@Test func tomlTextParsesBackEqual() throws {
    let table = try TOMLTable(string: """
        "" = "empty key"
        title = "TOML \\"quoted\\" \\u0000 \\u001F"
        floats = [0.1, -0.0, 1e300, 5e-324, inf, nan]
        when = [1979-05-27T07:32:00Z, 1979-05-27T07:32:00.000001, 1979-05-27, 07:32:00]
        [owner."full name"]
        first = "Tom"
        [[products]]
        name = "Hammer"
        [products.dims]
        h = 1
        [[products]]
        [a.b.c]
        d = { e.f = [[1, 2], [{ g = 3 }]] }
        """)
    let text = table.tomlText
    #expect(try TOMLTable(string: text) == table)
    let small = try TOMLTable(string: "b = 2\n[t]\nx = 1\n[t.\"u v\"]\n[[w]]\ny = 3")
    #expect(small.tomlText == "b = 2\nw = [{ y = 3 }]\n\n[t]\nx = 1\n\n[t.\"u v\"]\n")
}

@Test func equalityComparesContentsNotOrderOrLines() throws {
    let a = try TOMLTable(string: "x = 1\ny = nan")
    let b = try TOMLTable(string: "\n\ny = nan\nx = 1")
    #expect(a == b)
    #expect(a != (try TOMLTable(string: "x = 1\ny = 1.0")))
    #expect(TOMLValue.integer(1) != .float(1))
}

// MARK: Size

@Test func largeInputParsesInLinearTime() throws {
    var text = ""
    var index = 0
    while text.utf8.count < 1_000_000 {
        text += """
            [[item]]
            name = "item \(index) \\u00E9" # comment
            tags = ["a", 'b', 1_000, 2.5e-3, true, 1979-05-27T07:32:00Z]
            point = { x = \(index), y.z = -\(index) }
            text = \"\"\"
            line one \\
              continued\"\"\"


            """
        index += 1
    }
    // About 0.3 s in a debug build (not asserted: a timed test flakes on a shared machine; quadratic
    // behaviour would take minutes and show in the suite's time).
    let table = try TOMLTable(string: text)
    #expect(table["item"]?.array?.count == index)
}
