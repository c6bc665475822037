// `backbeat lifecycle run|check`: wiring only; the simulator, scenarios and plist import live in Lifecycle.
import ArgumentParser
import Foundation
import Lifecycle
import MIDI

struct LifecycleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifecycle",
        abstract: "Simulate iOS app lifecycle scenarios.",
        subcommands: [LifecycleRun.self, LifecycleCheck.self]
    )
}

/// Prints one line on stderr and exits with `code` (2: bad input).
func lifecycleFail(_ message: String, code: Int32 = 2) -> ExitCode {
    FileHandle.standardError.write(Data(("error: " + TerminalText.sanitized(message) + "\n").utf8))
    return ExitCode(code)
}

struct LifecycleRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario instantly and print its timeline.",
        discussion: "Exit status: 0 when every expectation passes, 1 when one fails, 2 on a bad file."
    )

    @Argument(help: "The scenario file (TOML, see docs/scenarios.md).")
    var file: String

    @Flag(help: "Print the timeline as JSON lines (LIFECYCLE.md section 6).")
    var json = false

    func run() throws {
        let scenario: Scenario
        do {
            scenario = try Scenario.load(path: file)
        } catch {
            throw lifecycleFail(error.description)
        }
        let result = scenario.run()
        if json {
            print(result.lines.map(TimelineFormat.json).joined(separator: "\n"))
        } else {
            let colour = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
            print(TimelineFormat.table(result, colour: colour), terminator: "")
        }
        if !result.passed { throw ExitCode(1) }
    }
}

struct LifecycleCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Say what could keep an app alive in background, from its Info.plist (XML or binary).",
        discussion: "With --emit-scenario, also write a starter scenario to FILE (or to stdout without FILE)."
    )

    @Argument(help: "The app's Info.plist.")
    var plist: String

    @Argument(help: "Where --emit-scenario writes the starter scenario (default: stdout).")
    var scenarioFile: String?

    @Flag(help: "Write a starter scenario for this app.")
    var emitScenario = false

    func validate() throws {
        if scenarioFile != nil && !emitScenario {
            throw ValidationError("a second file is only accepted with --emit-scenario")
        }
    }

    func run() throws {
        let report: InfoPlistReport
        do {
            report = try InfoPlistReport.load(path: plist)
        } catch {
            throw lifecycleFail(error.description)
        }
        guard emitScenario else {
            print(escaped(report.render(file: plist)), terminator: "")
            return
        }
        let text = report.starterScenario(title: URL(fileURLWithPath: plist).lastPathComponent)
        if let scenarioFile {
            print(escaped(report.render(file: plist)), terminator: "")
            do {
                try text.write(toFile: scenarioFile, atomically: true, encoding: .utf8)
            } catch {
                throw lifecycleFail("\(scenarioFile): cannot write the scenario: \(error.localizedDescription)")
            }
            print("starter scenario written to \(TerminalText.sanitized(scenarioFile))")
        } else {
            print(text, terminator: "")
        }
    }

    /// The report's lines with the plist's strings (and the path) escaped for the terminal.
    func escaped(_ report: String) -> String {
        report.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitized(String($0)) }.joined(separator: "\n")
    }
}
