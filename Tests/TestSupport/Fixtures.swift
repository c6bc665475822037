// Text fixtures kept under Tests/Fixtures, read by tests of several targets (one copy of each scenario).
import Foundation

/// The path of `Tests/Fixtures/<name>`.
public func fixturePath(_ name: String) -> String {
    packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name).path
}

/// The text of `Tests/Fixtures/<name>` without its final newline (as a Swift multi-line string literal has
/// none); throws naming the path when it cannot be read.
public func fixtureText(_ name: String) throws -> String {
    let path = fixturePath(name)
    guard let data = FileManager.default.contents(atPath: path) else { throw HarnessError("cannot read fixture \(path)") }
    var text = String(decoding: data, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
}
