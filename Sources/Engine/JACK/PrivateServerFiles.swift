import Foundation
import Glibc
import SystemPackage

/// Where a private jackd's log and its record live, and the clean-up after a private server that died.
///
/// The directory is `$XDG_RUNTIME_DIR/backbeat` (made 0700, used only when it is a real directory of this
/// user's), else a new directory `$TMPDIR/backbeat-UID.XXXXXX` made by mkdtemp. In it, for each server,
/// `jackd-NAME-PID.log` (its output) and `jackd-NAME-PID.pid` (its pid and start time, PID being
/// Backbeat's), both created with O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600: nothing planted there is followed.
public enum PrivateServerFiles {
    /// One private server's files.
    public struct Record: Sendable, Equatable {
        public var jackdPID: Int32
        /// /proc/PID/stat's start time, so a reused pid is not taken for the server.
        public var startTime: String
        public var name: String
        public var logPath: String
        public var recordPath: String
        /// The mkdtemp directory to remove with the last file, if the files are in one.
        public var temporaryDirectory: String?
    }

    static let temporaryPrefix = "backbeat-\(getuid())."

    /// The directory for this run's files (made now if needed).
    static func directory(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(SystemError) -> (path: String, isTemporary: Bool) {
        if let runtime = runtimeDirectory(create: true, environment: environment) { return (runtime, false) }
        let root = temporaryDirectoryRoot(environment)
        var template = Array((root + "/" + temporaryPrefix + "XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw SystemError("cannot make a private directory in \(root)", Errno.last)
        }
        return (String(cString: made), true)
    }

    /// `$XDG_RUNTIME_DIR/backbeat` when XDG_RUNTIME_DIR is set and that is (or can be made) a directory of
    /// this user's that nobody else can enter; nil otherwise.
    static func runtimeDirectory(create: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let base = environment["XDG_RUNTIME_DIR"], base.hasPrefix("/") else { return nil }
        let path = (base.hasSuffix("/") ? base : base + "/") + "backbeat"
        if create { _ = mkdir(path, 0o700) }
        return isPrivateDirectory(path) ? path : nil
    }

    /// A real directory (not a link), owned by this user, closed to group and others.
    static func isPrivateDirectory(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFDIR && info.st_uid == geteuid() && info.st_mode & 0o077 == 0
    }

    static func temporaryDirectoryRoot(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let root = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }

    /// Creates `path` for writing, mode 0600; fails if anything (a file, a link) is already there.
    static func createExclusive(_ path: String) throws(SystemError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                           permissions: .ownerReadWrite)
        } catch {
            throw SystemError("cannot create \(path)", error)
        }
    }

    /// Writes the record of a server just started.
    static func writeRecord(_ record: Record) throws(SystemError) {
        let fd = try createExclusive(record.recordPath)
        defer { try? fd.close() }
        let text = "pid=\(record.jackdPID)\nstart=\(record.startTime)\nname=\(record.name)\nlog=\(record.logPath)\n"
        do { try fd.writeAll(text.utf8) } catch { throw SystemError("cannot write \(record.recordPath)", error) }
    }

    /// Removes a server's log and record (and its mkdtemp directory when empty).
    static func remove(_ record: Record) {
        unlink(record.logPath)
        unlink(record.recordPath)
        if let directory = record.temporaryDirectory { rmdir(directory) }
    }

    /// /proc/PID/stat's start time (field 22), or nil when there is no such process.
    static func startTime(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }

    /// Every record left in this user's private directories (this run's included).
    static func records(in directories: [String]? = nil) -> [Record] {
        var result: [Record] = []
        for (directory, isTemporary) in directories.map({ $0.map { ($0, false) } }) ?? recordDirectories() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names where name.hasPrefix("jackd-") && name.hasSuffix(".pid") {
                let path = directory + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
                      let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                var fields: [String: String] = [:]
                for line in text.split(separator: "\n") {
                    guard let equals = line.firstIndex(of: "=") else { continue }
                    fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
                }
                guard let pid = fields["pid"].flatMap({ Int32($0) }), let start = fields["start"], let server = fields["name"],
                      JackServerNameRule.problem(server) == nil else { continue }
                // The log is always beside its record, whatever the record says.
                let log = String(path.dropLast(".pid".count)) + ".log"
                result.append(Record(jackdPID: pid, startTime: start, name: server, logPath: log, recordPath: path,
                                     temporaryDirectory: isTemporary ? directory : nil))
            }
        }
        return result
    }

    /// `$XDG_RUNTIME_DIR/backbeat`, and the mkdtemp directories of earlier runs that are private to this user.
    static func recordDirectories() -> [(String, Bool)] {
        var directories: [(String, Bool)] = runtimeDirectory(create: false).map { [($0, false)] } ?? []
        let root = temporaryDirectoryRoot()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where name.hasPrefix(temporaryPrefix) {
            let path = root + "/" + name
            if isPrivateDirectory(path) { directories.append((path, true)) }
        }
        return directories
    }

    /// True while the recorded server process runs.
    static func isRunning(_ record: Record) -> Bool {
        JackRegistry.isAlive(record.jackdPID) && startTime(of: record.jackdPID) == record.startTime
    }

    /// Removes what private servers of Backbeat's that died left behind: their registry slot and shared
    /// memory segments, sockets, semaphores, log and record. Servers still running are left alone, and so
    /// is anything of a name that a live server uses now. Returns one line per server cleaned up.
    static func cleanUpAfterDeadServers(records: [Record]? = nil, registryPath: String = JackRegistry.defaultPath,
                                        shmDirectory: String = "/dev/shm") -> [String] {
        var lines: [String] = []
        for record in records ?? self.records() where !isRunning(record) {
            var removed: [String] = []
            // The pid may be another process by now: the registry only names it if it was that server.
            let pid = JackRegistry.isAlive(record.jackdPID) ? 0 : record.jackdPID
            if pid != 0 {
                do {
                    let released = try JackRegistry.release(pid: pid, name: record.name, path: registryPath, shmDirectory: shmDirectory)
                    if released.slots > 0 { removed.append("its registry slot") }
                    if !released.segments.isEmpty {
                        let megabytes = Double(released.segments.reduce(0) { $0 + $1.size }) / 1_048_576
                        removed.append("\(released.segments.count) shared memory segments (\(String(format: "%.0f", megabytes)) MiB)")
                    }
                } catch {
                    lines.append("could not clean jack2's registry after the private JACK server '\(record.name)': \(error)")
                }
            }
            let liveNames = ((try? JackRegistry.read(path: registryPath)) ?? nil)?.servers
                .filter { JackRegistry.isAlive($0.pid) }.compactMap(\.name) ?? []
            if !liveNames.contains(where: { $0 == record.name || $0.hasPrefix(record.name + "_") }) {
                let files = leftoverFiles(name: record.name, in: shmDirectory)
                for file in files { unlink(shmDirectory + "/" + file) }
                let sockets = files.filter { !$0.hasPrefix("jack_sem.") }.count
                if sockets > 0 { removed.append("\(sockets) socket\(sockets == 1 ? "" : "s")") }
                if files.count > sockets { removed.append("\(files.count - sockets) semaphores") }
            }
            remove(record)
            removed.append("its log")
            lines.append("cleaned up after the private JACK server '\(record.name)' (pid \(record.jackdPID)) that died: removed "
                         + removed.joined(separator: ", "))
        }
        return lines
    }

    /// The socket files (`jack_NAME_UID_N`) and semaphores (`jack_sem.UID_NAME_CLIENT`) of server `name`.
    static func leftoverFiles(name: String, in shmDirectory: String = "/dev/shm") -> [String] {
        let uid = getuid()
        let socket = "jack_\(name)_\(uid)_"
        let semaphore = "jack_sem.\(uid)_\(name)_"
        return ((try? FileManager.default.contentsOfDirectory(atPath: shmDirectory)) ?? []).filter { file in
            if file.hasPrefix(socket) { return !file.dropFirst(socket.count).isEmpty && file.dropFirst(socket.count).allSatisfy(\.isNumber) }
            return file.hasPrefix(semaphore)
        }
    }

    /// The clients of server `name` other than jackd's own (system, freewheel), by their semaphores
    /// (`jack_sem.UID_NAME_CLIENT`, which jackd removes with the client).
    static func otherClients(name: String, in shmDirectory: String = "/dev/shm") -> [String] {
        let prefix = "jack_sem.\(getuid())_\(name)_"
        return ((try? FileManager.default.contentsOfDirectory(atPath: shmDirectory)) ?? []).compactMap { file in
            guard file.hasPrefix(prefix) else { return nil }
            let client = String(file.dropFirst(prefix.count))
            return client == "system" || client == "freewheel" || client.isEmpty ? nil : client
        }
    }

    /// Why a private server may not have started, from what jack2 left on this machine; nil when nothing
    /// explains it.
    public static func diagnosis(name: String, registryPath: String = JackRegistry.defaultPath,
                                 shmDirectory: String = "/dev/shm") -> String? {
        var reasons: [String] = []
        do {
            if let registry = try JackRegistry.read(path: registryPath) {
                let dead = registry.deadServers
                if registry.servers.count >= JackRegistry.slotCount {
                    let names = dead.map { "'\($0.name ?? $0.prefix)' (pid \($0.pid))" }.joined(separator: ", ")
                    reasons.append("jack2's server registry \(registryPath) is full: \(registry.servers.count) of \(JackRegistry.slotCount) slots taken"
                                   + (dead.isEmpty ? "" : ", \(dead.count) by servers that are gone: \(names)")
                                   + "; stop every jackd, then remove \(registryPath)")
                }
            }
        } catch {
            reasons.append("\(error)")
        }
        // Files of a server that runs are its own, not stale: no advice to remove them then.
        let liveNames = ((try? JackRegistry.read(path: registryPath)) ?? nil)?.servers
            .filter { JackRegistry.isAlive($0.pid) }.compactMap(\.name) ?? []
        let stale = liveNames.contains(name) ? [] : leftoverFiles(name: name, in: shmDirectory)
        if !stale.isEmpty {
            reasons.append("a server named '\(name)' left files in \(shmDirectory) (\(stale.joined(separator: ", "))); "
                           + "if no jackd of that name runs, remove them")
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }
}
