import Foundation
import Testing

/// `--preset` as a user meets it: a missing or bad preset stops Backbeat with the file and line (exit 2)
/// before the engine or the screen is started (so these need no JACK server).
@Suite struct PresetCommandLineTests {
    @Test func missingOrBadPresetExitsTwoNamingFileAndLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-preset-cli-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let missing = try run(backbeatExecutable(), ["--headless", "--preset", "/nonexistent/lead.toml"])
        #expect(missing.status == 2)
        #expect(missing.output.contains("/nonexistent/lead.toml: no such preset file"), "\(missing.output)")

        let bad = directory.appendingPathComponent("bad.toml").path
        try "patch = 1\nresonance = 3\n".write(toFile: bad, atomically: true, encoding: .utf8)
        for arguments in [["--headless", "--preset", bad], ["monitor", "--preset", bad]] {
            let result = try run(backbeatExecutable(), arguments)
            #expect(result.status == 2)
            #expect(result.output.contains("\(bad):2: \"resonance\" must be a number in 0...1"), "\(arguments): \(result.output)")
            #expect(!result.output.contains("JACK"), "stopped before the engine: \(result.output)")
        }
    }
}
