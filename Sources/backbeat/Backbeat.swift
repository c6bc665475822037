import ArgumentParser

/// Command-line parsing and wiring only: every subcommand lives in a file of its own.
@main
struct Backbeat: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backbeat",
        abstract: "A terminal workstation for live audio and MIDI on Linux (JACK, ALSA, ncurses).",
        discussion: """
            Incoming MIDI is synthesized in a JACK real-time callback; a lifecycle simulator shows which \
            streams would keep an iOS app alive in background, and gates Backbeat's own streams the same way.
            """,
        version: "0.1.0",
        subcommands: [Monitor.self, Decode.self, Render.self, LifecycleCommand.self]
    )

    @OptionGroup var engine: EngineArguments

    @Flag(help: "Run the engine without the terminal UI, printing a status line every second.")
    var headless = false

    @Option(help: ArgumentHelp("Play a lifecycle scenario live: it gates Backbeat's MIDI and audio as the simulated app's state changes.", valueName: "file"))
    var scenario: String?

    func run() throws {
        if let scenario, headless {
            do { try LiveScenario.runHeadless(engine, scenarioPath: scenario) } catch ExitCodeError.expectationsFailed { throw ExitCode(1) }
            return
        }
        if !headless {
            Console.info("the terminal workstation is not built yet; running headless")
        }
        try Headless.run(engine)
    }
}
