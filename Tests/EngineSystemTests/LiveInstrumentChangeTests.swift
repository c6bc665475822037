// Issue 38, section 1: the preset browser lists the `.sfz` files of `instrument_dir` and loads the chosen one on
// the keyboard's channel while everything plays on. In a real terminal, `backbeat play` plays a song whose
// channel 1 strikes A5 (880 Hz) and channel 2 E4 (329.6 Hz) on every beat through the built-in synth; the
// workstation records its output (A) while the browser puts an instrument that sounds 550 Hz at every key on
// channel 1. The recording: channel 2's E4 on every beat at one level (no gap), channel 1 at 880 Hz before the
// change and 550 Hz after it.
import Foundation
import TestSupport
import Testing

extension JACK.JackIntegrationTests {
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func theBrowserChangesAChannelsInstrumentWhileTheSongPlaysOn() throws {
        let directory = try makeTemporaryDirectory("bblive").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let instruments = directory + "/data/backbeat/instruments"
        try FileManager.default.createDirectory(atPath: instruments, withIntermediateDirectories: true)
        // *sine sounds 261.63 Hz at its key centre; tune moves it, pitch_keytrack=0 keeps it at every key.
        let cents = Int((1200 * log2(550 / 261.6256)).rounded())
        try "<region> sample=*sine pitch_keytrack=0 tune=\(cents)\n".write(toFile: instruments + "/tenor.sfz", atomically: true, encoding: .utf8)
        try "<region> sample=*noise\n".write(toFile: instruments + "/breath.sfz", atomically: true, encoding: .utf8)
        try Data(TestSupport.twoChannelSong(velocity: 60)).write(to: URL(fileURLWithPath: directory + "/song.mid"))

        let term = try TmuxSession(width: 240, height: 50)
        try term.launch("cd '\(directory)' && XDG_DATA_HOME='\(directory)/data' '\(backbeatExecutable())' play song.mid --server \(uniqueName("bblive")) --no-autoconnect")
        try term.type("A", thenWaitFor: "REC audio")
        func recorded(atLeast seconds: Double) throws {
            try term.waitFor("\(seconds) s recorded") { screen in
                guard let range = screen.range(of: #"REC audio (\S+ )?[0-9]+\.[0-9] s"#, options: .regularExpression) else { return false }
                return (screen[range].split(separator: " ").dropLast().last.flatMap { Double($0) } ?? 0) >= seconds
            }
        }
        try recorded(atLeast: 2)
        // The browser lists the built-in programs, then the folder's instruments by name: "sfz" finds both.
        try term.type("i", thenWaitFor: "PLAY") // play mode: / opens the browser
        try term.type("/", thenWaitFor: "Presets")
        try term.type("sfz", thenWaitFor: "2 of 130")
        try term.waitFor("SFZ breath.sfz")
        try term.waitFor("SFZ tenor.sfz")
        try term.press("Down", thenWaitFor: "SFZ tenor.sfz")
        try term.press("Enter", thenWaitFor: "channel 1: instrument tenor.sfz")
        let changedAt = try term.screen()
        try term.keys("Escape")
        try term.waitFor("play mode left") { !$0.contains("PLAY") }
        try recorded(atLeast: 5)
        try term.type("A", thenWaitFor: "saved")
        try term.quitExpectingSuccess()
        #expect(changedAt.contains("loaded in"), "\(changedAt)")

        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".wav") }
        let file = try #require(files.first, "no recording in \(directory)")
        let recording = try WAVRecording(path: directory + "/" + file)
        let rate = recording.sampleRate, left = recording.channels[0]
        // Windows of a beat (0.5 s): each holds most of one beat's notes.
        let window = rate / 2
        var rows: [(e4: Double, a5: Double, tenor: Double)] = []
        for start in stride(from: 0, to: left.count - window, by: window) {
            let part = left[start..<(start + window)]
            func db(_ f: Double) -> Double { 20 * log10(max(AudioAnalysis.magnitude(part, at: f, sampleRate: rate), 1e-12)) }
            rows.append((db(329.63), db(880), db(550)))
        }
        print("live instrument change: per beat, E4 / A5 / 550 Hz dB: "
              + rows.map { String(format: "%.0f/%.0f/%.0f", $0.e4, $0.a5, $0.tenor) }.joined(separator: " "))
        try #require(rows.count >= 8, "\(rows.count) beats recorded")
        // Channel 2 plays on through the change: every beat's E4 within 1.5 dB of the others' median.
        let e4 = rows.map(\.e4).sorted(), median = e4[e4.count / 2]
        #expect(rows.allSatisfy { abs($0.e4 - median) < 1.5 }, "channel 2's E4 in every beat, median \(median) dB")
        // Channel 1: A5 (the built-in synth) first, the instrument's 550 Hz last, one switch between.
        let before = rows.prefix(3), after = rows.suffix(3)
        #expect(before.allSatisfy { $0.a5 > $0.tenor + 30 }, "channel 1 plays the built-in synth before the change")
        #expect(after.allSatisfy { $0.tenor > $0.a5 + 30 }, "channel 1 plays the instrument after the change")
        let switches = zip(rows, rows.dropFirst()).count { ($0.0.a5 > $0.0.tenor) != ($0.1.a5 > $0.1.tenor) }
        #expect(switches == 1, "channel 1 changes once: \(switches) switches")
    }
}
