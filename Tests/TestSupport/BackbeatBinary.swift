// Where the built `backbeat` binary is, and running a program to completion: shared by every test target that
// launches processes (CLITests, EngineSystemTests).
import Foundation

/// The package root, found from this file (Tests/TestSupport/BackbeatBinary.swift).
public let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The `backbeat` binary built beside this test bundle (the bundle may be a directory or a file next to the
/// products), or in the package's .build/debug; nil when it is not built.
public let backbeatBinary: String? = {
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
public func backbeatExecutable() -> String {
    backbeatBinary ?? packageRoot.appendingPathComponent(".build/debug/backbeat").path
}

/// What a finished run printed, stdout and stderr apart.
public struct Output {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status; self.stdout = stdout; self.stderr = stderr
    }
}

/// Runs `backbeat` with `arguments` to its end; stdout and stderr apart.
public func backbeat(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
    try runToEnd(backbeatExecutable(), arguments, environment: environment)
}

/// Runs `executable` with `arguments` to its end; stdout and stderr apart. `stdin`, when given, is written
/// to its standard input, which is then closed; `standardOutput`, when given, is where its standard output
/// goes instead of a pipe (`stdout` is then empty).
public func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                     stdin: [UInt8]? = nil, standardOutput: FileHandle? = nil) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let input = Pipe(), out = Pipe(), err = Pipe()
    if stdin != nil { process.standardInput = input }
    process.standardOutput = standardOutput ?? out
    process.standardError = err
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(Data(stdin))
        try input.fileHandleForWriting.close()
    }
    let stdout = standardOutput == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                  stderr: String(decoding: stderr, as: UTF8.self))
}

/// Runs a command to completion (JACK_DEFAULT_SERVER set when `server` is given); its status and
/// stdout and stderr together.
@discardableResult
public func run(_ executable: String, _ arguments: [String], server: String? = nil) throws -> (status: Int32, output: String) {
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
public func temporaryFile(_ name: String, _ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-\(getpid())-\(name)").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
