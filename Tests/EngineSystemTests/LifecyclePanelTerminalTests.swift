import Foundation
import Testing

extension JACK {
/// The lifecycle panel live in a real terminal: keys drive the simulated app, the header badge follows,
/// and a scenario file plays in real time with its narration.
@Suite struct LifecyclePanelTerminalTests {
    /// The top row of the presenter badge's three-row capitals for ACTIVE (line strokes, or ASCII ones).
    static func showsBigActive(_ screen: String) -> Bool {
        screen.contains("┏━┓ ┏━╸ ╺┳╸ ╻ ╻ ╻ ┏━╸") || screen.contains("+-+ +-- -+- | | | +--")
    }

    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func homeBackgroundsSuspendsAndForegroundReturns() throws {
        let term = try TmuxSession.workstation(width: 200, height: 60)
        try term.waitFor("the panel's defaults") { $0.contains("swiftui · modes [audio] · playback · mixWithOthers off") }
        for _ in 0..<3 { try term.keys("Tab") }  // monitor, meters, synth, lifecycle: the screen's order
        try term.waitFor("the lifecycle panel focused") { $0.contains(" Lifecycle ") && $0.contains("synth") }
        // Category record: the synth can no longer keep the app alive in background.
        try term.type("g", thenWaitFor: "audio session category record")
        try term.type("h")
        try term.waitFor("the badge says background", timeout: 5) { screen in
            (screen.split(separator: "\n").first ?? "").hasSuffix(" background") && screen.contains("scenePhase.background")
        }
        try term.waitFor("suspended after the 5 s grace period", timeout: 10) { screen in
            (screen.split(separator: "\n").first ?? "").hasSuffix(" suspended")
        }
        try term.type("f")
        try term.waitFor("active again", timeout: 5) { screen in (screen.split(separator: "\n").first ?? "").hasSuffix(" active") }
        try term.quitExpectingSuccess()
    }

    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func scenarioPlaysLiveWithItsNarration() throws {
        let server = uniqueName("bbtui")
        let path = NSTemporaryDirectory() + "live-scenario-\(getpid()).toml"
        try fixtureText("scenarios/short-live-run.toml").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let term = try TmuxSession(width: 200, height: 60)
        try term.runCommand("'\(backbeatExecutable())' --server \(server) --no-autoconnect --demo --scenario \(path)")
        // The first frame: the launch at 0 opened the gates before the demo played, so no LOST rows under
        // an active badge.
        let first = try term.waitFor("Lifecycle: Short live run", timeout: 20)
        #expect(!first.contains("LOST"), "\(first)")
        try term.waitFor("Home, and no background mode", timeout: 5)
        try term.waitFor("sceneDidEnterBackground")
        try term.waitFor("the expectation", timeout: 12) { $0.contains("expect 1 ok") && $0.contains(" suspended") }
        // Suspended: the demo's MIDI is gated and shows as lost.
        try term.waitFor("LOST", timeout: 5)
        try term.waitFor("The scenario has finished", timeout: 5)
        try term.quitExpectingSuccess()
    }

    /// The presenter view in a real terminal at 120x36: the big badge, streams with their reasons, callbacks
    /// as they fire; the synth key, a single step to the suspension, foreground with the release, back.
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func presenterViewAt120x36() throws {
        let term = try TmuxSession.workstation(width: 120, height: 36)
        // The normal layout at 120x36 shows the streams and warnings lines.
        try term.waitFor("streams and warnings in the panel") { $0.contains("streams: synth*") && $0.contains("warnings: none") }
        try term.type("P")
        try term.waitFor("the presenter view") { screen in
            screen.contains("Lifecycle presenter") && Self.showsBigActive(screen) && screen.contains("active for") && screen.contains("callbacks as they fire")
                && screen.contains("there is no MIDI background mode: MIDI stops when the app is") && !screen.contains("MIDI monitor")
        }
        try term.type("a", thenWaitFor: "synth stopped")
        try term.type("h", thenWaitFor: "background for", timeout: 5)
        try term.waitFor("scenePhase.inactive, scenePhase.background")
        try term.type(".")  // single step: straight to the suspension, paused
        try term.waitFor("suspended after one step", timeout: 5) { $0.contains("suspended for") && $0.contains("PAUSED") }
        try term.waitFor("Suspended: nothing keeps the app alive 5 s after")
        try term.type(" ")
        try term.type("f")
        try term.waitFor("back and every voice released", timeout: 5) { Self.showsBigActive($0) && $0.contains("releases every voice") }
        try term.press("Escape", thenWaitFor: "MIDI monitor")
        try term.quitExpectingSuccess()
    }

    /// The presenter view at the minimum size, 80x24: badge, narration and the streams stay; pause and speed.
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func presenterViewAt80x24() throws {
        let term = try TmuxSession.workstation(width: 80, height: 24)
        try term.type("P")
        try term.waitFor("the presenter view") { screen in
            Self.showsBigActive(screen) && screen.contains("Active: launched in the foreground.")
                && screen.contains("jack") && screen.contains("there is no MIDI background mode: MIDI stops when the app is suspended")
        }
        try term.type(" ")
        try term.type("+", thenWaitFor: "PAUSED · speed 2x")
        try term.press("Escape", thenWaitFor: "MIDI monitor")
        try term.quitExpectingSuccess()
    }
}
}
