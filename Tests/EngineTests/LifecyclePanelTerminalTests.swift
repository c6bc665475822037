import Foundation
import Testing

extension JACK {
/// The lifecycle panel live in a real terminal: keys drive the simulated app, the header badge follows,
/// and a scenario file plays in real time with its narration.
@Suite struct LifecyclePanelTerminalTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func homeBackgroundsSuspendsAndForegroundReturns() throws {
        let server = "bbtui\(getpid())\(Int.random(in: 1000...9999))"
        let term = try TmuxSession(width: 200, height: 60)
        try term.type("'\(backbeatExecutable())' --server \(server) --no-autoconnect; echo \"EXIT=$?\"")
        try term.keys("Enter")
        try term.waitFor("MIDI monitor", timeout: 20)
        try term.waitFor("the panel's defaults") { $0.contains("swiftui · modes [audio] · playback · mixWithOthers off") }
        for _ in 0..<4 { try term.keys("Tab") }
        try term.waitFor("the lifecycle panel focused") { $0.contains(" Lifecycle ") && $0.contains("synth") }
        // Category record: the synth can no longer keep the app alive in background.
        try term.type("g")
        try term.waitFor("audio session category record")
        try term.type("h")
        try term.waitFor("the badge says background", timeout: 5) { screen in
            (screen.split(separator: "\n").first ?? "").hasSuffix(" background") && screen.contains("scenePhase.background")
        }
        try term.waitFor("suspended after the 5 s grace period", timeout: 10) { screen in
            (screen.split(separator: "\n").first ?? "").hasSuffix(" suspended")
        }
        try term.type("f")
        try term.waitFor("active again", timeout: 5) { screen in (screen.split(separator: "\n").first ?? "").hasSuffix(" active") }
        try term.type("q")
        let (status, _) = try term.waitForExit()
        #expect(status == 0)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func scenarioPlaysLiveWithItsNarration() throws {
        let server = "bbtui\(getpid())\(Int.random(in: 1000...9999))"
        let path = NSTemporaryDirectory() + "live-scenario-\(getpid()).toml"
        try """
            title = "Short live run"
            lifecycle = "scenes"
            background_modes = []
            [session]
            category = "playback"
            [[streams]]
            name = "synth"
            kind = "audio-output"
            playing = true
            [[steps]]
            at = 0.0
            event = "launch"
            say = "The user opens the app"
            [[steps]]
            at = 1.0
            event = "home"
            say = "Home, and no background mode"
            [[expect]]
            at = 6.5
            state = "suspended"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let term = try TmuxSession(width: 200, height: 60)
        try term.type("'\(backbeatExecutable())' --server \(server) --no-autoconnect --demo --scenario \(path); echo \"EXIT=$?\"")
        try term.keys("Enter")
        try term.waitFor("Lifecycle: Short live run", timeout: 20)
        try term.waitFor("Home, and no background mode", timeout: 5)
        try term.waitFor("sceneDidEnterBackground")
        try term.waitFor("the expectation", timeout: 12) { $0.contains("expect 1 ok") && $0.contains(" suspended") }
        // Suspended: the demo's MIDI is gated and shows as lost.
        try term.waitFor("LOST", timeout: 5)
        try term.type("q")
        let (status, _) = try term.waitForExit()
        #expect(status == 0)
    }
}
}
