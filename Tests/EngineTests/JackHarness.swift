import Foundation
import Testing

/// Real components for integration tests: a private `jackd -d dummy` under a unique name, the built
/// `backbeat` binary, JACK's example clients. Everything is stopped when the test ends.
final class JackTestServer {
    let name: String
    let process: Process
    let rate: Int
    let period: Int

    init(rate: Int = 48_000, period: Int = 256) throws {
        name = "bbtest-\(checkoutTag)"
        self.rate = rate
        self.period = period
        process = try Self.startJackd(name: name, rate: rate, period: period)
        try waitUntilUp()
    }

    static func startJackd(name: String, rate: Int, period: Int) throws -> Process {
        let process = Process()
        // Through setpriv --pdeathsig: a crashed test process must not leave servers behind (jack2 allows
        // only a few at once). The spawning thread runs the (synchronous) test until it stops the server.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", "--", "/usr/bin/jackd", "-n", name, "-d", "dummy", "-r", String(rate), "-p", String(period)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// jackd has no readiness signal: a `jack_lsp` that succeeds is the signal.
    func waitUntilUp(timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? run("/usr/bin/jack_lsp", [], server: name).status) == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw HarnessError("jackd '\(name)' did not come up in \(timeout) s")
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    /// Ports of the server and what each connects to (`jack_lsp -c`).
    func connections() throws -> String { try run("/usr/bin/jack_lsp", ["-c"], server: name).output }
}

/// Names of test servers: the same on every run from this checkout, different between checkouts.
/// jack2 has 8 server slots and frees the slot of a server that died without unregistering (a SIGKILL test)
/// only when a server of the same name starts: unique names per run would leak slots until none is left.
let checkoutTag: String = {
    var hash: UInt32 = 2_166_136_261
    for byte in #filePath.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    return String(hash, radix: 16)
}()

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Whether a jackd named `name` runs (Backbeat's private server runs `jackd -R -n NAME`, tests' `jackd -n NAME`).
func jackdRunning(_ name: String) throws -> Bool {
    try run("/usr/bin/pgrep", ["-f", "jackd (-R )?-n \(name) "]).status == 0
}

/// Runs a command to completion with JACK_DEFAULT_SERVER set; returns its status and stdout+stderr.
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

/// The `backbeat` executable built beside the test bundle.
func backbeatExecutable() -> String {
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
    if directory.pathExtension == "xctest" { directory = directory.deletingLastPathComponent() }
    return directory.appendingPathComponent("backbeat").path
}

/// A running program whose stderr and stdout lines are collected, so a test can wait for a line (a signal).
final class RunningProgram: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var lines: [String] = []
    /// Pipes (stdout, stderr) that reached end of file: every line of theirs is in `lines`.
    private var closedPipes = 0
    private let newLine = NSCondition()

    init(_ executable: String, _ arguments: [String], server: String?, environment extra: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        if let server { environment["JACK_DEFAULT_SERVER"] = server }
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        for pipe in [out, err] {
            let pending = PendingBytes()
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self else { return }
                if data.isEmpty {
                    handle.readabilityHandler = nil
                    self.newLine.lock()
                    self.closedPipes += 1
                    self.newLine.broadcast()
                    self.newLine.unlock()
                    return
                }
                pending.data.append(data)
                while let newline = pending.data.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending.data[pending.data.startIndex..<newline], as: UTF8.self)
                    pending.data.removeSubrange(pending.data.startIndex...newline)
                    self.newLine.lock()
                    self.lines.append(line)
                    self.newLine.broadcast()
                    self.newLine.unlock()
                }
            }
        }
        try process.run()
    }

    var output: [String] {
        newLine.lock(); defer { newLine.unlock() }
        return lines
    }

    /// Waits until a line containing `text` appears (after `from` lines); returns it.
    @discardableResult
    func waitForLine(containing text: String, after from: Int = 0, timeout: TimeInterval = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        newLine.lock(); defer { newLine.unlock() }
        while true {
            if let line = lines.dropFirst(from).first(where: { $0.contains(text) }) { return line }
            if !process.isRunning && lines.dropFirst(from).allSatisfy({ !$0.contains(text) }) {
                // Give the reader a moment to deliver the last lines of a process that just ended.
                if !newLine.wait(until: min(deadline, Date().addingTimeInterval(0.5))) {
                    throw HarnessError("process ended without printing '\(text)'; output:\n" + lines.joined(separator: "\n"))
                }
                continue
            }
            if !newLine.wait(until: deadline) {
                throw HarnessError("no line containing '\(text)' within \(timeout) s; output:\n" + lines.joined(separator: "\n"))
            }
        }
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    func waitForExit(timeout: TimeInterval = 10) throws -> Int32 {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { self.process.waitUntilExit(); done.signal() }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.interrupt()
            kill(process.processIdentifier, SIGKILL)
            throw HarnessError("process did not exit within \(timeout) s")
        }
        // The pipes close after the process ends; wait for their last lines before anyone reads `output`.
        newLine.lock()
        let deadline = Date().addingTimeInterval(5)
        while closedPipes < 2 && newLine.wait(until: deadline) {}
        newLine.unlock()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }
}

/// A mono WAV file read into floats (PCM 16/24/32-bit or IEEE float 32), as jack_rec writes them.
struct WAVRecording {
    var sampleRate: Int
    var channels: [[Float]]

    init(path: String) throws {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 | Int(data[at + 2]) << 16 | Int(data[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        guard data.count >= 12, data[0..<4].elementsEqual("RIFF".utf8), data[8..<12].elementsEqual("WAVE".utf8) else {
            throw HarnessError("\(path): not a RIFF/WAVE file")
        }
        var offset = 12
        var format = 0, channelCount = 0, rate = 0, bits = 0
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<offset + 4], as: UTF8.self)
            var size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                format = u16(body); channelCount = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
                if format == 0xFFFE { format = u16(body + 24) }
            } else if id == "data" {
                if size == 0 || body + size > data.count { size = data.count - body }  // jack_rec killed early
                let bytesPerSample = bits / 8
                let frames = size / (bytesPerSample * max(channelCount, 1))
                var channels = Array(repeating: [Float](repeating: 0, count: frames), count: channelCount)
                for frame in 0..<frames {
                    for channel in 0..<channelCount {
                        let at = body + (frame * channelCount + channel) * bytesPerSample
                        let value: Float
                        switch (format, bits) {
                        case (3, 32): value = Float(bitPattern: UInt32(u32(at)))
                        case (1, 16): value = Float(Int16(bitPattern: UInt16(u16(at)))) / 32768
                        case (1, 24): value = Float(Int32(bitPattern: UInt32(u32(at - 1) & ~0xFF)) >> 8) / 8_388_608
                        case (1, 32): value = Float(Int32(bitPattern: UInt32(u32(at)))) / 2_147_483_648
                        default: throw HarnessError("\(path): unsupported WAV format \(format)/\(bits) bits")
                        }
                        channels[channel][frame] = value
                    }
                }
                sampleRate = rate
                self.channels = channels
                return
            }
            offset = body + size + (size & 1)
        }
        throw HarnessError("\(path): no data chunk")
    }
}

/// Bytes of a pipe not yet ending in a newline (touched only by that pipe's reader).
private final class PendingBytes: @unchecked Sendable { var data = Data() }
