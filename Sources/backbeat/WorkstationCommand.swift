import Engine
import Foundation
import Lifecycle
import Synchronization
import TUI

/// `backbeat` with no subcommand: the engine and the terminal workstation. Errors in the config or theme
/// stop it before the screen is taken; every way out gives the terminal back.
enum WorkstationCommand {
    /// `play`: songs to play from the start (`backbeat play`), their place shown on the status line.
    static func run(engine arguments: EngineArguments, ui: UIArguments, alsa: ALSAArguments, scenarioPath: String? = nil,
                    logFile: LogFile? = nil, play: SongQueue? = nil) throws {
        let utf8 = CursesDriver.prepareLocale()
        let environment = ProcessInfo.processInfo.environment
        // The config and the theme first: their mistakes are said also where no terminal is.
        let config = ui.loadConfig(environment: environment)
        let nsm = NSMSession.join(environment: environment)
        let theme: Theme
        let themeName = ui.theme ?? nsm?.state?.theme ?? config.theme ?? "dark"
        do { theme = try Theme.resolve(themeName, environment: environment) } catch { Console.fail("\(error)") }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            Console.fail("the workstation needs a terminal; use --headless to run without one")
        }
        if let problem = CursesDriver.terminalProblem() { Console.fail(problem) }
        let preset = nsm?.state?.synth ?? arguments.loadPreset(fallback: config.engine.preset)
        var options = alsa.apply(to: arguments.options(with: config.engine)).applying(preset)
        options.soundFont = arguments.loadSoundFont(fallback: preset?.soundFonts ?? config.engine.soundFonts,
                                                    sampleCacheFallback: config.engine.sampleCache,
                                                    instrumentFallback: preset?.instruments ?? config.engine.instruments)
        nsm?.adjust(&options)
        options.liveInstrumentChanges = true // the preset browser's .sfz files (docs/sfz.md)
        let scenario: Scenario?
        do { scenario = try scenarioPath.map { path throws(ScenarioError) in try ScenarioPath.load(path: path) } } catch { Console.fail("\(error)") }
        let messages = Mutex<[String]>([])

        let signals = QuitSignals.install()
        let log: @Sendable (String) -> Void = { line in
            logFile?.write(line)
            messages.withLock { $0.append(line) }
        }
        let engine = Engine(options: options, log: log)
        // A scenario's app is not running until its `launch` step: its steps at 0 are applied before the
        // engine starts, so a launch at 0 lets the first MIDI through (no LOST rows under an active badge).
        let lifecycle = scenario.map { LiveSession(scenario: $0) }
        lifecycle?.update(wall: 0).apply(to: engine, dropped: log)
        preset?.apply(to: engine)
        // The command line's interpolation wins over the preset's.
        if let asked = arguments.sound.interpolation { engine.synth.setInterpolation(asked) }
        let capture = CaptureController(engine: engine)
        SessionSetup.start(arguments, engine: engine, capture: capture)
        defer { engine.stop() }
        nsm?.ready(engine: engine, theme: themeName, instruments: SessionSetup.instruments(arguments, config: config, nsm: nsm))
        defer { nsm?.client.stop() }

        let settings = ui.settings(config, utf8: utf8)
        let actions = SessionActions(engine: engine, capture: capture)
        let workstation = Workstation(engine: engine, settings: settings, actions: actions,
                                      lifecycle: lifecycle)
        if let directory = config.engine.instrumentDirectory { workstation.instrumentDirectory = directory }
        if let mib = arguments.sound.sampleCache ?? config.engine.sampleCache { workstation.instrumentCacheBytes = mib << 20 }
        let noColor = ui.noColor || !(environment["NO_COLOR"] ?? "").isEmpty
        let driver = CursesDriver(theme: theme, noColor: noColor, utf8: utf8, asciiOnly: settings.ascii)
        defer { driver.close() }

        let player = play?.start(on: engine)
        defer { player?.stop() }
        actions.player = player
        // The player's place, on the status line when it changes (once a second) and no other message came.
        var playerText = ""
        let loop = WorkstationLoop(workstation: workstation, driver: driver)
        loop.run(messages: {
                     var lines = messages.withLock { lines in defer { lines.removeAll() }; return lines }
                     if let player, lines.isEmpty, case let text = SongQueue.text(player.status()), text != playerText {
                         playerText = text
                         lines.append(text)
                     }
                     return lines
                 },
                 stop: { signals.signal != nil }, firstFrame: { logFile?.write("first frame") })
        let reason = signals.signal.map { "signal \($0)" } ?? "q"
        driver.close()
        logFile?.write("quitting (\(reason))")
        // The workstation hands the last drained events to the recorders, then every file is written.
        try SessionSetup.finish(engine: engine, capture: capture) { workstation.tick(now: loop.now()) }
    }
}
