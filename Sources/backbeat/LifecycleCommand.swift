// `backbeat lifecycle run|check`: wiring only; the simulator, scenarios and plist import live in Lifecycle.
import ArgumentParser
import Engine
import Foundation
import Lifecycle
import MIDI
import TextOutput

struct LifecycleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifecycle",
        abstract: "Simulate iOS app lifecycle scenarios.",
        subcommands: [LifecycleRun.self, LifecycleCheck.self]
    )
}

/// Prints one line on stderr, `backbeat lifecycle: ` first as every command names itself, and exits with
/// `code` (2: bad input).
func lifecycleFail(_ message: String, code: Int32 = 2) -> ExitCode {
    Console.message(TerminalText.sanitized(message), prefix: "backbeat lifecycle: ")
    return ExitCode(code)
}

struct LifecycleRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario instantly and print its timeline.",
        discussion: "Exit status: 0 when every expectation passes, 1 when one fails, 2 on a bad file."
    )

    @Argument(help: "The scenario file (TOML, see docs/scenarios.md), or the name of a bundled one (midikit-swiftui).", completion: Completions.scenarios)
    var file: String

    @Flag(help: "Print the timeline as JSON lines (see docs/scenarios.md).")
    var json = false

    @Option(name: .customLong("svg"), help: ArgumentHelp("Also draw the timeline as SVG into this file; - writes it to stdout instead of the table.", valueName: "OUT.svg"), completion: .file(extensions: ["svg"]))
    var svg: String?

    func run() throws {
        let scenario: Scenario
        do {
            scenario = try ScenarioPath.load(path: try ScenarioPath.resolve(file))
        } catch {
            throw lifecycleFail("\(error)")
        }
        let result = scenario.run()
        if let svg {
            let drawing = TimelineSVG.render(result)
            if svg == "-" {
                print(drawing, terminator: "")
                if !result.passed { throw ExitCode(1) }
                return
            }
            do {
                try OutputFile.write(Array(drawing.utf8), to: svg)  // never over the scenario it draws
            } catch {
                throw lifecycleFail("\(svg): cannot write the SVG: \(error)")
            }
        }
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
        discussion: """
            Lists every UIBackgroundModes value with its rule (or "not modelled"), the scene configurations, \
            what could keep the app alive and the warnings (docs/lifecycle-rules.md); --json prints it as one \
            JSON object. A key of the wrong type, or a file that is not a plist, exits 2.
            With --emit-scenario, also write a starter scenario to FILE (or to stdout without FILE). An Info.plist \
            cannot tell the lifecycle style (a scene manifest serves UIKit scenes and SwiftUI alike, and SwiftUI \
            may generate it at build time), so --emit-scenario needs --lifecycle app-delegate|scenes|swiftui.
            """
    )

    @Argument(help: "The app's Info.plist.", completion: .file(extensions: ["plist"]))
    var plist: String

    @Argument(help: "Where --emit-scenario writes the starter scenario (default: stdout).", completion: .file(extensions: ["toml"]))
    var scenarioFile: String?

    @Flag(help: "Print the report as one JSON object (see docs/lifecycle-rules.md).")
    var json = false

    @Flag(help: "Write a starter scenario for this app (needs --lifecycle).")
    var emitScenario = false

    @Option(help: "The app's lifecycle style for --emit-scenario: app-delegate, scenes or swiftui.")
    var lifecycle: String?

    func validate() throws {
        if scenarioFile != nil && !emitScenario {
            throw ValidationError("a second file is only accepted with --emit-scenario")
        }
        if json && emitScenario {
            throw ValidationError("--json prints the report; it does not go with --emit-scenario")
        }
    }

    func run() throws {
        let report: InfoPlistReport
        do {
            report = try InfoPlistReport.load(path: plist)
        } catch {
            throw lifecycleFail(error.description)
        }
        let accepted = LifecycleStyle.allCases.map(\.rawValue).joined(separator: ", ")
        var style: LifecycleStyle?
        if let lifecycle {
            guard let s = LifecycleStyle(rawValue: lifecycle) else {
                throw lifecycleFail("--lifecycle \"\(lifecycle)\": unknown lifecycle style; accepted: \(accepted)")
            }
            guard emitScenario else { throw lifecycleFail("--lifecycle applies only with --emit-scenario") }
            style = s
        }
        if json {
            print(report.json(file: plist))  // JSONText.quote escapes every control character
            return
        }
        guard emitScenario else {
            print(escaped(report.render(file: plist)), terminator: "")
            return
        }
        guard let style else {
            throw lifecycleFail("\(plist): \(report.styleEvidence); pass --lifecycle (\(accepted)) to emit the starter scenario")
        }
        let text = report.starterScenario(title: URL(fileURLWithPath: plist).lastPathComponent, style: style)
        if let scenarioFile {
            print(escaped(report.render(file: plist)), terminator: "")
            do {
                // Refuses the plist itself as the output; writes devices and FIFOs in place, regular files all or nothing.
                try OutputFile.write(Array(text.utf8), to: scenarioFile, inputs: [plist])
            } catch {
                throw lifecycleFail("cannot write the scenario: \(error.description)")
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
