import CJack
import Foundation
import Glibc
import SystemPackage

/// Which JACK server Backbeat talks to, and whether it started it.
public struct ServerDescription: Sendable, Equatable {
    public var name: String
    public var isPrivate: Bool
    /// "dummy" or "alsa" for a private server; nil for an external one.
    public var driver: String?
}

/// A `jackd` that Backbeat started because none ran under that name. It dies with Backbeat: stopped on
/// every orderly way out, and, if Backbeat itself dies (crash, SIGKILL), by a watchdog: a small shell
/// process reading a pipe only Backbeat holds. When the pipe closes, the watchdog waits (up to
/// `watchdogSettle`) until jackd has noticed its dead clients and removed them, then sends it SIGTERM, so
/// that it stops cleanly: it frees its slot in jack2's server registry and removes its shared memory,
/// semaphores and socket. (Stopped while a dead client is still in its graph, jackd writes to that client's
/// closed socket as it shuts down, and jack2 unblocks signals during shutdown: the SIGPIPE kills it, and its
/// slot and shared memory stay behind. That is why no parent-death signal stops it at once.) If jackd has
/// not exited `watchdogGrace` after the SIGTERM, the watchdog kills it; when it exits by itself it removes
/// its log and record. Whatever a killed server leaves, the next start cleans up
/// (`PrivateServerFiles.cleanUpAfterDeadServers`). jackd runs in a process group of its own, so a Ctrl-C in
/// the terminal reaches Backbeat, which stops its client before the server.
///
/// Two Backbeats started at once share one private server: whether a server runs and, if not, starting it
/// is one step under a lock every Backbeat takes (`withStartLock`), so the second finds the first's server
/// and joins it. The one that started it, stopping while other clients still use it, hands it to its
/// watchdog instead of stopping it: the watchdog stops it once its last client has left.
public final class PrivateJackServer: @unchecked Sendable {
    public let name: String
    public let driver: String
    public let pid: pid_t
    /// jackd's output, in Backbeat's private directory (see `PrivateServerFiles`).
    public let logPath: String
    private let record: PrivateServerFiles.Record
    private let watchdog: (pid: pid_t, pipe: Int32)?
    private var stopped = false
    /// Seconds the watchdog gives jackd to stop after its SIGTERM, before SIGKILL.
    public static let watchdogGrace = 5
    /// Seconds the watchdog waits, after Backbeat died, for jackd to remove its dead clients before stopping
    /// it (it does so within milliseconds; only a client of someone else's keeps it waiting that long).
    public static let watchdogSettle = 3

    /// libjack prints every failed connection attempt to stderr; Backbeat reports failures in its own words
    /// instead. `BACKBEAT_JACK_VERBOSE=1` keeps libjack's messages.
    public static func quietLibjack() {
        guard ProcessInfo.processInfo.environment["BACKBEAT_JACK_VERBOSE"] == nil else { return }
        JackClient.silenceLibraryMessages()
    }

    /// True when a JACK server of that name accepts a client now (never starts one).
    public static func isRunning(name: String) -> Bool { JackClient.serverAccepts(name: name) }

    /// The driver for a private server: ALSA when the machine has a sound card, the dummy driver otherwise.
    public static func defaultDriver() -> String {
        guard let cards = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8) else { return "dummy" }
        return cards.contains("no soundcards") || cards.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "dummy" : "alsa"
    }

    /// Runs `body` (whether a server runs, and starting one) while no other Backbeat does: an exclusive
    /// flock(2) on /dev/shm itself, where jack2 keeps its registry, so that no lock file is left behind; it
    /// is released when `body` returns, or by the kernel when the process dies. Without /dev/shm, no lock.
    public static func withStartLock<T>(_ body: () throws -> T) rethrows -> T {
        let fd = open("/dev/shm", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { while flock(fd, LOCK_EX) != 0 && Errno.last == .interrupted {} }
        defer {
            if fd >= 0 {
                flock(fd, LOCK_UN)
                close(fd)
            }
        }
        return try body()
    }

    /// A wait status in words: "exited with status 255", "was killed by signal 9 (SIGKILL)".
    public static func describe(waitStatus status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        let name = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM",
                    SIGABRT: "SIGABRT", SIGBUS: "SIGBUS"][signal].map { " (\($0))" } ?? ""
        return "was killed by signal \(signal)\(name)"
    }

    /// Starts `jackd -R -n NAME -d DRIVER -r RATE -p PERIOD` and waits until it accepts clients (polling,
    /// up to `timeout`: call it outside any lock that a status read takes).
    ///
    /// Thread: only where no `sh` exists to run the watchdog does jackd run under a parent-death signal
    /// (`setpriv --pdeathsig TERM`), which Linux delivers when the *thread* that spawned it exits. So call
    /// this on a thread that lives as long as the server should: the main thread (the engine's `start()`),
    /// or the engine's supervisor thread, which ends only after the server it holds is stopped.
    public static func start(name: String, rate: Int, period: Int, driver: String? = nil,
                             timeout: Duration = .seconds(10)) throws -> PrivateJackServer {
        let driver = driver ?? defaultDriver()
        guard let jackd = findExecutable("jackd") else {
            throw EngineError.serverStartFailed(server: name, reason: "jackd not found on PATH (Debian package jackd2)")
        }
        if let problem = JackServerNameRule.problem(name) {
            throw EngineError.serverStartFailed(server: name, reason: "not a JACK server name: \(problem)")
        }
        var arguments = [jackd, "-R", "-n", name, "-d", driver, "-r", String(rate), "-p", String(period)]
        if driver == "alsa" { arguments += ["-n", "2"] }
        if findExecutable("sh") == nil, let setpriv = findExecutable("setpriv") {
            arguments = [setpriv, "--pdeathsig", "TERM", "--"] + arguments
        }
        let (pid, record) = try spawnWithRecord(arguments, name: name)
        let server = PrivateJackServer(name: name, driver: driver, pid: pid, record: record,
                                       watchdog: startWatchdog(record: record))
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let code = server.exitStatusIfExited() {
                let tail = server.logTail()
                server.stop()
                throw EngineError.serverStartFailed(server: name, reason: "jackd \(describe(waitStatus: code)): \(tail)" + explanation(name))
            }
            if isRunning(name: name) { return server }
            // jackd has no readiness signal; a client that can connect is the signal, polled.
            usleep(20_000)
        }
        let tail = server.logTail()
        server.stop()
        throw EngineError.serverStartFailed(server: name, reason: "jackd did not accept clients within \(timeout): \(tail)" + explanation(name))
    }

    /// What jack2 left on the machine that explains a failed start, as a sentence to append.
    private static func explanation(_ name: String) -> String {
        PrivateServerFiles.diagnosis(name: name).map { ". \($0)" } ?? ""
    }

    /// Removes what earlier private servers of Backbeat's that died left behind; returns a line for each.
    public static func cleanUpAfterDeadServers() -> [String] { PrivateServerFiles.cleanUpAfterDeadServers() }

    private init(name: String, driver: String, pid: pid_t, record: PrivateServerFiles.Record, watchdog: (pid: pid_t, pipe: Int32)?) {
        self.name = name
        self.driver = driver
        self.pid = pid
        self.record = record
        self.logPath = record.logPath
        self.watchdog = watchdog
    }

    deinit { stop() }

    /// Non-nil once the server process has exited (reaps it).
    public func exitStatusIfExited() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid || (result < 0 && Errno.last == .noChildProcess) { exitStatus = status; return status }
        return nil
    }
    /// Set once reaped: the pid may belong to another process from then on, so it gets no more signals.
    private var exitStatus: Int32?

    /// Stops the watchdog, then jackd: SIGTERM, then SIGKILL after two seconds; reaps both and removes the
    /// log and record (a server that had to be killed keeps its record, for the next start to clean up
    /// after it). While another client still uses the server (a Backbeat that joined it), hands it to the
    /// watchdog instead, which stops it when the last client has left. Idempotent.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if exitStatus != nil {
            stopWatchdog()
            // It exited by itself (crashed, or was killed): clean up after it as after any dead server.
            _ = PrivateServerFiles.cleanUpAfterDeadServers(records: [record])
            return
        }
        if let watchdog, !PrivateServerFiles.otherClients(name: name).isEmpty {
            // Another client (a second Backbeat that joined) still plays through it: the watchdog stops it,
            // and removes its log and record, once the last client has left.
            _ = "handover\n".withCString { write(watchdog.pipe, $0, strlen($0)) }
            close(watchdog.pipe)
            return
        }
        stopWatchdog()
        kill(pid, SIGTERM)
        for _ in 0..<200 {
            if exitStatusIfExited() != nil { PrivateServerFiles.remove(record); return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        SystemCall.waitForExit(pid)
        _ = PrivateServerFiles.cleanUpAfterDeadServers(records: [record])
    }

    private func stopWatchdog() {
        guard let watchdog else { return }
        kill(watchdog.pid, SIGTERM)
        SystemCall.waitForExit(watchdog.pid)
        close(watchdog.pipe)
    }

    /// The last lines jackd printed, for error messages.
    public func logTail(lines: Int = 3) -> String {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "(no output)" }
        let kept = text.split(separator: "\n").filter { !$0.contains("Copyright") && !$0.contains("WARRANTY") && !$0.contains("free software") && !$0.contains("certain conditions") }
        return kept.suffix(lines).joined(separator: " | ")
    }

    static func findExecutable(_ name: String) -> String? { ChildProcess.find(name) }

    /// Spawns jackd with its output in a new log in Backbeat's private directory, and writes its record.
    private static func spawnWithRecord(_ arguments: [String], name: String) throws -> (pid_t, PrivateServerFiles.Record) {
        do {
            let directory = try PrivateServerFiles.directory()
            let base = directory.path + "/jackd-\(name)-\(getpid())"
            let log = try PrivateServerFiles.createExclusive(base + ".log")
            defer { try? log.close() }
            let pid: pid_t
            do {
                pid = try ChildProcess.spawn(arguments, outputDescriptor: log.rawValue, newProcessGroup: true)
            } catch {
                unlink(base + ".log")
                if directory.isTemporary { rmdir(directory.path) }
                throw error
            }
            let record = PrivateServerFiles.Record(jackdPID: pid, startTime: PrivateServerFiles.startTime(of: pid) ?? "?", name: name,
                                                   logPath: base + ".log", recordPath: base + ".pid",
                                                   temporaryDirectory: directory.isTemporary ? directory.path : nil)
            try? PrivateServerFiles.writeRecord(record)
            return (pid, record)
        } catch {
            throw EngineError.serverStartFailed(server: name, reason: "\(error)")
        }
    }

    /// The watchdog: `sh` reading a pipe whose other end only Backbeat holds (close-on-exec, so no other
    /// child inherits it) until end of file, which comes when Backbeat is gone, however it went. Then it waits
    /// up to `watchdogSettle` seconds for jackd (the same process: pid and start time) to have no client but
    /// its own (a client's semaphore goes when jackd removes the client), sends it SIGTERM, and kills it if
    /// it has not exited `watchdogGrace` seconds later. When jackd exited by itself it removes its log and
    /// record, and the semaphores of its clients.
    private static func startWatchdog(record: PrivateServerFiles.Record) -> (pid: pid_t, pipe: Int32)? {
        guard let shell = findExecutable("sh") else { return nil }
        let script = #"""
            P=$1 START=$2 GRACE=$3 LOG=$4 RECORD=$5 DIR=$6 SEMAPHORES=$7 SETTLE=$8
            alive() { s=$(cat /proc/$P/stat 2>/dev/null) || return 1; s=${s##*) }; set -- $s; [ "$1" != Z ] && [ "${20}" = "$START" ]; }
            clients() { for f in "$SEMAPHORES"*; do case ${f#"$SEMAPHORES"} in system|freewheel|'*') ;; *) return 0 ;; esac; done; return 1; }
            last=; while read -r line; do last=$line; done
            i=0
            # Handed over: other clients play through it; it stops when the last has left, however long.
            if [ "$last" = handover ]; then while alive && clients; do sleep 0.2; done; fi
            while alive && clients && [ $i -lt $((SETTLE * 10)) ]; do sleep 0.1; i=$((i + 1)); done
            alive && kill -TERM $P
            i=0
            while alive; do
                if [ $i -ge $((GRACE * 10)) ]; then kill -KILL $P; exit 0; fi
                sleep 0.1; i=$((i + 1))
            done
            rm -f "$LOG" "$RECORD" "$SEMAPHORES"*; [ -n "$DIR" ] && rmdir "$DIR" 2>/dev/null
            exit 0
            """#
        let arguments = [shell, "-c", script, "backbeat-jackd-watchdog", String(record.jackdPID), record.startTime,
                         String(watchdogGrace), record.logPath, record.recordPath, record.temporaryDirectory ?? "",
                         "/dev/shm/jack_sem.\(getuid())_\(record.name)_", String(watchdogSettle)]
        guard let child = try? ChildProcess.spawnWithOpenStdin(arguments, output: "/dev/null", newProcessGroup: true) else { return nil }
        return (child.pid, child.stdin)
    }
}
