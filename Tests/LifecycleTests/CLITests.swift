// `backbeat lifecycle run|check` end to end: the built binary, its output and exit codes.
import Foundation
import Testing
@testable import Lifecycle

/// The `backbeat` binary built next to this test bundle (or in the package's .build/debug).
let backbeatBinary: String? = {
    let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [bundleDir, bundleDir.deletingLastPathComponent(), packageRoot.appendingPathComponent(".build/debug")]
        .map { $0.appendingPathComponent("backbeat").path }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

struct Output { var status: Int32; var stdout: String; var stderr: String }

func backbeat(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: backbeatBinary!)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                  stderr: String(decoding: stderr, as: UTF8.self))
}

func temporaryFile(_ name: String, _ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(getpid())-\(name)").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite(.enabled(if: backbeatBinary != nil, "backbeat binary not built (swift build --build-tests builds it): CLI tests skipped"))
struct CLITests {
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
        let path = try temporaryFile("fail.toml", golden)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try backbeat(["lifecycle", "run", path, "--json"])
        #expect(r.status == 1)
        #expect(r.stdout.contains(#""expect":false"#))
    }

    @Test func badFileExitsTwoWithFileAndLine() throws {
        let path = try temporaryFile("bad.toml", "title = \"x\"\nlifecycle = \"swiftui\"\n[[steps]]\nat = 0\nevent = \"hme\"\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try backbeat(["lifecycle", "run", path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(path):5: unknown event \"hme\""))
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stdout.isEmpty)
    }

    @Test func missingFileExitsTwo() throws {
        #expect(try backbeat(["lifecycle", "run", "/nonexistent.toml"]).status == 2)
    }

    @Test(.enabled(if: plistsPresent, "testdata plists absent"), arguments: plistFiles())
    func checkPlist(name: String) throws {
        let r = try backbeat(["lifecycle", "check", plistFolder.appendingPathComponent(name).path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("UIBackgroundModes"))
        #expect(r.stdout.contains("keepalive-player"))
    }

    @Test(.enabled(if: plistsPresent, "testdata plists absent"))
    func emitScenarioRunsAndPasses() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(getpid())-starter.toml").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let plist = plistFolder.appendingPathComponent("AudioKitSynthOne-Info.binary.plist").path
        let r = try backbeat(["lifecycle", "check", plist, "--emit-scenario", out])
        #expect(r.status == 0)
        #expect(try backbeat(["lifecycle", "run", out]).status == 0)
        let stdout = try backbeat(["lifecycle", "check", plist, "--emit-scenario"])
        #expect(stdout.stdout.contains("[[steps]]"))
    }

    @Test func checkOnANonPlistExitsTwo() throws {
        let path = try temporaryFile("junk.plist", "{ not a plist")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try backbeat(["lifecycle", "check", path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("not a property list"))
    }
}
