import Engine
import Headless
import Lifecycle
import Settings

/// `backbeat --headless --scenario FILE`: plays a lifecycle scenario in real time against the running
/// engine (`ScenarioPlayer`); here the engine is built from the arguments, the config and the NSM session.
/// `--demo` and the recordings work as without a scenario.
enum LiveScenario {
    static func runHeadless(_ arguments: EngineArguments, scenarioPath: String, config: Config = Config(), logFile: LogFile? = nil) throws {
        let scenario: Scenario
        do { scenario = try ScenarioPath.load(path: scenarioPath) } catch { Console.fail("\(error)") }
        let signals = QuitSignals.install()
        let nsm = NSMSession.join(signals: signals)
        let engine = SessionSetup.makeEngine(arguments, options: arguments.options(with: config.engine), config: config,
                                             nsm: nsm, logFile: logFile)
        let capture = CaptureController(engine: engine)
        let player = ScenarioPlayer(scenario, engine: engine, capture: capture, out: Console.out, info: Console.info)
        player.prepare()
        Console.info("playing scenario '\(scenario.title)' (\(scenarioPath)) in real time")
        SessionSetup.start(arguments, engine: engine, capture: capture)
        player.started()
        defer { engine.stop() }
        nsm?.ready(engine: engine, theme: nsm?.state?.theme, instruments: SessionSetup.instruments(arguments, config: config, nsm: nsm))
        defer { nsm?.client.stop() }

        player.run(until: signals)
        Console.info("quitting (signal \(signals.signal ?? 0))")
        try SessionSetup.finish(engine: engine, capture: capture, drain: player.drain)
        if player.failed > 0 {
            engine.stop()
            throw ExitCodeError.expectationsFailed
        }
    }
}

enum ExitCodeError: Error {
    case expectationsFailed
}
