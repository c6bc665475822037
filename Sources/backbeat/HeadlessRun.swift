import Engine
import Headless
import Settings

/// `backbeat --headless`: the engine without the terminal UI, one status line a second until a quit signal
/// (`HeadlessLoop`); here the engine is built from the arguments, the config and the NSM session.
enum HeadlessRun {
    /// `config`: the config file, whose engine settings count as in the workstation (the command line over
    /// them). `logFile`: `--log`, which gets every message the engine logs, as the workstation's does.
    static func run(_ arguments: EngineArguments, alsa: ALSAArguments, config: Config = Config(), logFile: LogFile? = nil) throws {
        let signals = QuitSignals.install()
        let nsm = NSMSession.join(signals: signals)
        let engine = SessionSetup.makeEngine(arguments, options: alsa.apply(to: arguments.options(with: config.engine)),
                                             config: config, nsm: nsm, logFile: logFile)
        let capture = CaptureController(engine: engine)
        SessionSetup.start(arguments, engine: engine, capture: capture)
        defer { engine.stop() }
        nsm?.ready(engine: engine, theme: nsm?.state?.theme)
        defer { nsm?.client.stop() }

        let loop = HeadlessLoop(engine: engine, capture: capture, out: Console.out, info: Console.info)
        loop.run(until: signals)
        Console.info("quitting (signal \(signals.signal ?? 0))")
        logFile?.write("quitting (signal \(signals.signal ?? 0))")
        try SessionSetup.finish(engine: engine, capture: capture, drain: loop.drain)
    }
}
