import Foundation
import Glibc
import SystemPackage

/// Starting other programs (jackd, reference synths) with posix_spawn: what Foundation's Process cannot
/// do here (a new process group, default signal handling restored, CPU time of the child from wait4).
public enum ChildProcess {
    /// Spawns `arguments` (argv[0] a path) with stdin from /dev/null and stdout+stderr to `output`.
    /// Backbeat blocks its quit signals in every thread; the child gets an empty mask and default handlers.
    public static func spawn(_ arguments: [String], output: String, newProcessGroup: Bool = false) throws -> pid_t {
        try spawn(arguments, output: .path(output), newProcessGroup: newProcessGroup, stdin: nil)
    }

    /// Spawns with stdout+stderr to `outputDescriptor`, a file the caller opened (and closes).
    public static func spawn(_ arguments: [String], outputDescriptor: Int32, newProcessGroup: Bool = false) throws -> pid_t {
        try spawn(arguments, output: .descriptor(outputDescriptor), newProcessGroup: newProcessGroup, stdin: nil)
    }

    private enum Output {
        case path(String)
        case descriptor(Int32)
    }

    /// Spawns with stdin from a pipe the caller keeps open (a program that quits at end of input, such as
    /// FluidSynth's shell, runs until the returned descriptor is closed).
    /// Both ends are made close-on-exec in Backbeat, so other children do not inherit the pipe: it closes
    /// when the caller closes it or Backbeat ends, however it ends.
    public static func spawnWithOpenStdin(_ arguments: [String], output: String,
                                          newProcessGroup: Bool = false) throws -> (pid: pid_t, stdin: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw SystemError("pipe", Errno.last) }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        defer { close(fds[0]) }
        do {
            return (try spawn(arguments, output: .path(output), newProcessGroup: newProcessGroup, stdin: fds[0]), fds[1])
        } catch {
            close(fds[1])
            throw error
        }
    }

    /// Marks every open descriptor above 2 close-on-exec, so that a child gets only its standard three (the
    /// file actions dup2 what it needs onto them). A descriptor Backbeat inherited without close-on-exec (a
    /// pipe or socket of the program that started Backbeat, which watches it to see Backbeat end), or one a
    /// library opened without it, would otherwise stay open in a jackd that outlives Backbeat, and Backbeat
    /// would seem to run on. (glibc's posix_spawn_file_actions_addclosefrom_np does this per child, but Swift
    /// does not import it.)
    static func closeOnExecAboveStandardDescriptors() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(name), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    private static func spawn(_ arguments: [String], output: Output, newProcessGroup: Bool, stdin: Int32?) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        switch output {
        case .path(let path): posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 1)
        }
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeOnExecAboveStandardDescriptors()
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw SystemError("posix_spawn \(arguments[0])", Errno(rawValue: result))
        }
        return pid
    }

    /// Runs a program to completion; returns its exit status, the CPU time it used (user + system, from
    /// wait4) and what it printed.
    public static func runMeasured(_ arguments: [String]) throws -> (status: Int32, cpuSeconds: Double, output: String) {
        let log = NSTemporaryDirectory() + "backbeat-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let pid = try spawn(arguments, output: log)
        var usage = rusage()
        let status = SystemCall.waitForExit(pid, usage: &usage) ?? 0
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), cpu, output)
    }

    /// The full path of `name` on PATH, if any.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

/// A short sleep for polling loops whose condition has no signal of its own.
func usleepMilliseconds(_ milliseconds: Int) { usleep(useconds_t(milliseconds * 1000)) }
