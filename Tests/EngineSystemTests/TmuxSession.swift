import Engine
import Foundation
import Testing

/// The workstation in a real terminal: tmux runs `backbeat` on a private server, keys go in with
/// send-keys, and capture-pane shows what the user would see (polled: a terminal sends no other signal).
final class TmuxSession {
    let socket: String
    init(width: Int, height: Int) throws {
        socket = "bbtest-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // The tmux server outlives this call and must not inherit a pipe the caller reads to its end, nor this
        // process's blocked signals (kill-server makes the server SIGTERM itself): ChildProcess gives the
        // child /dev/null and an empty signal mask (Foundation's Process gave neither).
        let arguments = ["/usr/bin/tmux", "-L", socket, "new-session", "-d", "-s", "main", "-x", "\(width)", "-y", "\(height)", "sh"]
        let pid = try ChildProcess.spawn(arguments, output: "/dev/null")
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else { throw HarnessError("tmux new-session failed (\(status))") }
        try tmux(["set-option", "-g", "status", "off"])
    }
    deinit { _ = try? tmux(["kill-server"]) }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let result = try run("/usr/bin/tmux", ["-L", socket] + arguments)
        guard result.status == 0 else { throw HarnessError("tmux \(arguments.joined(separator: " ")): \(result.output)") }
        return result.output
    }

    func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", "main"] + keys) }
    func type(_ text: String) throws { try tmux(["send-keys", "-t", "main", "-l", text]) }
    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", "main"]) }

    /// Polls the pane until `predicate` holds for its text; the last screen is in the error.
    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 15, _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if predicate(last) { return last }
            usleep(30_000)
        }
        throw HarnessError("timed out waiting for \(what); screen:\n\(last)")
    }
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 15) throws -> String { try waitFor("\"\(text)\"", timeout: timeout) { $0.contains(text) } }

    /// Types `command` into the shell followed by `; echo "EXIT=$?"` (what `waitForExit` reads), and Enter.
    func runCommand(_ command: String) throws {
        try type(command + "; echo \"EXIT=$?\"")
        try keys("Enter")
    }

    /// Runs `command` (the workstation) and waits for its first full screen.
    func launch(_ command: String) throws {
        try runCommand(command)
        try waitFor("MIDI monitor", timeout: 20)
    }

    /// A session running the workstation on a JACK server name of its own, without autoconnect, showing its
    /// first full screen; started in `directory` when given (where its takes go).
    static func workstation(width: Int, height: Int, in directory: String? = nil,
                            server: String = uniqueName("bbtui")) throws -> TmuxSession {
        let term = try TmuxSession(width: width, height: height)
        let cd = directory.map { "cd '\($0)' && " } ?? ""
        try term.launch(cd + "'\(backbeatExecutable())' --server \(server) --no-autoconnect")
        return term
    }

    /// Types `text`, then waits until the screen shows `shown`.
    func type(_ text: String, thenWaitFor shown: String, timeout: TimeInterval = 15) throws {
        try type(text)
        try waitFor(shown, timeout: timeout)
    }

    /// Sends the key `key` (a tmux key name), then waits until the screen shows `shown`.
    func press(_ key: String, thenWaitFor shown: String, timeout: TimeInterval = 15) throws {
        try keys(key)
        try waitFor(shown, timeout: timeout)
    }

    /// Quits the workstation with `q` and expects exit status 0 (the screen after is in the failure).
    func quitExpectingSuccess(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (status, screen) = try quit()
        #expect(status == 0, "\(screen)", sourceLocation: sourceLocation)
    }

    /// In the open preset browser: types `query`, waits for the find line to show it, and chooses the match
    /// with Enter, waiting until the screen shows `chosen`.
    func find(_ query: String, thenChoose chosen: String) throws {
        try type(query, thenWaitFor: "find: \(query)_")
        try press("Enter", thenWaitFor: chosen)
    }

    /// Esc (out of play mode, or closing an overlay), then `quitExpectingSuccess`.
    func escapeAndQuitExpectingSuccess(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try keys("Escape")
        try quitExpectingSuccess(sourceLocation: sourceLocation)
    }

    /// Leaves play mode (Esc), presses `key` (M ends a MIDI take, R a MIDI and audio one) and waits until the
    /// header no longer shows REC: the take is saved.
    func endTake(_ key: String, saved what: String) throws {
        try keys("Escape")
        try waitFor("letters are commands again")
        try type(key)
        try waitFor(what) { !($0.split(separator: "\n").first?.contains("REC") ?? true) }
    }

    /// Quits the workstation with `q`; its exit status and the screen after.
    func quit() throws -> (status: Int?, screen: String) {
        try type("q")
        return try waitForExit()
    }

    /// Waits for the shell's `EXIT=<status>` line (not the typed command, which shows `EXIT=$?`).
    func waitForExit(timeout: TimeInterval = 15) throws -> (status: Int?, screen: String) {
        let screen = try waitFor("the program to exit", timeout: timeout) { exitStatus($0) != nil }
        return (exitStatus(screen), screen)
    }
}

func exitStatus(_ screen: String) -> Int? {
    for line in screen.split(separator: "\n") where line.hasPrefix("EXIT=") { if let n = Int(line.dropFirst(5)) { return n } }
    return nil
}

/// A name no other test run uses at the same time (a JACK server, a log file): `prefix`, this process, a random number.
func uniqueName(_ prefix: String) -> String { "\(prefix)\(getpid())\(Int.random(in: 1000...9999))" }
