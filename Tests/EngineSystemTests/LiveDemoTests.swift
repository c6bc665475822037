import Bench
import Engine
import Foundation
import MIDI
import Testing

extension JACK {
    /// `backbeat --headless --scenario FILE` with a private jackd: the demo plays through the scenario's
    /// gates, and a note whose note-off was lost while suspended does not hang after `foreground`.
    @Suite struct LiveDemoTests {
        static func level(_ take: (left: [Float], right: [Float]), from: Int, frames: Int = 24_000) -> Double {
            let end = min(from + frames, take.left.count)
            return AudioAnalysis.rmsDecibels(take.left[min(from, end)..<end])
        }

        @Test func demoPlaysThroughTheScenario() throws {
            let file = fixturePath("scenarios/demo-while-active.toml")
            let server = try JackTestServer()
            defer { server.stop() }
            let recorder = try ProbeRecorder(server: server.name, seconds: 3)
            defer { recorder.close() }
            let backbeat = try RunningProgram(backbeatExecutable(), [
                "--headless", "--scenario", file, "--demo", "--server", server.name,
                "--connect-audio", "\(recorder.name):in_L", "--connect-audio", "\(recorder.name):in_R",
            ], server: server.name)
            try backbeat.waitForLine(containing: "\"event\":\"launch\"")
            try backbeat.waitForLine(containing: "playing the demo loop")
            recorder.start()
            let take = try recorder.waitUntilFull()
            let status = try backbeat.waitForLine(containing: "| app active", after: 0)
            let lines = backbeat.output.count
            let later = try backbeat.waitForLine(containing: "| app active", after: lines)
            let received = later.firstMatch(of: /MIDI (\d+) received, (\d+) lost/).map { (Int($0.1)!, Int($0.2)!) }
            #expect((received?.0 ?? 0) > 0, "the demo's MIDI reaches the engine: \(later) (first: \(status))")
            #expect(received?.1 == 0, "nothing lost while active: \(later)")
            #expect(AudioAnalysis.rmsDecibels(take.left[...]) > -40, "the demo is heard while active")
            try backbeat.waitForLine(containing: "narration: The app opens; the demo plays")
            try backbeat.waitForLine(containing: "\"expect\":true")
            try backbeat.waitForLine(containing: "scenario finished: 1 of 1 expectations passed")
            backbeat.signal(SIGTERM)
            #expect(try backbeat.waitForExit() == 0)
        }

        @Test func aNoteWhoseNoteOffWasLostIsReleasedOnForeground() throws {
            // Sine keys, which sustain: the default piano decays by itself, and would fall silent without a release.
            let run = try HeadlessScenarioRun(scenario: fixturePath("scenarios/note-off-lost-while-suspended.toml"), arguments: ["--patch", "sine-keys"])
            defer { run.close() }
            let (sender, recorder, backbeat) = (run.sender, run.recorder, run.backbeat)
            try backbeat.waitForLine(containing: "\"event\":\"launch\"")
            _ = sender.send(ShortMessage(status: 0x90, data1: 69, data2: 110))  // sine keys: sustains at 0.6
            let heard = recorder.position
            try backbeat.waitForLine(containing: "\"state\":\"suspended\"")
            let lines = backbeat.output.count
            _ = sender.send(ShortMessage(status: 0x80, data1: 69, data2: 0))  // lost
            try backbeat.waitForLine(containing: "1 lost", after: lines)
            try backbeat.waitForLine(containing: "\"event\":\"foreground\"")
            let resumed = recorder.position
            let narration = try backbeat.waitForLine(containing: "releases every voice")
            #expect(narration.contains("note-offs sent while the app ran no code were lost"))
            let take = try recorder.waitUntilFull()
            #expect(Self.level(take, from: heard + 2_400) > -40, "the note in the foreground")
            #expect(resumed + 48_000 <= take.left.count, "recording too short after foreground")
            // Release 0.3 s: from half a second after foreground on, silence. Without the release the note
            // would sound on at its sustain level (about -20 dBFS).
            #expect(Self.level(take, from: resumed + 24_000) < -90, "after foreground: \(Self.level(take, from: resumed + 24_000)) dBFS")
            backbeat.signal(SIGTERM)
            #expect(try backbeat.waitForExit() == 0)
        }
    }
}
