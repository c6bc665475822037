import Bench
import Engine
import Foundation
import MIDI
import Testing

extension JACK {
    /// A suspended Backbeat loses its MIDI and goes silent; back in the foreground it plays again.
    @Suite struct LiveScenarioTests {
        static let scenario = """
            title = "A suspended Backbeat loses its MIDI"
            lifecycle = "swiftui"
            background_modes = []
            [session]
            category = "soloAmbient"
            active = true
            [[streams]]
            name = "synth"
            kind = "audio-output"
            playing = true
            [[streams]]
            name = "jack"
            kind = "midi-in"
            [[handlers]]
            on = "scenePhase.active"
            do = ["play:synth"]
            [[steps]]
            at = 0.0
            event = "launch"
            [[steps]]
            at = 1.0
            event = "home"
            say = "Home: nothing keeps the app alive"
            [[steps]]
            at = 8.0
            event = "foreground"
            [[expect]]
            at = 7.0
            state = "suspended"
            alive_by = []
            """

        @Test func suspendedAppDropsMIDIAndIsSilentUntilForeground() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-live-\(getpid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("suspend.toml").path
            try Self.scenario.write(toFile: file, atomically: true, encoding: .utf8)

            let server = try JackTestServer()
            defer { server.stop() }
            let sender = try ProbeMIDISender(server: server.name)
            defer { sender.close() }
            let recorder = try ProbeRecorder(server: server.name, seconds: 10)
            defer { recorder.close() }
            recorder.start()
            let backbeat = try RunningProgram(backbeatExecutable(), [
                "--headless", "--scenario", file, "--server", server.name, "--connect-midi", "\(sender.name):out",
                "--connect-audio", "\(recorder.name):in_L", "--connect-audio", "\(recorder.name):in_R",
            ], server: server.name)
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
