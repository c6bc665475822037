import Engine
import Headless
import Settings

/// `backbeat --headless`: the engine without the terminal UI, one status line a second until a quit signal
/// (`HeadlessLoop`); here the engine is built from the arguments, the config and the NSM session.
/// `backbeat play --headless` runs the same loop with the song player, until the queue has played.
enum HeadlessRun {
    /// `config`: the config file, whose engine settings count as in the workstation (the command line over
    /// them). `logFile`: `--log`, which gets every message the engine logs, as the workstation's does.
    /// `play`: the songs to play (`backbeat play`): the run ends when they have played, exit 0.
    static func run(_ arguments: EngineArguments, alsa: ALSAArguments, config: Config = Config(), logFile: LogFile? = nil,
                    play: SongQueue? = nil) throws {
        let signals = QuitSignals.install()
        let nsm = NSMSession.join(signals: signals)
        let engine = SessionSetup.makeEngine(arguments, options: alsa.apply(to: arguments.options(with: config.engine)),
                                             config: config, nsm: nsm, logFile: logFile)
        let capture = CaptureController(engine: engine)
        SessionSetup.start(arguments, engine: engine, capture: capture)
        defer { engine.stop() }
        nsm?.ready(engine: engine, theme: nsm?.state?.theme, instruments: SessionSetup.instruments(arguments, config: config, nsm: nsm))
        defer { nsm?.client.stop() }

        let loop = HeadlessLoop(engine: engine, capture: capture, out: Console.out, info: Console.info)
        if let play {
            let player = play.start(on: engine)
            defer { player.stop() }
            loop.statusExtra = { " | " + SongQueue.text(player.status()) }
            var ending = PlayEnding()
            loop.run(until: signals) { ending.isOver(finished: player.isFinished, voices: engine.voicesSounding) }
            player.stop()
            if signals.signal == nil {
                Console.info("played \(play.songs.count == 1 ? "'\(play.songs[0].name)'" : "\(play.songs.count) files")"
                             + (engine.playerLateEvents > 0 ? " (\(engine.playerLateEvents) events late)" : ""))
                try SessionSetup.finish(engine: engine, capture: capture, drain: loop.drain)
                return
            }
        } else {
            loop.run(until: signals)
        }
        Console.info("quitting (signal \(signals.signal ?? 0))")
        logFile?.write("quitting (signal \(signals.signal ?? 0))")
        try SessionSetup.finish(engine: engine, capture: capture, drain: loop.drain)
    }
}
