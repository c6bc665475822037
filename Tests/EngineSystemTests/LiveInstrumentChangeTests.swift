// Issue 38, section 1: the preset browser lists the `.sfz` files of `instrument_dir` and loads the chosen one on
// the keyboard's channel while everything plays on. In a real terminal, `backbeat play` plays a song whose
// channel 1 strikes A5 (880 Hz) and channel 2 E4 (329.6 Hz) on every beat through the built-in synth; the
// workstation records its output (A) while the browser puts an instrument that sounds 550 Hz at every key on
// channel 1. The recording: channel 2's E4 on every beat at one level (no gap), channel 1 at 880 Hz before the
// change and 550 Hz after it.
import Foundation
import MIDI
import TestSupport
import Testing

/// The folders of a live change's test: one the workstation runs in (its recording lands there) and, in it,
/// `data/backbeat/instruments`, the browser's folder with XDG_DATA_HOME at `data`.
private func liveFolders(_ prefix: String) throws -> (directory: String, instruments: String) {
    let directory = try makeTemporaryDirectory(prefix).path
    let instruments = directory + "/data/backbeat/instruments"
    try FileManager.default.createDirectory(atPath: instruments, withIntermediateDirectories: true)
    return (directory, instruments)
}

/// Waits until the header shows `seconds` or more of the audio recording (with or without its file name).
private func waitForRecorded(_ term: TmuxSession, atLeast seconds: Double, timeout: TimeInterval = 15) throws {
    try term.waitFor("\(seconds) s recorded", timeout: timeout) { screen in
        guard let range = screen.range(of: #"REC audio (\S+ )?[0-9]+\.[0-9] s"#, options: .regularExpression) else { return false }
        return (screen[range].split(separator: " ").dropLast().last.flatMap { Double($0) } ?? 0) >= seconds
    }
}

/// The one WAV the workstation recorded in `directory`.
private func theRecording(in directory: String) throws -> WAVRecording {
    let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".wav") }
    return try WAVRecording(path: directory + "/" + (try #require(files.first, "no recording in \(directory)")))
}

extension JACK.JackIntegrationTests {
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func theBrowserChangesAChannelsInstrumentWhileTheSongPlaysOn() throws {
        let (directory, instruments) = try liveFolders("bblive")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // *sine sounds 261.63 Hz at its key centre; tune moves it, pitch_keytrack=0 keeps it at every key.
        let cents = Int((1200 * log2(550 / 261.6256)).rounded())
        try "<region> sample=*sine pitch_keytrack=0 tune=\(cents)\n".write(toFile: instruments + "/tenor.sfz", atomically: true, encoding: .utf8)
        try "<region> sample=*noise\n".write(toFile: instruments + "/breath.sfz", atomically: true, encoding: .utf8)
        try Data(TestSupport.twoChannelSong(velocity: 60)).write(to: URL(fileURLWithPath: directory + "/song.mid"))

        let term = try TmuxSession(width: 240, height: 50)
        try term.launch("cd '\(directory)' && XDG_DATA_HOME='\(directory)/data' '\(backbeatExecutable())' play song.mid --server \(uniqueName("bblive")) --no-autoconnect")
        try term.type("A", thenWaitFor: "REC audio")
        try waitForRecorded(term, atLeast: 2)
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
        try waitForRecorded(term, atLeast: 5)
        try term.type("A", thenWaitFor: "saved")
        try term.quitExpectingSuccess()
        #expect(changedAt.contains("loaded in"), "\(changedAt)")

        let recording = try theRecording(in: directory)
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

    /// An instrument over the sample cache, chosen in the browser: streamed from disk as one given at start is.
    /// `--sample-cache 8` and two samples of 16 MiB (keys 36 and 37: 500 Hz over the 16384-frame head read at
    /// load, 1000 Hz after it, read by the engine's loader once a note asks); a song holds key 36 on channel 1
    /// for 2 s every 3 s. After the change each note plays its head's 500 Hz, then the streamed 1000 Hz.
    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func aBigInstrumentChosenLiveIsStreamedFromDisk() throws {
        let (directory, instruments) = try liveFolders("bblivebig")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try Self.writeStreamedInstrument(in: URL(fileURLWithPath: instruments), count: 2)
        var track: [UInt8] = []
        for bar in 0..<12 { // 96 ticks a quarter at 120 BPM: 2 s held (384 ticks), 1 s rest (192)
            track += [bar == 0 ? 0 : 0x81, bar == 0 ? 0x00 : 0x40, 0x90, 36, 100]
            track += [0x83, 0x00, 0x80, 36, 0]
        }
        track += [0x00, 0xFF, 0x2F, 0x00]
        try Data(SMFEncoder.header(format: 0, tracks: 1, division: .ticksPerQuarterNote(96)) + SMFEncoder.trackChunk(track))
            .write(to: URL(fileURLWithPath: directory + "/song.mid"))

        let term = try TmuxSession(width: 240, height: 50)
        try term.launch("cd '\(directory)' && XDG_DATA_HOME='\(directory)/data' '\(backbeatExecutable())' play song.mid --sample-cache 8 --no-reverb --no-chorus --server \(uniqueName("bblivebig")) --no-autoconnect")
        try term.type("i", thenWaitFor: "PLAY")
        try term.type("/", thenWaitFor: "Presets")
        try term.type("big.sfz", thenWaitFor: "SFZ big.sfz")
        try term.press("Enter", thenWaitFor: "channel 1: instrument big.sfz", timeout: 30)
        let said = try term.screen()
        #expect(said.contains("streamed from disk"), "\(said)")
        try term.keys("Escape")
        try term.waitFor("play mode left") { !$0.contains("PLAY") }
        try term.type("A", thenWaitFor: "REC audio")
        try waitForRecorded(term, atLeast: 7, timeout: 20)
        try term.type("A", thenWaitFor: "saved")
        try term.quitExpectingSuccess()

        let recording = try theRecording(in: directory)
        let left = recording.channels[0]
        let onsets = AudioAnalysis.onsets(left, threshold: 1e-4, quietFrames: 4000).filter { $0 + 60_000 < left.count }
        var heard: [String] = []
        for onset in onsets {
            let head = AudioComparison.strongestFrequency(left[(onset + 1000)..<(onset + 15_000)], rate: recording.sampleRate, low: 300, high: 1500, resolution: 1)
            let tail = AudioComparison.strongestFrequency(left[(onset + 20_000)..<(onset + 60_000)], rate: recording.sampleRate, low: 300, high: 1500, resolution: 1)
            heard.append(String(format: "%.0f/%.0f", head.frequency, tail.frequency))
            #expect(abs(head.frequency - 500) < 5 && abs(tail.frequency - 1000) < 5, "note at \(onset): head \(head.frequency) Hz, tail \(tail.frequency) Hz")
        }
        print("live big instrument: \(said.contains("streamed from disk") ? "streamed" : "not streamed"); notes head/tail Hz: \(heard)")
        #expect(onsets.count >= 2, "onsets \(onsets)")
    }
}
