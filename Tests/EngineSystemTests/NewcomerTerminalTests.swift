import Engine
import Foundation
import Testing

/// Issue 26's "Playing" and "Reading the screen" walls in a real terminal (tmux, 132x40, a private server:
/// the dummy driver here, as no sound card is found): the dummy-driver notice and a header that cuts no word,
/// play-mode keys, Tab order, the preset browser, one monitor row per echoed message, the SoundFont synth
/// panel, and one name stem for a MIDI and audio take.
extension JACK {
@Suite struct NewcomerTerminalTests {
    static let font = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func aNewcomersWalkThroughTheWorkstation() throws {
        let directory = try makeTemporaryDirectory("bbwalls").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let term = try TmuxSession.workstation(width: 132, height: 40, in: directory, server: uniqueName("bbwalls"))

        // The header: the dummy driver says nothing is heard; state, DSP and xruns show; no word is cut.
        var header = try term.waitFor("the dummy-driver notice") { $0.split(separator: "\n").first?.contains("no sound card") == true }
            .split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("DSP ") && header.contains("xruns ") && header.hasSuffix(" active"), "\(header)")

        // Tab follows the screen: monitor, meters, synth (the status line's badge names the focused panel).
        try term.keys("Tab")
        try term.waitFor("the meters focused") { $0.split(separator: "\n").last?.hasPrefix(" Meters ") == true }
        try term.keys("Tab")
        try term.waitFor("the synth focused") { $0.split(separator: "\n").last?.hasPrefix(" Synth ") == true }

        // Play mode: `>` moves the octave, `!` is panic, a dead key says so.
        try term.type("i", thenWaitFor: "PLAY")
        try term.type(">", thenWaitFor: "octave 5")
        try term.type("<", thenWaitFor: "octave 4")
        try term.type("!", thenWaitFor: "panic: every voice silenced")
        try term.type("k", thenWaitFor: "'k' plays nothing in play mode")

        // The preset browser (here the built-in patches): search, Enter plays; the header names it.
        try term.type("/", thenWaitFor: "Presets: built-in patches")
        try term.find("pad 2", thenChoose: "pad 2 (warm)")
        try term.waitFor("the header names the patch") { $0.split(separator: "\n").first?.contains("pad 2 (warm)") == true }

        // A note is one monitor row (its copy on midi_out is merged), with its direction.
        try term.type("z", thenWaitFor: "C4 (60) velocity 100")
        let screen = try term.waitFor("the note-off") { $0.contains("Note Off") }
        let rows = screen.split(separator: "\n").filter { $0.contains("Note On") && $0.contains("C4 (60)") }
        #expect(rows.count == 1, "\(screen)")
        #expect(rows.first?.contains("keys out") == true, "\(rows)")

        // One press of R records MIDI and audio under one name (a note played meanwhile); R again saves both.
        try term.keys("Escape")
        try term.type("R", thenWaitFor: "recording MIDI and audio")
        header = try term.waitFor("REC in the header") { $0.split(separator: "\n").first?.contains("REC") == true }
            .split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("DSP ") && header.contains("xruns "), "REC hides nothing: \(header)")
        try term.type("i", thenWaitFor: "PLAY")
        try term.type("x", thenWaitFor: "D4 (62) velocity 100")
        try term.endTake("R", saved: "both saved")
        try term.quitExpectingSuccess()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let stems = Set(files.map { ($0 as NSString).deletingPathExtension })
        #expect(files.count == 2 && stems.count == 1 && files.contains { $0.hasSuffix(".mid") } && files.contains { $0.hasSuffix(".wav") },
                "\(files)")
    }

    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"), .needs(file: font, package: "timgm6mb-soundfont"))
    func theSynthPanelOfASoundFontShowsWhatActsOnIt() throws {
        let server = uniqueName("bbwallsf")
        let term = try TmuxSession(width: 132, height: 40)
        try term.launch("'\(backbeatExecutable())' --server \(server) --no-autoconnect --soundfont \(Self.font)")
        var screen = try term.waitFor("the sound controller rows") { $0.contains("cutoff") && $0.contains("64 +0.0 oct") }
        #expect(!screen.contains("waveform") && !screen.contains("filter env"), "\(screen)")
        try term.keys("Tab")
        try term.keys("Tab")
        try term.waitFor("the synth focused") { $0.split(separator: "\n").last?.hasPrefix(" Synth ") == true }
        try term.keys("Down")
        try term.keys("H")
        // The panel shows the new value at once; the monitor, a period and a screen tick later.
        screen = try term.waitFor("cutoff lowered by CC74, and the control change in the monitor") {
            $0.contains("48 -1.2 oct") && $0.contains("Control Change")
        }
        #expect(screen.contains("= 48"), "the control change is in the monitor: \(screen)")
        // The browser lists the font's presets; a program number finds them in every bank.
        try term.press("Enter", thenWaitFor: "Presets: ")
        try term.find("40", thenChoose: "channel 1: preset 000:040")
        try term.waitFor("the header names the preset (at 132 columns its name alone)") { $0.split(separator: "\n").first?.contains("│ Violin │") == true }
        try term.quitExpectingSuccess()
    }
}
}
