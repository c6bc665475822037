// A program that keeps running while the test watches its output lines: shared by the system tests.
import Foundation

/// A running program whose stderr and stdout lines are collected, so a test can wait for a line (a signal).
public final class RunningProgram: @unchecked Sendable {
    public let process = Process()
    private let lock = NSLock()
    private var lines: [String] = []
    /// Pipes (stdout, stderr) that reached end of file: every line of theirs is in `lines`.
    private var closedPipes = 0
    private let newLine = NSCondition()
    private var exitTime: Date?

    public init(_ executable: String, _ arguments: [String], server: String?, environment extra: [String: String] = [:]) throws {
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

    /// When `waitForExit` saw the process end: its last lines may come later (a program spawned meanwhile by
    /// another test can hold a copy of the pipes for a while), so a test timing the exit reads this.
    public var exitedAt: Date? {
        newLine.lock(); defer { newLine.unlock() }
        return exitTime
    }

    public var output: [String] {
        newLine.lock(); defer { newLine.unlock() }
        return lines
    }

    /// Waits until a line containing `text` appears (after `from` lines); returns it.
    @discardableResult
    public func waitForLine(containing text: String, after from: Int = 0, timeout: TimeInterval = 15) throws -> String {
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

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    public func waitForExit(timeout: TimeInterval = 10) throws -> Int32 {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            self.process.waitUntilExit()
            self.newLine.lock()
            self.exitTime = Date()
            self.newLine.unlock()
            done.signal()
        }
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

/// Bytes of a pipe not yet ending in a newline (touched only by that pipe's reader).
private final class PendingBytes: @unchecked Sendable { var data = Data() }
