import Foundation
import MIDI
import TextOutput

/// stdout for results, stderr for messages; flushed per line so pipes and tests see them at once. Every
/// message on stderr goes through `TerminalText.visible` (line by line): whatever a message quotes from
/// outside (a font's sample name, an NSM server's text, a file name) reaches the terminal as visible escapes,
/// never as control characters.
enum Console {
    static func out(_ line: String) {
        StandardOutput.write(line + "\n")
    }
    static func info(_ line: String) {
        message(line)
    }
    /// A clear one-line error and exit code 2.
    static func fail(_ line: String) -> Never {
        message(line)
        exit(2)
    }
    /// One message on stderr: `backbeat: TEXT`, or `backbeat COMMAND: TEXT`, or TEXT alone (`prefix: ""`).
    static func message(_ text: String, prefix: String = "backbeat: ") {
        let shown = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.visible(String($0)) }
        FileHandle.standardError.write(Data((prefix + shown.joined(separator: "\n") + "\n").utf8))
    }
}
