// What the lifecycle commands print of a file's own strings is escaped for the terminal, and an output that
// cannot be written is an error (exit 1), not a silent success.
import Foundation
import Testing

private let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{202E}"
/// The same in TOML's escapes (a TOML string cannot hold control characters as they are).
private let hostileTOML = "\\u001B]0;owned\\u0007\\u001B[2J\\u009B31m\\u202E"

@Suite(.needsBackbeatBinary)
struct OutputEscapingTests {
    func scenario() throws -> String {
        try temporaryFile("escape.toml", """
            title = "Title \(hostileTOML)"
            lifecycle = "app-delegate"
            background_modes = []

            [[steps]]
            at = 0.0
            event = "launch"
            say = "Launch \(hostileTOML)"
            """)
    }

    func plist() throws -> String {
        try temporaryFile("escape.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>UIBackgroundModes</key><array><string>audio</string><string>mode\(hostile)</string></array>
            </dict></plist>
            """)
    }

    @Test func runEscapesTitleAndNarration() throws {
        let r = try backbeat(["lifecycle", "run", try scenario()])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Title \\x1B]0;owned\\x07\\x1B[2J\\x9B31m\\u{202E}"), "\(r.stdout)")
        #expect(r.stdout.contains("Launch \\x1B]0;owned"), "\(r.stdout)")
        #expect(!r.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E })
    }

    @Test func runJSONStaysValidJSONWithNoRawControls() throws {
        let r = try backbeat(["lifecycle", "run", try scenario(), "--json"])
        #expect(r.status == 0)
        #expect(!r.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E })
        for line in r.stdout.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
        }
    }

    @Test func checkEscapesPlistStrings() throws {
        let r = try backbeat(["lifecycle", "check", try plist()])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("mode\\x1B]0;owned\\x07"), "\(r.stdout)")
        #expect(!r.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
    }

    /// stdout on /dev/full: every write fails with ENOSPC.
    func toFull(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: backbeatBinary!)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    @Test func outputThatCannotBeWrittenExitsOne() throws {
        let runScenario = scenariosFolder.appendingPathComponent("midikit-swiftui.toml").path
        for arguments in [["lifecycle", "run", runScenario], ["lifecycle", "run", runScenario, "--json"],
                          ["lifecycle", "check", try plist()], ["--help"], ["lifecycle", "--help"]] {
            let r = try toFull(arguments)
            #expect(r.status == 1, "\(arguments): exit \(r.status)")
            #expect(r.stderr.contains("cannot write the output (standard output): No space left on device"), "\(arguments): \(r.stderr)")
        }
    }
}
