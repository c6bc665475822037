import Engine
import Foundation
import Testing

/// The loudest peak readout on the meters ("-17.6 pk"), if any.
func meterPeak(_ screen: String) -> Double? {
    var best: Double?
    for line in screen.split(separator: "\n") where line.contains(" pk ") {
        let words = line.split(separator: " ")
        for (i, word) in words.enumerated() where word == "pk" && i > 0 {
            if let v = Double(words[i - 1]) { best = max(best ?? -.infinity, v) }
        }
    }
    return best
}

extension JACK {
@Suite struct WorkstationTerminalTests {
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func playsShowsHelpResizesAndRestoresTheTerminal() throws {
        let server = uniqueName("bbtui")
        let log = NSTemporaryDirectory() + "\(server).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let term = try TmuxSession(width: 200, height: 60)
        try term.launch("'\(backbeatExecutable())' --server \(server) --no-autoconnect --log \(log)")
        try term.waitFor("Keyboard")

        // A key plays a note: its name appears in the monitor.
        try term.type("i", thenWaitFor: "PLAY")
        try term.type("z", thenWaitFor: "C4 (60) velocity 100")
        // Hold mode keeps a note sounding, so the meter can be read: above -60 dBFS.
        try term.type(" ")
        try term.type("x", thenWaitFor: "D4 (62)")
        try term.waitFor("a meter above -60 dBFS", timeout: 5) { (meterPeak($0) ?? -.infinity) > -60 }
        try term.keys("BSpace")

        // Help overlay, closed by Esc.
        try term.type("?", thenWaitFor: "Help")
        let help = try term.screen()
        #expect(help.contains("quit") && help.contains("z s x d c v g b h n j m"))
        try term.keys("Escape")
        try term.waitFor("help closed") { !$0.contains("Esc closes") }
        try term.keys("Escape")  // leave play mode
        try term.waitFor("letters are commands again")

        // Too small, then the full layout again.
        try term.tmux(["resize-window", "-t", "main", "-x", "20", "-y", "6"])
        try term.waitFor("terminal too small")
        try term.tmux(["resize-window", "-t", "main", "-x", "200", "-y", "60"])
        try term.waitFor("full layout") { $0.contains("MIDI monitor") && $0.contains("Meters") && $0.contains("Synth") && $0.contains("Keyboard") }

        // q quits: the shell is back, exit status 0, nothing left running.
        let (status, after) = try term.quit()
        #expect(status == 0)
        #expect(!after.contains("MIDI monitor"), "the screen was not restored:\n\(after)")
        // Backbeat's private jackd ends after the shell is back; no signal says when.
        let gone = try waitUntil(timeout: 5) { try run("/usr/bin/pgrep", ["-f", server]).output.isEmpty }
        #expect(gone, "left running: \((try? run("/usr/bin/pgrep", ["-f", server]).output) ?? "")")
        let logText = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(logText.contains("ready:") && logText.contains("first frame"))
    }

    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func sigtermRestoresTheTerminal() throws {
        let server = uniqueName("bbtui")
        let term = try TmuxSession(width: 100, height: 30)
        try term.launch("'\(backbeatExecutable())' --server \(server) --no-autoconnect")
        let pids = try run("/usr/bin/pgrep", ["-f", "backbeat.*--server \(server)"]).output.split(separator: "\n").compactMap { Int32($0) }
        try #require(!pids.isEmpty)
        for pid in pids { kill(pid, SIGTERM) }
        let (status, after) = try term.waitForExit()
        #expect(status == 0)
        #expect(!after.contains("MIDI monitor"))
        #expect(try waitUntil(timeout: 5) { try run("/usr/bin/pgrep", ["-f", server]).output.isEmpty })
    }

    @Test func badThemeStopsBeforeTheScreenIsTaken() throws {
        let path = NSTemporaryDirectory() + "bad-theme-\(getpid()).toml"
        try "name = \"bad\"\n[styles]\nnormal = { fg = \"#12345\" }\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let term = try TmuxSession(width: 160, height: 20)
        try term.runCommand("'\(backbeatExecutable())' --server nosuch\(getpid()) --theme \(path)")
        let (status, screen) = try term.waitForExit()
        #expect(screen.contains("\(path):3: \"normal.fg\": expected a colour"))
        #expect(status == 2)
    }

    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func demoKeyPlaysAndAudioKeyRecordsAWav() throws {
        let directory = try makeTemporaryDirectory("bbrec").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 240 columns: room in the header for the take's file name beside the program's GM name
        // ("acoustic grand piano"); narrower, the header shortens REC to its seconds, by design.
        let term = try TmuxSession.workstation(width: 240, height: 60, in: directory)

        // D: the demo sequencer plays; the monitor shows its notes with source "demo", and they move.
        try term.type("D", thenWaitFor: "demo sequencer playing")
        let first = try term.waitFor("demo notes") { $0.contains("demo ") && $0.contains("velocity") }
        try term.waitFor("the monitor to move", timeout: 5) { $0 != first && $0.contains("demo ") }
        try term.waitFor("a meter above -60 dBFS", timeout: 5) { (meterPeak($0) ?? -.infinity) > -60 }

        // A: audio recording; the header shows the file and its seconds; A again stops and saves.
        try term.type("A", thenWaitFor: "REC audio backbeat-")
        // The header counts the recorded seconds: stop once it shows a whole one.
        try term.waitFor("a second recorded") { screen in
            guard let range = screen.range(of: #"REC audio \S+ [0-9]+\.[0-9] s"#, options: .regularExpression) else { return false }
            let seconds = screen[range].split(separator: " ").dropLast().last.flatMap { Double($0) } ?? 0
            return seconds >= 1
        }
        try term.type("A", thenWaitFor: "saved")
        try term.quitExpectingSuccess()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".wav") }
        #expect(files.count == 1, "\(files)")
        if let file = files.first {
            let size = (try FileManager.default.attributesOfItem(atPath: directory + "/" + file)[.size] as? Int) ?? 0
            #expect(size > 48_000, "about a second of audio: \(size) bytes")
        }
    }
}
}
