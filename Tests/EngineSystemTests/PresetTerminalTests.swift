import Foundation
import Testing

/// Presets in the real workstation: `--preset` applied at start and shown in the synth panel, then `s`
/// saves what the panel shows under a name typed in the status line.
@Suite struct PresetTerminalTests {
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func presetAtStartThenSaveFromTheSynthPanel() throws {
        let server = uniqueName("bbpreset")
        let directory = try makeTemporaryDirectory("bbpreset").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let start = directory + "/start.toml"
        try "patch = 2\ncutoff = 900\nmaster_gain = -6\n".write(toFile: start, atomically: true, encoding: .utf8)

        let term = try TmuxSession(width: 160, height: 50)
        try term.launch("XDG_DATA_HOME='\(directory)' '\(backbeatExecutable())' --server \(server) --no-autoconnect --preset '\(start)'")
        try term.waitFor("the preset's settings in the synth panel") { $0.contains("2 square bass") && $0.contains("900 Hz") && $0.contains("-6.0 dB") }

        // Tab twice: monitor, meters, synth (the screen's reading order) (the status line's badge names the focused panel).
        try term.keys("Tab")
        try term.keys("Tab")
        try term.waitFor("the synth panel focused") { $0.split(separator: "\n").last?.hasPrefix(" Synth ") == true }
        try term.type("s", thenWaitFor: "save preset as: _")
        try term.type("live one", thenWaitFor: "save preset as: live one_")
        try term.press("Enter", thenWaitFor: "saved preset \"live one\"")
        try term.quitExpectingSuccess()
        let saved = try String(contentsOfFile: directory + "/backbeat/presets/live one.toml", encoding: .utf8)
        #expect(saved.contains("patch = 2 ") && saved.contains("cutoff = 900.0 ") && saved.contains("master_gain = -6.0 "), "\(saved)")
    }
}
