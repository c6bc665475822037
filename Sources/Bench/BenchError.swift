/// What went wrong in a benchmark or a measurement client, each case naming what it waited for or read.
public enum BenchError: Error, CustomStringConvertible, Equatable {
    /// The `backbeat` child never printed its "ready:" line; `log` is what it printed.
    case notReady(log: String)
    /// `/proc/PID/smaps` could not be read, or had no Rss lines.
    case unreadableMemoryMap(pid: Int32, reason: String)
    /// A helper program (tmux, a reference client) failed; `command` is its command line.
    case commandFailed(command: String, output: String)
    /// The workstation drew no first frame in time; `log` is its log.
    case noFirstFrame(seconds: Int, log: String)
    /// The workstation's log has no "ready:" line.
    case noReadyLine
    /// A reference client started but its JACK port did not appear in time; `output` is what it printed.
    case portDidNotAppear(program: String, port: String, server: String, timeout: Duration, output: String)
    /// A probe recorder did not fill its buffer in time.
    case recorderTimedOut(timeout: Duration)

    public var description: String {
        switch self {
        case let .notReady(log): "backbeat did not become ready: \(log)"
        case let .unreadableMemoryMap(pid, reason): "cannot read /proc/\(pid)/smaps: \(reason)"
        case let .commandFailed(command, output): "\(command) failed" + (output.isEmpty ? "" : ": \(output)")
        case let .noFirstFrame(seconds, log): "the workstation drew no first frame in \(seconds) s; its log: \(log)"
        case .noReadyLine: "no 'ready:' line in the workstation's log"
        case let .portDidNotAppear(program, port, server, timeout, output):
            "\(program) started, but its port \(port) did not appear on JACK server '\(server)' within \(timeout) (its output: \(output))"
        case let .recorderTimedOut(timeout): "probe recorder did not fill within \(timeout)"
        }
    }
}
