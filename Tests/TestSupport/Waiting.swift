import Foundation

/// Polls a condition that has no signal of its own (a process vanishing, a file appearing) every 50 ms, up
/// to `timeout` seconds; whether it came true. Where there is a signal (a line printed), wait on it instead
/// (`RunningProgram.waitForLine`).
public func waitUntil(timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}
