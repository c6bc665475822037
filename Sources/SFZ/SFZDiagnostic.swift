/// Where something is in an SFZ text: the file as named (the root file's path, or an included file's path as
/// resolved) and the 1-based line.
public struct SFZLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) { (self.file, self.line) = (file, line) }

    /// "file:line".
    public var description: String { "\(file):\(line)" }
}

/// A problem in an SFZ text that did not stop the parse: a bad value (the opcode is ignored), a malformed
/// header or directive, an include that cannot be read, a sample that is missing.
public struct SFZDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public var location: SFZLocation
    /// What was wrong and, for a bad value, what is accepted.
    public var message: String

    public init(_ location: SFZLocation, _ message: String) { (self.location, self.message) = (location, message) }

    /// "file:line: message".
    public var description: String { "\(location): \(message)" }
}

/// A name seen in the text and how often: an opcode or header Backbeat does not know.
public struct SFZNameCount: Sendable, Hashable {
    public var name: String
    public var count: Int

    public init(name: String, count: Int) { (self.name, self.count) = (name, count) }
}

/// What stops an instrument from loading at all: its own file cannot be read. Everything else is a
/// diagnostic of the loaded instrument.
public struct SFZLoadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }

    /// "'path': reason".
    public var description: String { "'\(path)': \(reason)" }
}
