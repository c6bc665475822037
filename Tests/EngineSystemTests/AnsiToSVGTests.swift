import Foundation
import Testing

/// `scripts/ansi-to-svg`, which draws README's screenshot from a tmux capture: colours and attributes
/// become fills, columns stay where the terminal had them, text is escaped for XML.
@Suite struct AnsiToSVGTests {
    @Test(.needs(["/usr/bin/python3", "/usr/local/bin/python3"].contains { FileManager.default.isExecutableFile(atPath: $0) },
                 "needs python3 in /usr/bin or /usr/local/bin: Debian package python3 (scripts/setup test)"))
    func coloursColumnsAndEscaping() throws {
        let capture = "\u{1B}[38;2;255;0;0mRed\u{1B}[0m ok \u{1B}[48;5;22;1mgreen\u{1B}[0m\n\u{1B}[7mrev\u{1B}[27m <&>\u{1B}[93m!\u{1B}[39m\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", InstalledPrefix.repository + "/scripts/ansi-to-svg", "-", "-", "--cols", "20", "--rows", "3"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(capture.utf8))
        try input.fileHandleForWriting.close()
        let svg = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // 20 columns of 8.4 px plus the margins; 3 rows of 17 px plus the margins.
        #expect(svg.contains(##"width="184" height="67""##), "\(svg)")
        #expect(svg.contains(##"fill="#ff0000">Red</text>"##), "\(svg)")
        // "green" starts at column 7 on a 256-colour background 22 (#005f00), in bold.
        #expect(svg.contains(##"<rect x="58.8" y="0" width="42.3" height="17" fill="#005f00"/>"##), "\(svg)")
        #expect(svg.contains(##"font-weight="bold">green</text>"##), "\(svg)")
        // Reverse swaps the default colours; bright yellow is xterm's 11.
        #expect(svg.contains(##"<rect x="0.0" y="17" width="25.5" height="17" fill="#d0d0d0"/>"##), "\(svg)")
        #expect(svg.contains(##"fill="#121212">rev</text>"##), "\(svg)")
        #expect(svg.contains(" &lt;&amp;&gt;</text>"), "\(svg)")
        #expect(svg.contains(##"fill="#ffff00">!</text>"##), "\(svg)")
        #expect(!svg.contains("\u{1B}"))
    }
}
