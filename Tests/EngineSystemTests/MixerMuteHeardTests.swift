// Issue 39, section 4: the mixer's mute is heard. In a real terminal (tmux) the workstation plays a song with
// `--record-audio`; `O` opens the mixer and `m` mutes channel 1. The recording shows channel 1's pitch gone
// after the key while channel 2's plays on.
import Foundation
import TestSupport
import Testing

extension JACK {
@Suite struct MixerMuteHeardTests {
    /// Format 0, 96 ticks a quarter at 120 BPM, 60 beats (30 s): on every beat channel 1 strikes A5 (880 Hz)
    /// and channel 2 E4 (329.6 Hz; 880 Hz is none of its harmonics), each held 0.45 s.
    static func song() -> [UInt8] {
        TestSupport.twoChannelSong(velocity: 100)
    }

    @Test(.needs(executable: "/usr/bin/tmux", package: "tmux"))
    func mutingAChannelInTheMixerSilencesItsPartInTheRecording() throws {
        let folder = try makeTemporaryDirectory("backbeat-mute-heard")
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = folder.appendingPathComponent("two.mid").path, take = folder.appendingPathComponent("take.wav").path
        try Data(Self.song()).write(to: URL(fileURLWithPath: song))
        let term = try TmuxSession(width: 100, height: 30)
        // Effects off: a reverb tail is no part of what the mute silences.
        try term.launch("'\(backbeatExecutable())' '\(song)' --no-reverb --no-chorus --record-audio '\(take)' --server \(uniqueName("bbmute")) --no-autoconnect")
        try term.keys("O")
        _ = try term.waitFor(" Mixer ")
        // Two seconds of both parts before the key.
        let before = try term.waitFor("the song at 0:02") { (PlaySongTests.statusSeconds($0, after: "two.mid 0:") ?? 0) >= 2 }
        let mutedAt = try #require(PlaySongTests.statusSeconds(before, after: "two.mid 0:"))
        try term.keys("m")
        _ = try term.waitFor("channel 1 muted")
        // Four more seconds as the status line counts them (it may lag the song by up to a second).
        _ = try term.waitFor("the song 4 s on") { (PlaySongTests.statusSeconds($0, after: "two.mid 0:") ?? 0) >= mutedAt + 4 }
        try term.quitExpectingSuccess()

        let recording = try WAVRecording(path: take)
        let rate = recording.sampleRate
        let mono = AudioComparison.mono(recording)
        let first = try #require(AudioAnalysis.onsets(mono).first, "the song's first note in the take")
        // Both parts: the song's first second (from 0.1 s). Channel 2 alone: the last second that starts as
        // far into a beat and ends half a second before the take does, so both hold the same notes' shapes.
        let early = mono[(first + rate / 10)..<(first + rate / 10 + rate)]
        let beats = (mono.count - rate / 2 - rate - first - rate / 10) / (rate / 2)
        let lateStart = first + rate / 10 + beats * (rate / 2)
        #expect(lateStart >= first + (mutedAt + 2) * rate, "the late second starts well after the mute: \(lateStart - first) frames in")
        let late = mono[lateStart..<(lateStart + rate)]
        func db(_ x: ArraySlice<Float>, _ f: Double) -> Double { 20 * log10(max(AudioAnalysis.magnitude(x, at: f, sampleRate: rate), 1e-12)) }
        let mutedDrop = db(early, 880) - db(late, 880), keptChange = db(early, 329.63) - db(late, 329.63)
        print("mute heard: channel 1's 880 Hz fell \(String(format: "%.1f", mutedDrop)) dB (\(String(format: "%.1f", db(early, 880))) to \(String(format: "%.1f", db(late, 880))) dB); channel 2's 329.6 Hz changed \(String(format: "%.2f", keptChange)) dB")
        #expect(db(early, 880) > -40, "channel 1 was heard before the key")
        #expect(mutedDrop > 40, "channel 1's pitch after the mute")
        #expect(abs(keptChange) < 2, "channel 2 plays on (0.8 dB apart from the first second: the first notes sound a little louder)")
    }
}
}
