import Bench
import Foundation

/// `backbeat --headless --record-midi TAKE [ARGS]` on a private jackd, its MIDI from a probe sender: what the
/// take tests share. `close()` stops the sender and the server (call it in a `defer`).
final class HeadlessRecording {
    let server: JackTestServer
    let sender: ProbeMIDISender
    let backbeat: RunningProgram

    /// Starts Backbeat recording MIDI to `take` (and whatever `arguments` add) and waits until it records.
    init(take: String, _ arguments: [String] = [], waitFor: String = "recording MIDI to") throws {
        server = try JackTestServer()
        sender = try ProbeMIDISender(server: server.name)
        backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", server.name, "--no-autoconnect",
                                                             "--connect-midi", "\(sender.name):out", "--record-midi", take] + arguments,
                                      server: server.name)
        try backbeat.waitForLine(containing: waitFor)
    }

    /// Plays `events` and waits, by the status line's count of MIDI received (one a second), until every one
    /// has arrived; returns the last status line read.
    @discardableResult
    func play(_ events: [ProbeEvent]) throws -> String {
        sender.play(events)
        var line = ""
        for _ in 0..<30 {
            line = try nextStatusLine()
            if (statusNumber(after: "MIDI ", in: line) ?? 0) >= events.count { break }
        }
        return line
    }

    /// The next status line Backbeat prints (one a second).
    func nextStatusLine() throws -> String { try backbeat.waitForLine(containing: "| voices ", after: backbeat.output.count) }

    /// SIGTERM, then Backbeat's exit status once it has saved its files.
    func stop() throws -> Int32 {
        backbeat.signal(SIGTERM)
        return try backbeat.waitForExit(timeout: 15)
    }

    /// Records `events` (made for the server's rate) into `take` (with `arguments`) and stops Backbeat, until
    /// every message arrived: a cycle that the dummy driver skips under load loses that cycle's MIDI in JACK
    /// itself, which is not what these tests are about. Up to `attempts` runs, another only after a run that
    /// had xruns and lost a message. Returns the last run's status line, Backbeat's output and exit status, and
    /// how many messages were sent.
    static func recordAll(take: String, _ arguments: [String] = [], waitFor: String = "recording MIDI to", attempts: Int = 3,
                          events: (_ rate: Int) -> [ProbeEvent]) throws -> (line: String, output: [String], status: Int32, sent: Int) {
        for attempt in 1...attempts {
            let session = try HeadlessRecording(take: take, arguments, waitFor: waitFor)
            defer { session.close() }
            let sent = events(session.server.rate)
            var line = try session.play(sent)
            let received = statusNumber(after: "MIDI ", in: line) ?? 0
            let xruns = statusNumber(after: "xruns ", in: line) ?? 0
            if received < sent.count && xruns > 0 && attempt < attempts {
                _ = try session.stop()
                try? FileManager.default.removeItem(atPath: take)
                continue
            }
            // One more status line: the last notes' releases, and xruns counted to the end.
            line = try session.nextStatusLine()
            let status = try session.stop()
            return (line, session.backbeat.output, status, sent.count)
        }
        preconditionFailure("unreachable: the last attempt returns")
    }

    func close() {
        if backbeat.process.isRunning { backbeat.signal(SIGTERM); _ = try? backbeat.waitForExit() }
        sender.close()
        server.stop()
    }
}

/// The number after `label` in a status line ("voices 3/64" -> 3).
func statusNumber(after label: String, in line: String) -> Int? {
    guard let range = line.range(of: label) else { return nil }
    return Int(line[range.upperBound...].prefix { $0.isNumber })
}
