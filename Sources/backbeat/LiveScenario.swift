import Engine
import Foundation
import Lifecycle

/// `backbeat --headless --scenario FILE`: plays a lifecycle scenario in real time against the running
/// engine. The simulator's state really gates Backbeat (suspended: MIDI in is dropped and counted lost,
/// audio out is silence); the timeline lines of LIFECYCLE.md section 6 go to stdout as they happen, status
/// lines to stderr. A stream named `synth` of kind audio-output is Backbeat's synth: it is audible while
/// the real output level is above -60 dBFS.
enum LiveScenario {
    static let synthStream = "synth"
    static let audibleThreshold: Float = 0.001  // -60 dBFS

    static func runHeadless(_ arguments: EngineArguments, scenarioPath: String) throws {
        let scenario: Scenario
        do { scenario = try Scenario.load(path: scenarioPath) } catch { Console.fail("\(error)") }
        let signals = QuitSignals.install()
        let engine = Engine(options: arguments.engineOptions, log: { Console.info($0) })
        engine.setGates(midiDelivered: false, audioPlaying: false)  // not running until `launch`
        do { try engine.start() } catch { Console.fail("\(error)") }
        defer { engine.stop() }

        var player = ScenarioPlayer(scenario)
        let hasSynthStream = scenario.configuration.streams.contains { $0.name == synthStream }
        var audible = false
        var recentPeak: Float = 0
        var failed = 0, checked = 0
        var announcedEnd = false
        let start = ContinuousClock.now
        var nextStatus = 1.0
        Console.info("playing scenario '\(scenario.title)' (\(scenarioPath)) in real time")

        func emit(_ lines: [TimelineLine]) {
            for line in lines {
                Console.out(TimelineFormat.json(line))
                if case let .expectation(result) = line {
                    checked += 1
                    if !result.passed { failed += 1 }
                }
            }
        }

        while signals.wait(timeout: .milliseconds(10)) == nil {
            let elapsed = ContinuousClock.now - start
            let t = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            engine.drainEvents { event in
                if case let .meter(block) = event { recentPeak = max(recentPeak * 0.9, block.peakLeft, block.peakRight) }
            }
            if hasSynthStream && (recentPeak > audibleThreshold) != audible {
                audible.toggle()
                emit(player.setAudible(audible, stream: synthStream, at: t).map(TimelineLine.entry))
            }
            emit(player.advance(to: t))
            engine.setGates(midiDelivered: player.simulator.midiInputDelivered, audioPlaying: player.simulator.audioOutputPlays)
            if player.isFinished && !announcedEnd {
                announcedEnd = true
                Console.info("scenario finished: \(checked - failed) of \(checked) expectations passed; the engine keeps running until you quit")
            }
            if t >= nextStatus {
                nextStatus += 1
                Console.info(Headless.statusLine(engine.status()) + " | app \(player.simulator.state.rawValue)")
            }
        }
        if failed > 0 {
            engine.stop()
            throw ExitCodeError.expectationsFailed
        }
    }
}

enum ExitCodeError: Error {
    case expectationsFailed
}
