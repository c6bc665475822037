import Foundation
import TextOutput
// Running a scenario, and the two renderings of its timeline: JSON lines (docs/scenarios.md, "Timeline
// output": a contract) and a readable table for people.

/// The outcome of one expectation.
public struct ExpectationResult: Sendable, Equatable {
    public var time: Double
    public var passed: Bool
    public var detail: String
    public var line: Int
}

/// One line of a run: a change or an expectation.
public enum TimelineLine: Sendable, Equatable {
    case entry(TimelineEntry)
    case expectation(ExpectationResult)
}

/// A finished run of a scenario.
public struct ScenarioRun: Sendable {
    public var scenario: Scenario
    public var lines: [TimelineLine]
    /// The simulator at the end, for inspection.
    public var simulator: LifecycleSimulator

    /// Whether every expectation passed.
    public var passed: Bool { failures.isEmpty }
    public var failures: [ExpectationResult] {
        lines.compactMap { if case .expectation(let e) = $0, !e.passed { e } else { nil } }
    }
}

/// Plays a scenario against the clock: steps and expectations are applied as time reaches them. Drives
/// both the instant run (`Scenario.run`, which advances to the end at once) and the live one (Backbeat
/// playing a scenario in real time, advancing every few milliseconds).
public struct ScenarioPlayer: Sendable {
    public let scenario: Scenario
    public private(set) var simulator: LifecycleSimulator
    private let expectations: [ScenarioExpectation]
    private var nextStep = 0
    private var nextExpectation = 0

    public init(_ scenario: Scenario) {
        self.scenario = scenario
        simulator = LifecycleSimulator(configuration: scenario.configuration)
        expectations = scenario.expectations.enumerated()
            .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    /// True once every step and expectation has been applied.
    public var isFinished: Bool { nextStep == scenario.steps.count && nextExpectation == expectations.count }

    /// Where the run ends, once known: the scenario's `until`, or, after the last step and expectation,
    /// the time of the last change still scheduled (now when nothing is). nil while steps remain and no
    /// `until` is set.
    public var endTime: Double? {
        if let until = scenario.until { return until }
        guard isFinished else { return nil }
        return simulator.nextDeadline ?? simulator.now
    }

    /// Safety bound on timed changes played after the last step; every chain of them ends (suspension,
    /// termination), so this is never reached by the rules as they are.
    static let maxTrailingChanges = 1_000

    /// Applies everything due at or before `time` (a step before an expectation at the same time), then
    /// lets the simulator's own timers run up to `time`. Returns the timeline lines in order.
    public mutating func advance(to time: Double) -> [TimelineLine] {
        var lines: [TimelineLine] = []
        let steps = scenario.steps
        while true {
            let stepDue = nextStep < steps.count && steps[nextStep].at <= time
            let expectationDue = nextExpectation < expectations.count && expectations[nextExpectation].at <= time
            if stepDue && (!expectationDue || steps[nextStep].at <= expectations[nextExpectation].at) {
                let step = steps[nextStep]
                var entries = simulator.apply(step.event, at: step.at)
                if !entries.isEmpty {
                    entries[entries.count - 1].narration = step.say
                    entries[entries.count - 1].note = step.note
                }
                lines += entries.map(TimelineLine.entry)
                nextStep += 1
            } else if expectationDue {
                let expectation = expectations[nextExpectation]
                lines += simulator.advance(to: expectation.at).map(TimelineLine.entry)
                lines.append(.expectation(Scenario.check(expectation, simulator)))
                nextExpectation += 1
            } else {
                break
            }
        }
        if time.isFinite {
            lines += simulator.advance(to: time).map(TimelineLine.entry)
        } else if isFinished {
            // Play on: every change the steps set in motion (a suspension, a task expiry, the end of a wake,
            // a termination after applicationWillTerminate) becomes a line, until nothing is scheduled.
            var count = 0
            while let deadline = simulator.nextDeadline, count < Self.maxTrailingChanges {
                lines += simulator.advance(to: deadline).map(TimelineLine.entry)
                count += 1
            }
        }
        return lines
    }

    /// Applies an event that did not come from the file (a key in the live panel) at `time`.
    public mutating func apply(_ event: LifecycleEvent, at time: Double) -> [TimelineEntry] {
        simulator.apply(event, at: time)
    }

    /// Updates whether a stream is audible (the live meter level), at `time`.
    public mutating func setAudible(_ audible: Bool, stream: String, at time: Double) -> [TimelineEntry] {
        simulator.setAudible(stream, audible, at: time)
    }
}

extension Scenario {
    /// Runs the scenario instantly: steps in order, each expectation after the steps at its time.
    /// Without `until` it plays on until nothing more is scheduled; with it, it stops there.
    public func run() -> ScenarioRun {
        var player = ScenarioPlayer(self)
        let lines = player.advance(to: until ?? .infinity)
        return ScenarioRun(scenario: self, lines: lines, simulator: player.simulator)
    }

    static func check(_ x: ScenarioExpectation, _ sim: LifecycleSimulator) -> ExpectationResult {
        var parts: [String] = []
        var passed = true
        func part(_ ok: Bool, _ text: String, _ got: String) {
            passed = passed && ok
            parts.append(ok ? text : "\(text) (got \(got))")
        }
        if let state = x.state { part(sim.state == state, "state \(state.rawValue)", sim.state.rawValue) }
        if let alive = x.aliveBy {
            part(alive.sorted() == sim.aliveBy, "alive_by [\(alive.sorted().joined(separator: ", "))]",
                 "[\(sim.aliveBy.joined(separator: ", "))]")
        }
        if let codes = x.warnings {
            let raised = Set(sim.raisedWarnings.map(\.code))
            let missing = codes.filter { !raised.contains($0) }
            part(missing.isEmpty, "warnings [\(codes.map(\.rawValue).joined(separator: ", "))]",
                 "[\(raised.sorted().map(\.rawValue).joined(separator: ", "))]")
        }
        if parts.isEmpty { parts = ["nothing to check"] }
        return ExpectationResult(time: x.at, passed: passed, detail: parts.joined(separator: ", "), line: x.line)
    }
}

/// Renderings of a timeline.
public enum TimelineFormat {
    /// One JSON object, as docs/scenarios.md ("Timeline output") specifies (keys in this order: t, event, callbacks,
    /// state, alive_by, reason, warnings, delivered; plus unknown_rule when no rule applied).
    public static func json(_ line: TimelineLine) -> String {
        switch line {
        case .expectation(let x):
            return "{\"t\":\(number(x.time)),\"expect\":\(x.passed),\"detail\":\(quote(x.detail))}"
        case .entry(let e):
            var out = "{\"t\":\(number(e.time)),\"event\":\(e.event.map(quote) ?? "null")"
            out += ",\"callbacks\":[\(e.callbacks.map(quote).joined(separator: ","))]"
            out += ",\"state\":\(quote(e.state.rawValue))"
            out += ",\"alive_by\":[\(e.aliveBy.sorted().map(quote).joined(separator: ","))]"
            if let r = e.reason { out += ",\"reason\":\(quote(r))" }
            out += ",\"warnings\":[\(e.warnings.map { quote($0.code.rawValue) }.joined(separator: ","))]"
            if let d = e.delivered { out += ",\"delivered\":\(d)" }
            if let u = e.unknownRule { out += ",\"unknown_rule\":\(quote(u))" }
            return out + "}"
        }
    }

    /// Seconds as JSON: always with a fraction (`5.0`), as in rules §6.
    public static func number(_ t: Double) -> String {
        if t == t.rounded() && abs(t) < 1e15 { return "\(Int(t)).0" }
        return "\(t)"
    }

    /// A JSON string literal (also a valid TOML basic string): MIDI's JSON writer, one escaper for all output.
    static func quote(_ s: String) -> String { JSONText.quote(s) }

    /// ANSI colour of each state in the strip.
    static func colour(_ state: AppState) -> String {
        switch state {
        case .active: "\u{1B}[42m"
        case .inactive: "\u{1B}[43m"
        case .background: "\u{1B}[44m"
        case .suspended: "\u{1B}[100m"
        case .terminated: "\u{1B}[41m"
        case .notRunning: "\u{1B}[47m"
        }
    }

    /// A readable table: time, event, callbacks, state, alive by, warnings, narration. With `colour`, each
    /// line starts with a coloured block for its state and failed expectations are red.
    public static func table(_ run: ScenarioRun, colour useColour: Bool) -> String {
        var rows: [[String]] = [["time", "event", "callbacks", "state", "alive by", "warnings", "narration"]]
        var states: [AppState?] = [nil]
        var extras: [[String]] = [[]]
        for line in run.lines {
            switch line {
            case .entry(let e):
                rows.append([number(e.time), e.event ?? "·", e.callbacks.isEmpty ? "-" : e.callbacks.joined(separator: ", "),
                             e.state.rawValue, e.aliveBy.isEmpty ? "-" : e.aliveBy.joined(separator: ", "),
                             e.warnings.isEmpty ? "-" : e.warnings.map(\.code.rawValue).joined(separator: ", "),
                             e.narration ?? ""])
                states.append(e.state)
                var more: [String] = []
                if let r = e.reason { more.append("reason: \(r)") }
                if let d = e.delivered {
                    let midi = e.event?.hasPrefix("midi:") ?? false
                    more.append(midi ? (d ? "MIDI delivered" : "MIDI lost") : (d ? "delivered" : "not delivered"))
                }
                if let u = e.unknownRule { more.append(u) }
                more += e.notes.map { "note: \($0)" }
                more += e.warnings.map { "\($0.code.rawValue): \($0.message)" }
                extras.append(more)
            case .expectation(let x):
                rows.append([number(x.time), "expect", x.passed ? "PASS" : "FAIL", "", "", "", x.detail])
                states.append(nil)
                extras.append([])
            }
        }
        // Titles, narration, stream names come from the scenario file: escaped, so a file cannot send the
        // terminal an escape sequence (a title change, a screen clear).
        rows = rows.map { $0.map(TerminalText.sanitized) }
        extras = extras.map { $0.map(TerminalText.sanitized) }
        let widths = (0..<6).map { c in rows.map { $0[c].count }.max() ?? 0 }
        var out = "\(TerminalText.sanitized(run.scenario.title))\n"
        for (i, row) in rows.enumerated() {
            var text = ""
            if useColour {
                text += states[i].map { colour($0) + "  " + "\u{1B}[0m " } ?? "   "
            }
            text += (0..<6).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
            text += "  " + row[6]
            if useColour && row[1] == "expect" && row[2] == "FAIL" { text = "\u{1B}[31m" + text + "\u{1B}[0m" }
            out += text.trimmingTrailingSpaces() + "\n"
            let indent = String(repeating: " ", count: (useColour ? 3 : 0) + widths[0] + 2)
            for extra in extras[i] { out += indent + "  " + extra + "\n" }
        }
        let failed = run.failures.count
        let total = run.scenario.expectations.count
        out += failed == 0 ? "\(total) expectation(s) passed\n" : "\(failed) of \(total) expectation(s) FAILED\n"
        return out
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
