// What a malformed TOML document throws.

/// A malformed TOML document: where the problem is and what was wrong.
///
/// Every malformed input gives one of these (the parser never traps): the first problem found, with its
/// 1-based line and column (the column counts Unicode scalars from the start of the line). The message is
/// plain English with any offending character shown escaped (U+0007), never raw.
public struct TOMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column of the problem, in Unicode scalars of its line.
    public var column: Int
    /// What was wrong and what was expected, e.g. "expected a table name after '[', found end of input".
    public var message: String

    public init(line: Int, column: Int, message: String) { (self.line, self.column, self.message) = (line, column, message) }

    /// "line L, column C: message".
    public var description: String { "line \(line), column \(column): \(message)" }
}
