import Bench
import Engine
import Foundation
import MIDI
import Testing

extension JACK {
    /// A suspended Backbeat loses its MIDI and goes silent; back in the foreground it plays again.
    @Suite struct LiveScenarioTests {
        @Test func suspendedAppDropsMIDIAndIsSilentUntilForeground() throws {
            let run = try HeadlessScenarioRun(scenario: fixturePath("scenarios/suspended-loses-midi.toml"))
            defer { run.close() }
            let (sender, recorder, backbeat) = (run.sender, run.recorder, run.backbeat)
            let note = ShortMessage(status: 0x90, data1: 69, data2: 110)
            let noteOff = ShortMessage(status: 0x80, data1: 69, data2: 0)

            let launched = try backbeat.waitForLine(containing: "\"event\":\"launch\"")
            #expect(launched.contains("\"state\":\"active\""))
            _ = sender.send(note)
            let heard = recorder.position
            try backbeat.waitForLine(containing: "\"event\":\"home\"")
            _ = sender.send(noteOff)

            let suspended = try backbeat.waitForLine(containing: "\"state\":\"suspended\"")
            #expect(suspended.contains("\"reason\":\"nothing keeps the app alive 5 s after didEnterBackground\""))
            let lines = backbeat.output.count
            _ = sender.send(note)
            let lost = recorder.position
            let status = try backbeat.waitForLine(containing: "1 lost", after: lines)
            #expect(status.contains("app suspended"))
            _ = sender.send(noteOff)

            try backbeat.waitForLine(containing: "\"expect\":true")
            try backbeat.waitForLine(containing: "\"event\":\"foreground\"")
            _ = sender.send(note)
            let again = recorder.position
            let take = try recorder.waitUntilFull()
            _ = sender.send(noteOff)

            func level(_ from: Int) -> Double {
                let end = min(from + 24_000, take.left.count)
                return AudioAnalysis.rmsDecibels(take.left[min(from + 2400, end)..<end])
            }
            #expect(level(heard) > -40, "note in the foreground: \(level(heard)) dBFS")
            #expect(level(lost) < -90, "note while suspended: \(level(lost)) dBFS")
            #expect(again + 24_000 <= take.left.count, "recording too short after foreground")
            #expect(level(again) > -40, "note after foreground: \(level(again)) dBFS")

            backbeat.signal(SIGTERM)
            #expect(try backbeat.waitForExit() == 0, "the scenario's expectation failed: \(backbeat.output.suffix(5))")
        }

        @Test func badScenarioFileIsExitCode2() throws {
            let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--scenario", "/nonexistent/x.toml", "--server", "unused-\(getpid())"], server: nil)
            #expect(try backbeat.waitForExit() == 2)
            #expect(backbeat.output.contains { $0.contains("/nonexistent/x.toml") })
        }
    }
}
