import ArgumentParser
import Engine
import Foundation
import MIDI
import Settings
import TextOutput
import TUI

/// `backbeat [run]`: the engine with the workstation, or `--headless` without it.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the engine (a private JACK server if none runs) and the workstation (the default).")

    @OptionGroup var engine: EngineArguments
    @OptionGroup(title: "ALSA") var alsa: ALSAArguments

    @OptionGroup(title: "Workstation") var ui: UIArguments

    @Flag(help: "Run the engine without the terminal UI, printing a status line every second.")
    var headless = false

    @Option(help: ArgumentHelp("Play a lifecycle scenario live (a file, or the name of a bundled one): it gates Backbeat's MIDI and audio as the simulated app's state changes.", valueName: "file"), completion: Completions.scenarios)
    var scenario: String?

    func validate() throws {
        if scenario != nil && alsa.driver == .alsa { throw ValidationError("--scenario runs with --driver jack only") }
        if alsa.midi == .alsa && !engine.connectMIDI.isEmpty { throw ValidationError("--connect-midi needs JACK MIDI (--midi jack, both or auto)") }
    }

    func run() throws {
        // Only the default config file may be absent: a path the user named that is not there is a mistake
        // (a typo would otherwise run with defaults and say nothing), in every mode.
        if let path = ui.config, !FileManager.default.fileExists(atPath: path) {
            Console.fail("\(ConfigFileError(file: path, line: 0, message: "no such config file (--config)"))")
        }
        let scenario: String?
        do { scenario = try self.scenario.map(ScenarioPath.resolve) } catch { Console.fail(TerminalText.sanitized("\(error)")) }
        // Opened (and protected from the takes) before anything else is, in every mode.
        let logFile: LogFile?
        do { logFile = try ui.log.map { path throws(SystemError) in try LogFile(path: path) } } catch { Console.fail("\(error)") }
        if let scenario, headless {
            do { try LiveScenario.runHeadless(engine, scenarioPath: scenario, config: ui.loadConfig(), logFile: logFile) }
            catch ExitCodeError.expectationsFailed { throw ExitCode(1) }
            return
        }
        if headless {
            try HeadlessRun.run(engine, alsa: alsa, config: ui.loadConfig(), logFile: logFile)
        } else {
            try WorkstationCommand.run(engine: engine, ui: ui, alsa: alsa, scenarioPath: scenario, logFile: logFile)
        }
    }
}
