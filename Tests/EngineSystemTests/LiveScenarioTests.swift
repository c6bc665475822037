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

        /// A scenario's own `midi:keys` steps play their notes through the synth's input ring: heard at the
        /// note's pitch while the app is active, dropped at the gate (counted lost, silence) while it is suspended.
        @Test func scenarioNotesAreHeardWhileActiveAndLostWhileSuspended() throws {
            let run = try HeadlessScenarioRun(scenario: fixturePath("scenarios/midi-steps-play-live.toml"), recordSeconds: 12)
            defer { run.close() }
            let (recorder, backbeat) = (run.recorder, run.backbeat)

            let first = try backbeat.waitForLine(containing: "\"event\":\"midi:keys\"")
            let heard = recorder.position
            #expect(first.contains("\"delivered\":true") && first.contains("\"state\":\"active\""), "\(first)")
            let dropped = try backbeat.waitForLine(containing: "\"delivered\":false")
            let lost = recorder.position
            #expect(dropped.contains("\"event\":\"midi:keys\"") && dropped.contains("\"state\":\"suspended\""), "\(dropped)")
            // The status line: the engine's own count of what its gate dropped (note on, note off, the lost
            // note on: no note off follows a lost note), and the scenario's stream counters.
            let status = try backbeat.waitForLine(containing: "MIDI 3 received, 1 lost")
            #expect(status.hasSuffix(" | keys 1 delivered, 1 lost"), "\(status)")
            let lines = backbeat.output.count
            let third = try backbeat.waitForLine(containing: "\"event\":\"midi:keys\"", after: lines)
            let again = recorder.position
            #expect(third.contains("\"delivered\":true"), "\(third)")
            let take = try recorder.waitUntilFull()

            // Each window: the 150 ms from the moment the step's line was read (the note sounds 250 ms from
            // a few ms before it).
            func window(_ from: Int) -> ArraySlice<Float> {
                let end = min(from + 7_200, take.left.count)
                return take.left[min(from + 480, end)..<end]
            }
            // The pitch over 150 ms of the note itself, from 10 ms after its first audible sample within half a
            // second of `from`: on a loaded machine the line is read late against the audio, and a window that
            // holds the note only in its last part measures its pitch coarsely (CI measured 666.5 Hz for 659.3).
            func pitch(_ from: Int, near hz: Double) -> Double {
                let searchEnd = min(from + 24_000, take.left.count)
                let onset = (from..<searchEnd).first { abs(take.left[$0]) > 1e-3 } ?? from
                let start = min(onset + 480, take.left.count), end = min(start + 7_200, take.left.count)
                return AudioAnalysis.dominantFrequency(take.left[start..<end], sampleRate: 48_000, low: hz * 0.9, high: hz * 1.1)
            }
            #expect(AudioAnalysis.rmsDecibels(window(heard)) > -40, "note while active: \(AudioAnalysis.rmsDecibels(window(heard))) dBFS")
            #expect(abs(pitch(heard, near: 880) - 880) < 880 * 0.01, "note 81 is 880 Hz: \(pitch(heard, near: 880))")
            #expect(AudioAnalysis.rmsDecibels(window(lost)) < -90, "note while suspended: \(AudioAnalysis.rmsDecibels(window(lost))) dBFS")
            #expect(again + 7_200 <= take.left.count, "recording too short after foreground")
            #expect(AudioAnalysis.rmsDecibels(window(again)) > -40, "note after foreground: \(AudioAnalysis.rmsDecibels(window(again))) dBFS")
            #expect(abs(pitch(again, near: 659.26) - 659.26) < 659.26 * 0.01, "note 76 is 659.3 Hz: \(pitch(again, near: 659.26))")

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
