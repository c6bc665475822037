// Scenario files (docs/lifecycle-rules.md section 5), the bundled scenarios, and the JSON timeline (section 6).
import Foundation
import Testing
@testable import Lifecycle

@Test("bundled scenarios load, run and pass", arguments: bundledScenarios())
func bundledScenarioPasses(name: String) throws {
    let scenario = try Scenario.load(path: scenariosFolder.appendingPathComponent(name).path)
    #expect(!scenario.expectations.isEmpty)
    #expect(scenario.steps.contains { $0.say != nil }, "narrated for demos")
    let run = scenario.run()
    #expect(run.passed, "\(run.failures.map(\.detail))")
}

@Test func theSeedsAreAllCovered() {
    let names = Set(bundledScenarios())
    for required in ["midikit-swiftui.toml", "midikit-scenes.toml", "midikit-app-delegate.toml", "ditto-background-sync.toml",
                     "mux-detach-reattach.toml", "mux-pip-conflict.toml", "plain-no-background-mode.toml",
                     "background-task-expires.toml", "interruption-resume-on-began.toml", "interruption-resume-on-ended.toml"] {
        #expect(names.contains(required))
    }
    let doc = (try? String(contentsOf: packageRoot.appendingPathComponent("docs/scenarios.md"), encoding: .utf8)) ?? ""
    for name in names { #expect(doc.contains("`\(name)`"), "docs/scenarios.md lists \(name)") }
}

@Test("MIDIKit's recipe: MIDI lost once suspended", arguments: ["midikit-swiftui.toml", "midikit-scenes.toml", "midikit-app-delegate.toml"])
func midiKitLosesMIDI(name: String) throws {
    let run = try Scenario.load(path: scenariosFolder.appendingPathComponent(name).path).run()
    let midi = run.lines.compactMap { if case .entry(let e) = $0, let d = e.delivered { (e.state, d) } else { nil } }
    #expect(midi.contains { $0.1 == false })
    #expect(midi.allSatisfy { $0.1 == ($0.0 != .suspended) })
    #expect(run.simulator.codes.contains(.keepaliveNeverPlays))
}

/// A scenario with one expectation that holds and one that fails (Tests/Fixtures/golden.toml).
let goldenPath = packageRoot.appendingPathComponent("Tests/Fixtures/golden.toml").path
func golden() throws -> String { try String(contentsOfFile: goldenPath, encoding: .utf8) }

@Test func jsonTimelineMatchesSection6() throws {
    let run = try Scenario.parse(try golden(), file: "golden.toml").run()
    let lines = run.lines.map(TimelineFormat.json)
    #expect(lines == [
        #"{"t":0.0,"event":"launch","callbacks":["scenePhase.active"],"state":"active","alive_by":[],"reason":"launched in the foreground","warnings":[]}"#,
        #"{"t":5.0,"event":"home","callbacks":["scenePhase.inactive","scenePhase.background"],"state":"background","alive_by":["synth"],"reason":"the app entered background (home)","warnings":[]}"#,
        #"{"t":6.0,"event":"stream-stop:synth","callbacks":[],"state":"background","alive_by":[],"warnings":[]}"#,
        #"{"t":11.0,"event":null,"callbacks":[],"state":"suspended","alive_by":[],"reason":"nothing keeps the app alive 5 s after synth stopped keeping it alive","warnings":[]}"#,
        #"{"t":12.5,"event":"midi:keys","callbacks":[],"state":"suspended","alive_by":[],"warnings":[],"delivered":false}"#,
        #"{"t":20.0,"expect":true,"detail":"state suspended"}"#,
        #"{"t":20.0,"expect":false,"detail":"state background (got suspended)"}"#,
    ])
    #expect(!run.passed)
    for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }
}

@Test func jsonAliveBySortedAndWarningsPresent() throws {
    var sim = makeSimulator(modes: [.audio], category: .playback, active: true, streams: [
        StreamConfig(name: "zeta", kind: .audioOutput, playing: true), StreamConfig(name: "alpha", kind: .audioOutput, playing: true)])
    _ = sim.apply(.launch, at: 0)
    let e = sim.apply(.home, at: 1).last!
    #expect(TimelineFormat.json(.entry(e)).contains(#""alive_by":["alpha","zeta"]"#))
}

struct Malformed: Sendable, CustomTestStringConvertible {
    var label: String
    var text: String
    var line: Int
    var mentions: [String]
    var testDescription: String { label }
}

let header = "title = \"t\"\nlifecycle = \"swiftui\"\n"  // lines 1-2

let malformedCases: [Malformed] = [
    Malformed(label: "bad TOML", text: header + "[[steps]]\nat = 0\nevent = \"launch\n", line: 5, mentions: ["TOML syntax"]),
    Malformed(label: "unknown top-level key", text: header + "colour = \"red\"\n", line: 3, mentions: ["unknown key \"colour\"", "background_modes"]),
    Malformed(label: "unknown key in a step", text: header + "[[steps]]\nat = 0\nevent = \"launch\"\nsay = \"x\"\nwhen = 3\n", line: 7,
              mentions: ["unknown key \"when\"", "at, event, say"]),
    Malformed(label: "unknown key in session", text: header + "[session]\ncategory = \"playback\"\nmix = true\n", line: 5,
              mentions: ["unknown key \"mix\"", "category, options, active"]),
    Malformed(label: "unknown event", text: header + "[[steps]]\nat = 0\nevent = \"launch\"\n[[steps]]\nat = 1\nevent = \"hme\"\n", line: 8,
              mentions: ["unknown event \"hme\"", "home", "stream-start:S", "midi:S"]),
    Malformed(label: "unknown stream kind", text: header + "[[streams]]\nname = \"x\"\nkind = \"midi\"\n", line: 5,
              mentions: ["unknown kind \"midi\"", "midi-in", "keepalive-player", "background-task"]),
    Malformed(label: "unknown handler action", text: header + "[[handlers]]\non = \"scenePhase.background\"\ndo = [\"pause:x\"]\n", line: 5,
              mentions: ["unknown handler action \"pause:x\"", "play:S", "begin-background-task"]),
    Malformed(label: "unknown callback name", text: header + "[[handlers]]\non = \"applicationDidEnterBackgrnd\"\ndo = []\n", line: 4,
              mentions: ["unknown on \"applicationDidEnterBackgrnd\"", "scenePhase.background", "interruption.ended"]),
    Malformed(label: "bad time order", text: header + "[[steps]]\nat = 5.0\nevent = \"launch\"\n\n[[steps]]\nat = 2.0\nevent = \"home\"\n", line: 8,
              mentions: ["time order", "line 3"]),
    Malformed(label: "unknown lifecycle", text: "lifecycle = \"uikit\"\n", line: 1, mentions: ["app-delegate, scenes, swiftui"]),
    Malformed(label: "unknown stream in an action", text: header + "[[handlers]]\non = \"scenePhase.background\"\ndo = [\"play:ghost\"]\n", line: 5,
              mentions: ["unknown stream \"ghost\""]),
    Malformed(label: "unknown warning code", text: header + "[[expect]]\nat = 1\nwarnings = [\"silent\"]\n", line: 5,
              mentions: ["silent-keepalive", "video-autopaused"]),
    Malformed(label: "unknown category", text: header + "[session]\ncategory = \"playAndRecorder\"\n", line: 4,
              mentions: ["ambient, soloAmbient, playback, record, playAndRecord, multiRoute"]),
    Malformed(label: "unknown background mode", text: "lifecycle = \"scenes\"\nbackground_modes = [\"audi\"]\n", line: 2,
              mentions: ["unknown background_modes \"audi\"", "audio"]),
    Malformed(label: "midi on a non-midi stream", text: header + "[[streams]]\nname = \"s\"\nkind = \"audio-output\"\n[[steps]]\nat = 0\nevent = \"midi:s\"\n", line: 8,
              mentions: ["midi-in"]),
    Malformed(label: "nan step time", text: header + "[[steps]]\nat = nan\nevent = \"launch\"\n", line: 4,
              mentions: ["\"at\" must be a finite number of seconds, not negative", "nan"]),
    Malformed(label: "infinite step time", text: header + "[[steps]]\nat = inf\nevent = \"launch\"\n", line: 4,
              mentions: ["finite", "inf"]),
    Malformed(label: "negative step time", text: header + "[[steps]]\nat = -1.5\nevent = \"launch\"\n", line: 4,
              mentions: ["not negative", "-1.5"]),
    Malformed(label: "nan expectation time", text: header + "[[expect]]\nat = nan\nstate = \"active\"\n", line: 4,
              mentions: ["finite"]),
    Malformed(label: "negative expectation time", text: header + "[[expect]]\nat = -3\nstate = \"active\"\n", line: 4,
              mentions: ["not negative"]),
    Malformed(label: "infinite until", text: header + "until = inf\n", line: 3, mentions: ["\"until\" must be a finite number"]),
    Malformed(label: "negative until", text: header + "until = -1\n", line: 3, mentions: ["\"until\"", "not negative"]),
    Malformed(label: "step after until", text: header + "until = 4.0\n[[steps]]\nat = 5\nevent = \"launch\"\n", line: 5,
              mentions: ["comes after until = 4.0 (line 3)"]),
    Malformed(label: "expectation after until", text: header + "until = 4.0\n[[expect]]\nat = 5\nstate = \"active\"\n", line: 5,
              mentions: ["comes after until"]),
    Malformed(label: "adaptor outside swiftui", text: "lifecycle = \"scenes\"\napp_delegate_adaptor = true\n", line: 2,
              mentions: ["swiftui"]),
    Malformed(label: "unknown expect key", text: header + "[[expect]]\nat = 1\nstat = \"active\"\n", line: 5,
              mentions: ["at, state, alive_by, warnings"]),
]

@Test("malformed scenarios name file, line and accepted values", arguments: malformedCases)
func malformed(c: Malformed) {
    do {
        _ = try Scenario.parse(c.text, file: "bad.toml")
        Issue.record("accepted: \(c.label)")
    } catch {
        #expect(error.file == "bad.toml")
        #expect(error.line == c.line, "\(error)")
        #expect(error.description.hasPrefix("bad.toml:\(c.line): "))
        #expect(!error.description.contains("\n"))
        for m in c.mentions { #expect(error.message.contains(m), "\(error)") }
    }
}

@Test func unreadableFileIsAnErrorWithItsReason() {
    #expect(throws: ScenarioError.self) { try Scenario.load(path: "/nonexistent/x.toml") }
    do { _ = try Scenario.load(path: "/nonexistent/x.toml") } catch {
        #expect(error.message == "cannot read the file: No such file or directory", "\(error)")
    }
    do { _ = try Scenario.load(path: "/") } catch {
        #expect(error.message == "cannot read the file: it is a directory, not a regular file", "\(error)")
    }
}

@Test func unreadablePlistNamesTheReason() {
    do { _ = try InfoPlistReport.load(path: "/nonexistent/Info.plist") } catch {
        #expect(error.description == "/nonexistent/Info.plist: cannot read the file: No such file or directory")
    }
}

// Issue 11 made `terminate` under SwiftUI a rule (it was the example of an unknown rule): no scenePhase
// callback, terminated at once.
@Test func swiftUITerminateInJSON() throws {
    let text = header + "[[steps]]\nat = 0\nevent = \"launch\"\n[[steps]]\nat = 1\nevent = \"home\"\n[[steps]]\nat = 2\nevent = \"terminate\"\n"
    let run = try Scenario.parse(text, file: "u.toml").run()
    let last = TimelineFormat.json(run.lines.last!)
    #expect(last == #"{"t":2.0,"event":"terminate","callbacks":[],"state":"terminated","alive_by":[],"reason":"terminated while running in background: a SwiftUI app gets no scenePhase callback for it","warnings":[]}"#)
}

@Test func bundledScenariosCoverIssue11sEventsAndAreDrawn() throws {
    let scenarios = try bundledScenarios().map { try Scenario.load(path: scenariosFolder.appendingPathComponent($0).path) }
    let events = scenarios.flatMap { s in s.steps.map { (s.configuration.style, $0.event) } }
    #expect(events.contains { $0.1 == .otherAudioStart } && events.contains { $0.1 == .otherAudioStop })
    #expect(events.contains { $0 == (.swiftui, .terminate) })
    #expect(events.contains { $0.1 == .silentPush } && events.contains { if case .bleEvent = $0.1 { true } else { false } })
    #expect(scenarios.contains { $0.until != nil })
    #expect(scenarios.contains { s in s.configuration.options.contains(.mixWithOthers) && s.steps.contains { $0.event == .otherAudioStart } })
    let runs = scenarios.map { $0.run() }
    #expect(runs.contains { run in run.simulator.codes.contains(.handlerNeverCalled) })
    #expect(runs.contains { run in run.simulator.codes.contains(.pipDetachConflict) && run.lines.contains {
        if case .entry(let e) = $0 { e.state == .terminated && e.reason?.contains("crashed") == true } else { false } } })
    // scripts/scenario-svgs has drawn each one into docs/scenarios/.
    for name in bundledScenarios() {
        let svg = packageRoot.appendingPathComponent("docs/scenarios/" + name.replacingOccurrences(of: ".toml", with: ".svg"))
        #expect(FileManager.default.fileExists(atPath: svg.path), "docs/scenarios has no drawing of \(name): run scripts/scenario-svgs")
    }
}

// Issue 27: a scenario that was just `[` aborted Backbeat inside toml++. Now an error with file and line.
@Test(arguments: [("[", 1), ("[[[1]]]", 1), ("[[=", 1), ("lifecycle = \"swiftui\"\n\n[[steps]\n", 3)])
func malformedTOMLIsAScenarioErrorWithItsLine(text: String, line: Int) {
    #expect(throws: ScenarioError.self) { try Scenario.parse(text, file: "bad.toml") }
    do {
        _ = try Scenario.parse(text, file: "bad.toml")
    } catch {
        #expect(error.line == line && error.message.hasPrefix("TOML syntax"), "\(error)")
    }
}
