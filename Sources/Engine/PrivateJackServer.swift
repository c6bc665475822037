import CJack
import Foundation
import Glibc

/// Which JACK server Backbeat talks to, and whether it started it.
public struct ServerDescription: Sendable, Equatable {
    public var name: String
    public var isPrivate: Bool
    /// "dummy" or "alsa" for a private server; nil for an external one.
    public var driver: String?
}

/// A `jackd` that Backbeat started because none ran under that name. It dies with Backbeat: stopped on
/// every orderly way out, and started through `setpriv --pdeathsig KILL` so the kernel kills it if Backbeat
/// itself dies (crash, SIGKILL). It runs in a process group of its own, so a Ctrl-C in the terminal reaches
/// Backbeat, which stops its client before the server.
public final class PrivateJackServer: @unchecked Sendable {
    public let name: String
    public let driver: String
    public let pid: pid_t
    public let logPath: String
    private var stopped = false

    /// libjack prints every failed connection attempt to stderr; Backbeat reports failures in its own words
    /// instead. `BACKBEAT_JACK_VERBOSE=1` keeps libjack's messages.
    public static func quietLibjack() {
        guard ProcessInfo.processInfo.environment["BACKBEAT_JACK_VERBOSE"] == nil else { return }
        jack_set_error_function(ignoreJackMessage)
        jack_set_info_function(ignoreJackMessage)
    }

    /// True when a JACK server of that name accepts a client now (never starts one).
    public static func isRunning(name: String) -> Bool {
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue)
        guard let client = backbeat_jack_client_open("backbeat-probe", options, &status, name) else { return false }
        jack_client_close(client)
        return true
    }

    /// The driver for a private server: ALSA when the machine has a sound card, the dummy driver otherwise.
    public static func defaultDriver() -> String {
        guard let cards = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8) else { return "dummy" }
        return cards.contains("no soundcards") || cards.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "dummy" : "alsa"
    }

    /// Starts `jackd -R -n NAME -d DRIVER -r RATE -p PERIOD` and waits until it accepts clients.
    /// Must be called from the main thread: the parent-death signal is tied to the thread that spawns.
    public static func start(name: String, rate: Int, period: Int, driver: String? = nil,
                             timeout: Duration = .seconds(10)) throws -> PrivateJackServer {
        let driver = driver ?? defaultDriver()
        guard let jackd = findExecutable("jackd") else {
            throw EngineError.serverStartFailed(server: name, reason: "jackd not found on PATH (Debian package jackd2)")
        }
        var arguments = [jackd, "-R", "-n", name, "-d", driver, "-r", String(rate), "-p", String(period)]
        if driver == "alsa" { arguments += ["-n", "2"] }
        if let setpriv = findExecutable("setpriv") {
            arguments = [setpriv, "--pdeathsig", "KILL", "--"] + arguments
        }
        let logPath = NSTemporaryDirectory() + "backbeat-jackd-\(name)-\(getpid()).log"
        let pid = try spawn(arguments, logPath: logPath)
        let server = PrivateJackServer(name: name, driver: driver, pid: pid, logPath: logPath)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let code = server.exitStatusIfExited() {
                server.stopped = true
                throw EngineError.serverStartFailed(server: name, reason: "jackd exited (\(code)): \(server.logTail())")
            }
            if isRunning(name: name) { return server }
            // jackd has no readiness signal; a client that can connect is the signal, polled.
            usleep(20_000)
        }
        server.stop()
        throw EngineError.serverStartFailed(server: name, reason: "jackd did not accept clients within \(timeout): \(server.logTail())")
    }

    private init(name: String, driver: String, pid: pid_t, logPath: String) {
        self.name = name
        self.driver = driver
        self.pid = pid
        self.logPath = logPath
    }

    deinit { stop() }

    /// Non-nil once the server process has exited (reaps it).
    public func exitStatusIfExited() -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid || (result < 0 && errno == ECHILD) { return status }
        return nil
    }

    /// SIGTERM, then SIGKILL after two seconds; reaps the process. Idempotent.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGTERM)
        for _ in 0..<200 {
            if exitStatusIfExited() != nil { try? FileManager.default.removeItem(atPath: logPath); return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// The last lines jackd printed, for error messages.
    public func logTail(lines: Int = 3) -> String {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "(no output)" }
        let kept = text.split(separator: "\n").filter { !$0.contains("Copyright") && !$0.contains("WARRANTY") && !$0.contains("free software") && !$0.contains("certain conditions") }
        return kept.suffix(lines).joined(separator: " | ")
    }

    static func findExecutable(_ name: String) -> String? { ChildProcess.find(name) }

    private static func spawn(_ arguments: [String], logPath: String) throws -> pid_t {
        do {
            return try ChildProcess.spawn(arguments, output: logPath, newProcessGroup: true)
        } catch {
            throw EngineError.serverStartFailed(server: arguments.last ?? "", reason: "\(error)")
        }
    }
}

private func ignoreJackMessage(_ message: UnsafePointer<CChar>?) {}
