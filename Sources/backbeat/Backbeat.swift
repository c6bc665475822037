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

    @OptionGroup(title: "Workstation") var ui: UIArguments

    @Flag(help: "Run the engine without the terminal UI, printing a status line every second.")
    var headless = false

    func run() throws {
        if headless {
            try Headless.run(engine)
        } else {
            try WorkstationCommand.run(engine: engine, ui: ui)
        }
    }
}
