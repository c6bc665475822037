// The toml-test corpus (github.com/toml-lang/toml-test, as Debian's golang-github-burntsushi-toml-dev ships
// it): every valid case parses to the value its JSON file gives, every invalid case throws a TOMLError.
import Foundation
import Testing
import TOML

private let corpus = "/usr/share/gocode/src/github.com/BurntSushi/toml/internal/toml-test/tests"

/// Cases whose expected outcome is not TOML 1.0's, by path under tests/ without extension, and why.
private let outsideTOML10: [String: String] = [
    "valid/string/escape-esc": "\\e is a TOML 1.1 escape (toml-test skips this case for TOML 1.0.0 too)",
]

@Test func tomlTestCorpus() throws {
    guard FileManager.default.fileExists(atPath: corpus) else {
        Issue.record("toml-test corpus not found at \(corpus): install golang-github-burntsushi-toml-dev (scripts/setup test installs it)")
        return
    }
    let valid = try cases(in: "valid")
    let invalid = try cases(in: "invalid")
    var failures: [String] = []
    for name in valid {
        if let problem = try validCaseProblem(name) { failures.append("\(name): \(problem)") }
    }
    for name in invalid {
        if let problem = try invalidCaseProblem(name) { failures.append("\(name): \(problem)") }
    }
    for failure in failures { Issue.record(Comment(rawValue: failure)) }
    #expect(valid.count > 90 && invalid.count > 200, "toml-test corpus looks incomplete")
    let skipped = outsideTOML10.keys.sorted().map { "\($0): \(outsideTOML10[$0] ?? "")" }
    print("toml-test: \(valid.count) valid, \(invalid.count) invalid, "
          + (failures.isEmpty ? "all pass" : "\(failures.count) fail")
          + (skipped.isEmpty ? "" : "; skipped \(skipped.count): " + skipped.joined(separator: "; ")))
}

/// The cases under `kind` ("valid" or "invalid"): paths like "valid/array/empty", without the extension.
private func cases(in kind: String) throws -> [String] {
    let root = URL(fileURLWithPath: corpus)
    let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(kind).path)?.allObjects as? [String] ?? []
    return files.filter { $0.hasSuffix(".toml") }
        .map { "\(kind)/\($0.dropLast(".toml".count))" }
        .filter { outsideTOML10[$0] == nil }
        .sorted()
}

private func read(_ name: String, _ suffix: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: "\(corpus)/\(name).\(suffix)"))
}

/// Why the valid case `name` fails, or nil if it passes.
private func validCaseProblem(_ name: String) throws -> String? {
    let table: TOMLTable
    do {
        table = try TOMLTable(bytes: [UInt8](try read(name, "toml")))
    } catch {
        return "does not parse: \(error)"
    }
    let expected = try JSONSerialization.jsonObject(with: try read(name, "json"))
    if let mismatch = mismatch(.table(table), expected, at: "") { return mismatch }
    guard (try? TOMLTable(string: table.tomlText)) == table else { return "tomlText does not parse back equal" }
    return nil
}

/// Why the invalid case `name` fails, or nil if it passes.
private func invalidCaseProblem(_ name: String) throws -> String? {
    let bytes = [UInt8](try read(name, "toml"))
    do {
        _ = try TOMLTable(bytes: bytes)
        return "parses, but should not"
    } catch {
        let lines = bytes.count { $0 == UInt8(ascii: "\n") } + (bytes.last == UInt8(ascii: "\n") ? 0 : 1)
        guard (1...lines + 1).contains(error.line), error.column >= 1 else { return "error outside the file: \(error)" }
        guard !error.message.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "control character in the message: \(error.message.debugDescription)"
        }
        return nil
    }
}

/// How `value` differs from toml-test's tagged JSON `json` (described at `path`), or nil if it does not.
private func mismatch(_ value: TOMLValue, _ json: Any, at path: String) -> String? {
    if let array = json as? [Any] {
        guard let values = value.array else { return "\(path): expected an array, got \(value)" }
        guard values.count == array.count else { return "\(path): expected \(array.count) elements, got \(values.count)" }
        return zip(values, array).enumerated().lazy
            .compactMap { index, pair in mismatch(pair.0, pair.1, at: "\(path)[\(index)]") }.first
    }
    guard let object = json as? [String: Any] else { return "\(path): unexpected JSON \(json)" }
    if object.count == 2, let type = object["type"] as? String, let text = object["value"] as? String {
        return leafMatches(value, type: type, text: text) ? nil : "\(path): expected \(type) \(text), got \(value)"
    }
    guard let table = value.table else { return "\(path): expected a table, got \(value)" }
    guard Set(table.keys) == Set(object.keys), table.keys.count == object.count else {
        return "\(path): expected keys \(object.keys.sorted()), got \(table.keys)"
    }
    return object.keys.sorted().lazy.compactMap { key in
        table[key].flatMap { mismatch($0, object[key] as Any, at: "\(path).\(key)") }
    }.first
}

/// Whether `value` is toml-test's leaf `{"type": type, "value": text}`.
private func leafMatches(_ value: TOMLValue, type: String, text: String) -> Bool {
    switch type {
    case "string": value.string == text
    case "integer": value.int != nil && value.int == Int(text)
    case "bool": value.bool.map(String.init) == text
    case "float":
        if text.hasSuffix("nan") { value.double?.isNaN == true }
        else if text.hasSuffix("inf") { value.double == (text.hasPrefix("-") ? -Double.infinity : .infinity) }
        else { value.double != nil && value.double == Double(text) }
    case "datetime", "datetime-local", "date-local", "time-local":
        value.dateTime != nil && value.dateTime == expectedDateTime(text, type: type)
    default: false
    }
}

/// toml-test's date-time text as a TOMLDateTime (its own reading of RFC 3339, independent of the parser's).
private func expectedDateTime(_ text: String, type: String) -> TOMLDateTime? {
    var text = text.uppercased().replacingOccurrences(of: " ", with: "T")
    var offset: Int?
    if type == "datetime" {
        if text.hasSuffix("Z") {
            offset = 0
            text.removeLast()
        } else {
            let sign = text.suffix(6).first == "-" ? -1 : 1
            let parts = text.suffix(5).split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2 else { return nil }
            offset = sign * (parts[0] * 60 + parts[1])
            text.removeLast(6)
        }
    }
    let halves = text.split(separator: "T", omittingEmptySubsequences: false).map(String.init)
    let dateText = type == "time-local" ? nil : halves.first
    let timeText = type == "date-local" ? nil : halves.last
    var date: TOMLDate?
    if let dateText {
        let fields = dateText.split(separator: "-").compactMap { Int($0) }
        guard fields.count == 3 else { return nil }
        date = TOMLDate(year: fields[0], month: fields[1], day: fields[2])
    }
    var time: TOMLTime?
    if let timeText {
        let secondsAndFraction = timeText.split(separator: ".", omittingEmptySubsequences: false)
        let fields = secondsAndFraction[0].split(separator: ":").compactMap { Int($0) }
        guard fields.count == 3 else { return nil }
        let fraction = secondsAndFraction.count > 1 ? String(secondsAndFraction[1].prefix(9)) : ""
        let nanosecond = Int(fraction.padding(toLength: 9, withPad: "0", startingAt: 0)) ?? 0
        time = TOMLTime(hour: fields[0], minute: fields[1], second: fields[2], nanosecond: nanosecond)
    }
    return TOMLDateTime(date: date, time: time, offsetMinutes: offset)
}
