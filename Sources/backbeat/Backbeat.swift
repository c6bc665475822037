import ArgumentParser
import DSP
import Foundation

/// Command-line parsing and wiring only: every subcommand lives in a file of its own. The root takes no
/// options of its own: a root option would shadow a subcommand's option of the same name (`render
/// --voices`), so the engine's options belong to `run`, the default subcommand.
@main
struct Backbeat: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backbeat",
        abstract: "A terminal workstation for live audio and MIDI on Linux (JACK, ALSA, ncurses).",
        discussion: """
            Incoming MIDI is synthesized in a JACK real-time callback; a lifecycle simulator shows which \
            streams would keep an iOS app alive in background, and gates Backbeat's own streams the same way. \
            With no subcommand Backbeat runs `run`: `backbeat --headless` is `backbeat run --headless`; a first \
            argument that is a MIDI file plays it: `backbeat song.mid` is `backbeat play song.mid`.
            """,
        version: "0.1.0",
        subcommands: [Run.self, Play.self, Monitor.self, Decode.self, SMFCommand.self, Render.self, LifecycleCommand.self, SoundFontCommand.self, InstrumentCommand.self, Bench.self, Soak.self],
        defaultSubcommand: Run.self
    )

    /// Output errors are checked from the start, so that even `--help > /dev/full` exits non-zero.
    static func main() {
        StandardOutput.installChecks()
        // BACKBEAT_VOICE_LOOPS naming a path this CPU does not run, or none at all: said once, then the fastest plays.
        if let warning = VoiceLoopPath.chosen.warning { Console.message("warning: " + warning) }
        // Completion scripts patched for the default subcommand (Completions.swift, CompletionScripts).
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.count == 2, arguments[0] == "--generate-completion-script", let script = CompletionScripts.script(for: arguments[1]) {
            print(script)
            return
        }
        do {
            // `backbeat song.mid` plays it (SongDispatch).
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            var command = try parseAsRoot(SongDispatch.arguments(arguments, subcommands: names))
            try command.run()
        } catch {
            // What the argument parser would print itself (`exit(withError:)`), but through `Console`: its
            // errors quote the user's values ("The value '...' is invalid"), which reach the terminal with
            // their control characters escaped, as every other message does. Help goes to stdout as it is.
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if !text.isEmpty {
                if code == .success { print(text) } else { Console.message(text, prefix: "") }
            }
            Foundation.exit(code.rawValue)
        }
    }
}
