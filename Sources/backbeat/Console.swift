import Foundation

/// stdout for results, stderr for messages; flushed per line so pipes and tests see them at once.
enum Console {
    static func out(_ line: String) {
        StandardOutput.write(line + "\n")
    }
    static func info(_ line: String) {
        FileHandle.standardError.write(Data(("backbeat: " + line + "\n").utf8))
    }
    /// A clear one-line error and exit code 2.
    static func fail(_ line: String) -> Never {
        FileHandle.standardError.write(Data(("backbeat: " + line + "\n").utf8))
        exit(2)
    }
}
