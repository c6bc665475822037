// `backbeat lifecycle run|check` end to end: the built binary, its output and exit codes.
import Foundation
import Testing
@testable import Lifecycle

@Suite(.needsBackbeatBinary)
struct LifecycleCommandTests {
    @Test func runPassingScenarioExitsZero() throws {
        let r = try backbeat(["lifecycle", "run", scenariosFolder.appendingPathComponent("midikit-swiftui.toml").path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("suspended"))
        #expect(r.stdout.contains("keepalive-never-plays"))
        #expect(!r.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }

    @Test func runJSONIsOneObjectPerLine() throws {
        let r = try backbeat(["lifecycle", "run", scenariosFolder.appendingPathComponent("ditto-background-sync.toml").path, "--json"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["t"] != nil)
        }
    }

    @Test func failingExpectationExitsOne() throws {
        let path = packageRoot.appendingPathComponent("Tests/Fixtures/golden.toml").path
        let r = try backbeat(["lifecycle", "run", path, "--json"])
        #expect(r.status == 1)
        #expect(r.stdout.contains(#""expect":false"#))
    }

    /// Runs `backbeat lifecycle <command>` on a temporary file `name` holding `text` (removed after); the
    /// file's path and what the run printed.
    func lifecycle(_ command: String, onFile name: String, holding text: String) throws -> (path: String, r: Output) {
        let path = try temporaryFile(name, text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return (path, try backbeat(["lifecycle", command, path]))
    }

    @Test func badFileExitsTwoWithFileAndLine() throws {
        let (path, r) = try lifecycle("run", onFile: "bad.toml", holding: "title = \"x\"\nlifecycle = \"swiftui\"\n[[steps]]\nat = 0\nevent = \"hme\"\n")
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(path):5: unknown event \"hme\""))
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stdout.isEmpty)
    }

    @Test func missingFileExitsTwo() throws {
        #expect(try backbeat(["lifecycle", "run", "/nonexistent.toml"]).status == 2)
    }

    @Test(.needs(plistsPresent, "needs Tests/Fixtures/plists (kept in the repository)"), arguments: plistFiles())
    func checkPlist(name: String) throws {
        let r = try backbeat(["lifecycle", "check", plistFolder.appendingPathComponent(name).path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("UIBackgroundModes"))
        #expect(r.stdout.contains("keepalive-player"))
    }

    @Test("check --json: one JSON object with every declared mode, only check codes",
          .needs(plistsPresent, "needs Tests/Fixtures/plists (kept in the repository)"), arguments: plistFiles())
    func checkJSON(name: String) throws {
        let r = try backbeat(["lifecycle", "check", plistFolder.appendingPathComponent(name).path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["file", "background_modes", "style", "scenes", "keeps_alive", "warnings"])
        let plist = try #require(NSDictionary(contentsOf: plistFolder.appendingPathComponent(name)) as? [String: Any])
        let declared = plist["UIBackgroundModes"] as? [String] ?? []
        let rows = try #require(object["background_modes"] as? [[String: Any]])
        #expect(rows.map { $0["mode"] as? String } == declared, "a row per declared mode, in the file's order")
        for row in rows where row["known"] as? Bool == true && row["modelled"] as? Bool == false {
            #expect((row["rule"] as? String)?.hasPrefix("not modelled: ") == true)
        }
        let codes = (object["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes == codes.sorted())
        #expect(Set(codes).isSubset(of: ["unknown-background-mode", "deprecated-mode", "missing-task-identifiers", "missing-usage-description"]))
        let style = try #require(object["style"] as? [String: Any])
        #expect((style["candidates"] as? [String])?.count == 2)
    }

    @Test("check gives the same bytes in every run (several scene configurations, random hash seeds)",
          .needs(plistsPresent, "needs Tests/Fixtures/plists (kept in the repository)"))
    func checkIsDeterministicAcrossRuns() throws {
        let plist = plistFolder.appendingPathComponent("CarPlay-two-scenes-Info.binary.plist").path
        let first = try backbeat(["lifecycle", "check", plist, "--json"])
        let text = try backbeat(["lifecycle", "check", plist])
        #expect(first.stdout.contains(#""scenes":[{"role":"CPTemplateApplicationSceneSessionRoleApplication","name":"CarPlay""#))
        for _ in 0..<8 {
            #expect(try backbeat(["lifecycle", "check", plist, "--json"]).stdout == first.stdout)
            #expect(try backbeat(["lifecycle", "check", plist]).stdout == text.stdout)
        }
    }

    @Test("wrong types exit 2 naming the key, the type found and expected",
          .needs(plistsPresent, "needs Tests/Fixtures/plists (kept in the repository)"),
          arguments: [("wrong-type-modes-string-Info.plist", "UIBackgroundModes is a string; expected an array of strings"),
                      ("wrong-type-manifest-array-Info.plist", "UIApplicationSceneManifest is an array; expected a dictionary"),
                      ("wrong-type-task-ids-string-Info.binary.plist", "BGTaskSchedulerPermittedIdentifiers is a string; expected an array of strings")])
    func checkWrongTypesExitTwo(name: String, message: String) throws {
        let path = plistFolder.appendingPathComponent("wrong-types/\(name)").path
        for extra in [[], ["--json"]] {
            let r = try backbeat(["lifecycle", "check", path] + extra)
            #expect(r.status == 2)
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == "backbeat lifecycle: \(path): \(message)\n")
        }
    }

    @Test("the emitted scenario carries no expectation; its steps say what the rules predict",
          .needs(plistsPresent, "needs Tests/Fixtures/plists (kept in the repository)"))
    func emittedScenarioHasNoSelfComputedExpectations() throws {
        let plist = plistFolder.appendingPathComponent("flutter_background_geolocation-Info.plist").path
        let r = try backbeat(["lifecycle", "check", plist, "--emit-scenario", "--lifecycle", "swiftui"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("[[expect]]"))
        #expect(r.stdout.contains("event = \"stream-stop:gps\""))
        #expect(r.stdout.contains("synth and gps keep the app alive"))
    }

    // Issue 11: --emit-scenario needs --lifecycle (the Info.plist cannot tell the style).
    @Test(.needs(plistsPresent, "needs Tests/Fixtures/plists (kept in the repository)"))
    func emitScenarioRunsAndPasses() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(getpid())-starter.toml").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let plist = plistFolder.appendingPathComponent("AudioKitSynthOne-Info.binary.plist").path
        let r = try backbeat(["lifecycle", "check", plist, "--emit-scenario", out, "--lifecycle", "app-delegate"])
        #expect(r.status == 0)
        #expect(try backbeat(["lifecycle", "run", out]).status == 0)
        let stdout = try backbeat(["lifecycle", "check", plist, "--emit-scenario", "--lifecycle", "scenes"])
        #expect(stdout.stdout.contains("[[steps]]"))
        #expect(stdout.stdout.contains("lifecycle = \"scenes\""))
    }

    @Test("--emit-scenario without --lifecycle says what the plist shows and refuses",
          .needs(plistsPresent, "needs Tests/Fixtures/plists (kept in the repository)"),
          arguments: [("MIDIKit-VirtualOutput-Info.plist", "has a UIApplicationSceneManifest"),
                      ("MIDIKit-BluetoothMIDI-Info.plist", "has no UIApplicationSceneManifest")])
    func emitScenarioNeedsLifecycle(name: String, shows: String) throws {
        let plist = plistFolder.appendingPathComponent(name).path
        let r = try backbeat(["lifecycle", "check", plist, "--emit-scenario"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("backbeat lifecycle: \(plist): the Info.plist \(shows)"))
        #expect(r.stderr.contains("not determinable"))
        #expect(r.stderr.contains("--lifecycle (app-delegate, scenes, swiftui)"))
        let report = try backbeat(["lifecycle", "check", plist])
        #expect(report.status == 0)
        #expect(report.stdout.contains("Lifecycle style: not determinable"))
    }

    @Test("the style given with --lifecycle is the one emitted; the emitted scenario passes",
          .needs(plistsPresent, "needs Tests/Fixtures/plists (kept in the repository)"), arguments: LifecycleStyle.allCases)
    func emitWithEachStyle(style: LifecycleStyle) throws {
        let plist = plistFolder.appendingPathComponent("MIDIKit-BluetoothMIDI-Info.plist").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(getpid())-\(style.rawValue).toml").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(try backbeat(["lifecycle", "check", plist, "--emit-scenario", out, "--lifecycle", style.rawValue]).status == 0)
        let scenario = try Scenario.load(path: out)
        #expect(scenario.configuration.style == style)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("not determinable"), "the file says the style was chosen")
        #expect(try backbeat(["lifecycle", "run", out]).status == 0)
    }

    @Test func badLifecycleOptionExitsTwo() throws {
        let plist = plistFolder.appendingPathComponent("Mux-ios-live-streaming-Info.plist").path
        let r = try backbeat(["lifecycle", "check", plist, "--emit-scenario", "--lifecycle", "uikit"])
        #expect(r.status == 2)
        #expect(r.stderr == "backbeat lifecycle: --lifecycle \"uikit\": unknown lifecycle style; accepted: app-delegate, scenes, swiftui\n")
    }

    @Test("bad times exit 2 with file:line", arguments: [("at = nan", 4), ("at = -inf", 4), ("at = -2", 4)])
    func badTimesExitTwo(at: String, line: Int) throws {
        let tag = String(at.unicodeScalars.filter(CharacterSet.alphanumerics.contains).map(Character.init))
        let path = try temporaryFile("time-\(tag).toml", "title = \"x\"\nlifecycle = \"swiftui\"\n[[steps]]\n\(at)\nevent = \"home\"\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try backbeat(["lifecycle", "run", path])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("backbeat lifecycle: \(path):\(line): \"at\" must be a finite number of seconds, not negative"))
        let until = try temporaryFile("until-\(tag).toml", "title = \"x\"\nuntil = nan\nlifecycle = \"swiftui\"\n")
        defer { try? FileManager.default.removeItem(atPath: until) }
        let u = try backbeat(["lifecycle", "run", until])
        #expect(u.status == 2)
        #expect(u.stderr.hasPrefix("backbeat lifecycle: \(until):2: \"until\" must be a finite number"))
    }

    @Test func svgToStdoutAndToAFile() throws {
        let scenario = scenariosFolder.appendingPathComponent("midikit-swiftui.toml").path
        let r = try backbeat(["lifecycle", "run", scenario, "--svg", "-"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("<?xml"))
        #expect(r.stdout.hasSuffix("</svg>\n"))
        #expect(!r.stdout.contains("expectation(s) passed"), "only the SVG on stdout")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(getpid())-t.svg").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let f = try backbeat(["lifecycle", "run", scenario, "--svg", out, "--json"])
        #expect(f.status == 0)
        #expect(f.stdout.hasPrefix("{\"t\":0.0"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == r.stdout)
        let bad = try backbeat(["lifecycle", "run", scenario, "--svg", "/nonexistent/dir/t.svg"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("backbeat lifecycle: /nonexistent/dir/t.svg: cannot write the SVG"))
    }

    // Issue 27: every input is protected; `--svg` over the scenario it draws replaced it.
    @Test func svgOverItsOwnScenarioIsRefused() throws {
        let original = try String(contentsOf: scenariosFolder.appendingPathComponent("midikit-swiftui.toml"), encoding: .utf8)
        let scenario = try temporaryFile("svg-self-\(getpid()).toml", original)
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let r = try backbeat(["lifecycle", "run", scenario, "--svg", scenario])
        #expect(r.status == 2)
        #expect(r.stderr.contains("the output '\(scenario)' is the input '\(scenario)'"), "\(r.stderr)")
        #expect(try String(contentsOfFile: scenario, encoding: .utf8) == original)
    }

    // Issue 27: `until` of 1e19 s or more trapped (SIGILL) while drawing the SVG.
    @Test func svgOfAHugeUntilDraws() throws {
        let scenario = try temporaryFile("huge-\(getpid()).toml", "lifecycle = \"swiftui\"\nuntil = 1e308\n[[steps]]\nat = 0\nevent = \"launch\"\n")
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let r = try backbeat(["lifecycle", "run", scenario, "--svg", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("</svg>\n"))
    }

    @Test(.needs(executable: "/usr/bin/python3", package: "python3"))
    func svgParsesAsXMLInPython() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(getpid())-py.svg").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let scenario = scenariosFolder.appendingPathComponent("mux-pip-conflict.toml").path
        #expect(try backbeat(["lifecycle", "run", scenario, "--svg", out]).status == 0)
        let python = try runToEnd("/usr/bin/python3", ["-c", "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); "
                                   + "print(' '.join(t.text or '' for t in r.iter('{http://www.w3.org/2000/svg}text')))", out])
        #expect(python.status == 0, "\(python.stderr)")
        let text = python.stdout
        for name in ["terminated", "background", "active", "video", "pip-detach-conflict", "sceneDidEnterBackground"] {
            #expect(text.contains(name), "\(name) in the SVG text")
        }
    }

    // Issue 36: a name that is no bundled scenario listed the build folders looked in, not the scenarios.
    @Test func anUnknownScenarioNameListsTheBundledOnes() throws {
        let r = try backbeat(["lifecycle", "run", "midikit"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("backbeat lifecycle: midikit: no such file, and no bundled scenario of that name; "
                                   + "did you mean midikit-app-delegate, midikit-scenes, midikit-swiftui? bundled: "), "\(r.stderr)")
        let bundled = try FileManager.default.contentsOfDirectory(atPath: scenariosFolder.path).filter { $0.hasSuffix(".toml") }
        for name in bundled { #expect(r.stderr.contains(String(name.dropLast(5))), "\(name) listed") }
        #expect(!r.stderr.contains(".build/debug/scenarios"), "the folders looked in are not the answer: \(r.stderr)")
        #expect(!r.stderr.contains("error:"))
    }

    @Test func checkOnANonPlistExitsTwo() throws {
        let (_, r) = try lifecycle("check", onFile: "junk.plist", holding: "{ not a plist")
        #expect(r.status == 2)
        #expect(r.stderr.contains("not a property list"))
    }
}
