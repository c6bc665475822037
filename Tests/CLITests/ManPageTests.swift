import Foundation
import Testing

/// docs/backbeat.1, the man page scripts/install installs, is what scripts/man-page makes from the built
/// `backbeat` (the parser's definitions), docs/keys.md and docs/man-sections.roff: the test makes it again
/// and fails when the shipped one differs, naming the command that brings it up to date.
@Suite struct ManPageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func theShippedManPageIsCurrent() throws {
        let result = try runToEnd(Self.repository + "/scripts/man-page", ["--check", "--binary", backbeatExecutable()])
        #expect(result.status == 0, "docs/backbeat.1 is stale: run scripts/man-page and commit docs/backbeat.1.\n\(result.stderr.suffix(4000))")
    }

    /// What the page holds beyond the options: every key of docs/keys.md's table, the files, the
    /// environment, the examples; and man renders it without a complaint.
    @Test func theManPageHoldsKeysFilesEnvironmentAndExamples() throws {
        let page = Self.repository + "/docs/backbeat.1"
        let shown = try runToEnd("/bin/sh", ["-c", "MANWIDTH=200 man -l '\(page)' 2>&1 | col -b"])
        #expect(shown.status == 0, "\(shown.stdout)")
        let text = shown.stdout
        #expect(!text.contains("warning:"), "\(text.prefix(3000))")
        for heading in ["SYNOPSIS", "KEYS", "FILES", "ENVIRONMENT", "EXAMPLES"] {
            #expect(text.contains("\n" + heading + "\n") || text.contains("\n" + heading + " "), "no \(heading) section")
        }
        for word in ["config.toml", "presets", "themes", "backbeat-YYYYMMDD-HHMMSS.mid", "jackd-NAME-PID.log", "JACK_DEFAULT_SERVER",
                     "BACKBEAT_IGNORE_PIPEWIRE", "NO_COLOR", "pw-jack backbeat", "backbeat render", "--record-audio",
                     "lifecycle run midikit-swiftui", "--hide"] {
            #expect(text.contains(word), "the man page lacks \(word)")
        }
        // Every key of the key table: each backticked token of its rows is on the page.
        let keys = try String(contentsOfFile: Self.repository + "/docs/keys.md", encoding: .utf8)
        let rows = keys.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Where") }
        #expect(rows.count > 40)
        var missing: [String] = []
        for row in rows {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 3 else { continue }
            let tokens = cells[2].split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            for token in tokens where !text.contains(token) { missing.append(token) }
        }
        #expect(missing.isEmpty, "keys missing from the man page: \(missing)")
    }
}
