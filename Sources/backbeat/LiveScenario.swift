import Engine
import Foundation
import Lifecycle
import Settings

/// `backbeat --headless --scenario FILE`: plays a lifecycle scenario in real time against the running
/// engine through `LiveSession`, the same live gating as the workstation's panel. The simulator's state
/// really gates Backbeat (suspended: MIDI in is dropped and counted lost, audio out is silence; an
/// interrupted or stopped `synth` stream is silence too); the timeline lines of the scenario format go to
/// stdout as they happen; status lines and the narration (the scenario's words, or Backbeat's when the
/// state changed after them) go to stderr. `--demo` and the recordings work as without a scenario.
enum LiveScenario {
    static func runHeadless(_ arguments: EngineArguments, scenarioPath: String, config: Config = Config(), logFile: LogFile? = nil) throws {
        let scenario: Scenario
        do { scenario = try ScenarioPath.load(path: scenarioPath) } catch { Console.fail("\(error)") }
        let signals = QuitSignals.install()
        let nsm = NSMSession.join(signals: signals)
        let preset = nsm?.state?.synth ?? arguments.loadPreset(fallback: config.engine.preset)
        var options = arguments.options(with: config.engine).applying(preset)
        options.soundFont = arguments.loadSoundFont(fallback: preset?.soundFonts ?? config.engine.soundFonts,
                                                    sampleCacheFallback: config.engine.sampleCache)
        nsm?.adjust(&options)
        let engine = Engine(options: options, log: { line in
            Console.info(line)
            logFile?.write(line)
        })
        preset?.apply(to: engine.synth)
        let capture = CaptureController(engine: engine)
        let session = LiveSession(scenario: scenario)
        session.keepsTimeline = true
        var failed = 0, checked = 0
        func emit(_ lines: [TimelineLine]) {
            for line in lines {
                Console.out(TimelineFormat.json(line))
                if case let .expectation(result) = line {
                    checked += 1
                    if !result.passed { failed += 1 }
                }
            }
        }
        // The steps at 0 before anything plays: a launch at 0 opens the gates for the demo's first notes.
        session.update(wall: 0).apply(to: engine, dropped: Console.info)
        Console.info("playing scenario '\(scenario.title)' (\(scenarioPath)) in real time")
        SessionSetup.start(arguments, engine: engine, capture: capture)
        for n in session.takeNarrations() { Console.info("narration: " + n.text) }
        emit(session.takeTimeline())  // once the engine runs, so a reader can play as soon as it sees launch
        defer { engine.stop() }
        nsm?.ready(engine: engine, theme: nsm?.state?.theme)
        defer { nsm?.client.stop() }

        var recentPeak: Float = 0
        var announcedEnd = false
        let start = ContinuousClock.now
        var nextStatus = 1.0
        func drain() {
            engine.drainEvents { event in
                switch event {
                case .midi(let midi): capture.record(midi, message: engine.message(of: midi))
                case .meter(let block): recentPeak = max(recentPeak * 0.9, block.peakLeft, block.peakRight)
                }
            }
        }
        var alsaSaid: String? = nil
        while signals.wait(timeout: .milliseconds(10)) == nil {
            let elapsed = ContinuousClock.now - start
            let t = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            drain()
            session.update(wall: t, synthLevelDB: LiveSession.decibels(recentPeak), demoPlaying: engine.demo.isPlaying)
                .apply(to: engine, dropped: Console.info)
            emit(session.takeTimeline())
            for n in session.takeNarrations() { Console.info("narration: " + n.text) }
            if session.scenarioFinished && !announcedEnd {
                announcedEnd = true
                Console.info("scenario finished: \(checked - failed) of \(checked) expectations passed; the engine keeps running until you quit")
            }
            if t >= nextStatus {
                nextStatus += 1
                Console.info(Headless.statusLine(engine.status(), alsaSaid: &alsaSaid) + " | app \(session.state.rawValue)"
                             + (session.midiCountsText.map { " | " + $0 } ?? ""))
            }
        }
        Console.info("quitting (signal \(signals.signal ?? 0))")
        try SessionSetup.finish(engine: engine, capture: capture, drain: drain)
        if failed > 0 {
            engine.stop()
            throw ExitCodeError.expectationsFailed
        }
    }
}

enum ExitCodeError: Error {
    case expectationsFailed
}
