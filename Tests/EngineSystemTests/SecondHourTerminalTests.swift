import Foundation
import Testing

/// Issue 36, "The second hour", in a real terminal (tmux, a private server on the dummy driver) at the sizes
/// the user tried: the monitor's numbers whole, the header's rate, the hidden lifecycle panel, the stopped
/// synth on return, and a take that keeps the SoundFont presets chosen from the keyboard.
@Suite struct SecondHourTerminalTests {
    static let font = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    static func lines(_ screen: String) -> [Substring] { screen.split(separator: "\n", omittingEmptySubsequences: false) }

    /// At 120x40 the velocity is whole (it showed `velocity 10` for 100); at 80x24 the note name stays
    /// (columns go whole instead). The header shows the rate and the period in ms at every size the user tried.
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"), arguments: [(80, 24), (100, 30), (120, 40), (200, 60)])
    func theMonitorKeepsItsValuesAndTheHeaderItsRate(size: (Int, Int)) throws {
        let term = try TmuxSession.workstation(width: size.0, height: size.1)
        let header = try term.waitFor("the header's rate") { ($0.split(separator: "\n").first ?? "").contains("kHz") || ($0.split(separator: "\n").first ?? "").contains("000 Hz") }
        #expect(header.split(separator: "\n").first?.contains(" ms") == true, "\(header)")
        try term.type("i", thenWaitFor: "PLAY")
        try term.type("z")
        var screen = try term.waitFor("the note at velocity 100") { $0.contains("C4 (60) velocity 100") }
        try term.type("]]")
        try term.type("x")
        screen = try term.waitFor("the note at velocity 120") { $0.contains("D4 (62) velocity 120") }
        #expect(!Self.lines(screen).contains { $0.hasSuffix("velocity 10") || $0.hasSuffix("velocity 12") }, "\(screen)")
        try term.escapeAndQuitExpectingSuccess()
    }

    /// At 80x24 the lifecycle panel has no room: the screen says how to see it, Esc after P leaves the focus
    /// on a panel on screen, and `h` there does not send the app home unseen. `a` outside the panel says
    /// where it works. The help overlay wraps its lines rather than cutting them.
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func aHiddenLifecyclePanelNeverHasTheFocus() throws {
        let term = try TmuxSession.workstation(width: 80, height: 24)
        try term.waitFor("Lifecycle hidden: P shows it")
        try term.type("a", thenWaitFor: "in the Lifecycle panel")
        try term.type("P", thenWaitFor: "Lifecycle presenter")
        try term.keys("Escape")
        let screen = try term.waitFor("the presenter closed") { !$0.contains("Lifecycle presenter") }
        #expect(Self.lines(screen).last(where: { !$0.isEmpty })?.hasPrefix(" Lifecycle ") == false, "\(screen)")
        // Keys are handled in order: once the help shows, `h` has been handled too.
        try term.type("h")
        try term.type("?", thenWaitFor: "Help")
        let help = try term.screen()
        #expect(help.split(separator: "\n").first?.hasSuffix(" active") == true, "h sent the app home unseen: \(help)")
        // A long description continues on the next line: its end shows.
        #expect(help.contains("record MIDI and audio together, one take name") && help.contains("again saves both)"), "\(help)")
        try term.escapeAndQuitExpectingSuccess()
    }

    /// README step 5: `a` stops the synth, `h`, `f`: back in the foreground the narration says the synth is
    /// still stopped (nothing sounds) instead of nothing.
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func backInTheForegroundTheStoppedSynthIsSaid() throws {
        let term = try TmuxSession.workstation(width: 120, height: 40)
        try term.keys("BTab")
        try term.keys("BTab")
        try term.waitFor("the lifecycle panel focused") { Self.lines($0).last(where: { !$0.isEmpty })?.hasPrefix(" Lifecycle ") == true }
        try term.type("a", thenWaitFor: "synth stopped")
        try term.type("h", thenWaitFor: " background ")
        try term.type("f")
        let screen = try term.waitFor("the stopped synth said") { $0.replacingOccurrences(of: "\n", with: " ").contains("still stopped") }
        #expect(screen.split(separator: "\n").first?.hasSuffix(" active") == true, "\(screen)")
        try term.quitExpectingSuccess()
    }

    /// Presets chosen from the keyboard (PgDn in play mode, the preset browser) reach the synth as a bank
    /// select and a program change: the monitor shows them and the take keeps them (`backbeat smf`).
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"), .needs(file: font, package: "timgm6mb-soundfont"))
    func aTakeKeepsThePresetsChosenFromTheKeyboard() throws {
        let directory = try makeTemporaryDirectory("bbsecond").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let term = try TmuxSession(width: 120, height: 40)
        try term.launch("cd '\(directory)' && '\(backbeatExecutable())' --server \(uniqueName("bbsecond")) --no-autoconnect --soundfont \(Self.font)")
        try term.type("M", thenWaitFor: "REC")
        try term.type("i", thenWaitFor: "PLAY")
        try term.type("z", thenWaitFor: "C4 (60) velocity 100")
        try term.press("PgDn", thenWaitFor: "preset 000:001")
        try term.waitFor("the program change in the monitor") { $0.contains("Program Change") || $0.contains(" PC ") }
        try term.type("x", thenWaitFor: "D4 (62) velocity 100")
        try term.type("/", thenWaitFor: "Presets")
        try term.find("0:40", thenChoose: "preset 000:040")
        try term.type("c", thenWaitFor: "E4 (64) velocity 100")
        try term.endTake("M", saved: "the take saved")
        try term.quitExpectingSuccess()
        let take = try #require(try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasSuffix(".mid") })
        let listing = try run(backbeatExecutable(), ["smf", directory + "/" + take]).output
        let programs = listing.split(separator: "\n").filter { $0.contains("Program Change") }
        // The channel's state at the take's start (program 0), then both changes, each after its bank select.
        #expect(programs.count == 3, "\(listing)")
        #expect(programs.contains { $0.hasSuffix("C0 01") } && programs.contains { $0.hasSuffix("C0 28") }, "\(listing)")
    }
}
