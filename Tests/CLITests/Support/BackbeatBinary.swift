// Where things are for tests that launch the built `backbeat` binary, and running it to completion.
import Foundation

/// The package root, found from this file (Tests/CLITests/Support/BackbeatBinary.swift).
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let scenariosFolder = packageRoot.appendingPathComponent("scenarios")
/// Real Info.plists from public iOS projects, kept in the repository (Tests/Fixtures/plists/README.md).
let plistFolder = packageRoot.appendingPathComponent("Tests/Fixtures/plists")
let plistsPresent = FileManager.default.fileExists(atPath: plistFolder.path)

func plistFiles() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: plistFolder.path)) ?? []).filter { $0.hasSuffix(".plist") }.sorted()
}

/// The `backbeat` binary built beside this test bundle (the bundle may be a directory or a file next to the
/// products), or in the package's .build/debug; nil when it is not built.
let backbeatBinary: String? = {
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
    var candidates: [URL] = []
    for _ in 0..<4 {
        candidates.append(directory.appendingPathComponent("backbeat"))
        directory = directory.deletingLastPathComponent()
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/backbeat"))
    return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// The binary's path; where it should be when it is not built, so that running it fails with the path named.
func backbeatExecutable() -> String {
    backbeatBinary ?? packageRoot.appendingPathComponent(".build/debug/backbeat").path
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a finished run printed, stdout and stderr apart.
struct Output { var status: Int32; var stdout: String; var stderr: String }

/// Runs `backbeat` with `arguments` to its end; stdout and stderr apart.
func backbeat(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: backbeatExecutable())
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

/// Runs a command to completion (JACK_DEFAULT_SERVER set when `server` is given); its status and
/// stdout and stderr together.
@discardableResult
func run(_ executable: String, _ arguments: [String], server: String? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    if let server { environment["JACK_DEFAULT_SERVER"] = server }
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Writes `text` to a file of the temporary directory named after this process and `name`; its path.
func temporaryFile(_ name: String, _ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(getpid())-\(name)").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
