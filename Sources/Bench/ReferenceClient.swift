import Engine
import Foundation
import Glibc
import SystemPackage

/// A reference program that joins a JACK server as a client (jack_midisine, FluidSynth), run as a child for
/// a comparison and stopped after it. Its stdin stays open: FluidSynth's shell quits at end of input.
public final class ReferenceClient {
    public let pid: pid_t
    /// The file the program's stdout and stderr go to.
    public let log: String
    private let stdin: Int32
    private var running = true

    private init(pid: pid_t, log: String, stdin: Int32) {
        self.pid = pid
        self.log = log
        self.stdin = stdin
    }

    /// Starts `arguments` (argv[0] a program name looked up on PATH) on `server` and waits until `port`
    /// exists. Such programs print nothing when their ports are up: polling the graph is the only signal.
    /// Nil when the program is not installed.
    public static func start(_ arguments: [String], server: String, waitingFor port: String,
                             timeout: Duration = .seconds(10)) throws -> ReferenceClient? {
        guard let name = arguments.first, let path = ChildProcess.find(name) else { return nil }
        let log = NSTemporaryDirectory() + "backbeat-\(name)-\(server).log"
        setenv("JACK_DEFAULT_SERVER", server, 1)
        let child = try ChildProcess.spawnWithOpenStdin([path] + arguments.dropFirst(), output: log)
        let client = ReferenceClient(pid: child.pid, log: log, stdin: child.stdin)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? JackProbeLookup.portExists(port, server: server)) == true { return client }
            usleepMilliseconds(50)
        }
        client.stop()
        throw BenchError.portDidNotAppear(program: name, port: port, server: server, timeout: timeout, output: log)
    }

    /// Writes `line` and a newline to the program's stdin (FluidSynth's shell reads commands there; its
    /// answers go to `log`). False when the program no longer reads it.
    @discardableResult
    public func send(line: String) -> Bool {
        guard running else { return false }
        return (try? FileDescriptor(rawValue: stdin).writeAll((line + "\n").utf8)) != nil
    }

    /// Ends the program (stdin closed, SIGTERM) and reaps it.
    public func stop() {
        guard running else { return }
        running = false
        close(stdin)
        kill(pid, SIGTERM)
        SystemCall.waitForExit(pid)
    }

    deinit { stop() }
}
