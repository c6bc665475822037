import Foundation
import Testing
@testable import Engine

/// Server names, the private log directory, jack2's registry and the clean-up after a dead private server,
/// on files made here (a real dead server would need a SIGKILLed jackd, which would leak a slot of the
/// registry every engineer's tests share).
@Suite struct PrivateServerFilesTests {
    let directory: String

    init() throws { directory = try makeTemporaryDirectory("backbeat-psf").path }

    @Test func serverNamesJackCanUseAreAcceptedOthersNamed() {
        for good in ["default", "bbtest-1a2b", "a.b_c-D9", String(repeating: "x", count: 64)] {
            #expect(JackServerNameRule.problem(good) == nil, "\(good)")
        }
        #expect(JackServerNameRule.problem("../x")?.contains("starts with '.'") == true)
        #expect(JackServerNameRule.problem("a/b")?.contains("'/'") == true)
        #expect(JackServerNameRule.problem("a b")?.contains("U+20") == true)
        #expect(JackServerNameRule.problem("") != nil)
        #expect(JackServerNameRule.problem(String(repeating: "x", count: 65))?.contains("64") == true)
    }

    @Test func logDirectoryIsPrivateAndNeverALink() throws {
        // $XDG_RUNTIME_DIR/backbeat, made 0700.
        let runtime = directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let made = try PrivateServerFiles.directory(environment: ["XDG_RUNTIME_DIR": runtime, "TMPDIR": directory])
        #expect(made.path == runtime + "/backbeat" && !made.isTemporary)
        var info = stat()
        #expect(lstat(made.path, &info) == 0 && info.st_mode & 0o777 == 0o700)

        // A link planted there is not used: a new mkdtemp directory instead.
        let planted = directory + "/planted"
        let victim = directory + "/victim"
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        chmod(victim, 0o700)
        #expect(symlink(victim, planted + "/backbeat") == 0)
        let instead = try PrivateServerFiles.directory(environment: ["XDG_RUNTIME_DIR": planted, "TMPDIR": directory])
        #expect(instead.isTemporary && instead.path.hasPrefix(directory + "/backbeat-\(getuid())."), "\(instead.path)")
        #expect(lstat(instead.path, &info) == 0 && info.st_mode & 0o777 == 0o700)

        // The log itself: created 0600, and never through a link planted at its name.
        let log = instead.path + "/jackd-x-1.log"
        try PrivateServerFiles.createExclusive(log).close()
        #expect(lstat(log, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let target = directory + "/victim/precious"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        let trap = instead.path + "/jackd-y-1.log"
        #expect(symlink(target, trap) == 0)
        #expect(throws: SystemError.self) { try PrivateServerFiles.createExclusive(trap) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    /// A registry image: `servers` in slots 0..., `segments` (allocator, size, id) in entries 0...
    func registry(servers: [(Int32, String)], segments: [(Int32, Int32, String)]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: JackRegistry.size)
        func put<T>(_ value: T, at offset: Int) { withUnsafeBytes(of: value) { bytes.replaceSubrange(offset..<offset + $0.count, with: $0) } }
        put(JackRegistry.magic, at: 0)
        put(Int32(1), at: 8)
        put(Int32(JackRegistry.size), at: 12)
        put(Int32(JackRegistry.headerLength), at: 16)
        put(Int32(JackRegistry.entryLength), at: 20)
        for (slot, server) in servers.enumerated() {
            let at = JackRegistry.serversOffset + slot * JackRegistry.serverSize
            put(server.0, at: at)
            bytes.replaceSubrange(at + 4..<at + 4 + server.1.utf8.count, with: Array(server.1.utf8))
        }
        for index in 0..<JackRegistry.entryCount {
            let at = JackRegistry.headerLength + index * JackRegistry.entryLength
            put(Int16(index), at: at)
            guard index < segments.count else { continue }
            put(segments[index].0, at: at + 4)
            put(segments[index].1, at: at + 8)
            bytes.replaceSubrange(at + 12..<at + 12 + segments[index].2.utf8.count, with: Array(segments[index].2.utf8))
        }
        return bytes
    }

    /// The pid of a process that has ended (and been reaped).
    func deadPID() throws -> Int32 {
        let pid = try ChildProcess.spawn(["/bin/true"], output: "/dev/null")
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return pid
    }

    @Test func fullRegistryIsExplainedWithWhatToDo() throws {
        let dead = try deadPID()
        let uid = getuid()
        let servers = (0..<8).map { i in (i < 3 ? dead : getpid(), "jack-\(uid):srv\(i):") }
        let path = directory + "/registry"
        try Data(registry(servers: servers, segments: [])).write(to: URL(fileURLWithPath: path))
        let read = try #require(try JackRegistry.read(path: path))
        #expect(read.servers.count == 8 && read.deadServers.map(\.name) == ["srv0", "srv1", "srv2"])
        let why = try #require(PrivateServerFiles.diagnosis(name: "mine", registryPath: path, shmDirectory: directory))
        #expect(why.contains("is full: 8 of 8 slots taken, 3 by servers that are gone: 'srv0' (pid \(dead))"), "\(why)")
        #expect(why.contains("stop every jackd, then remove \(path)"), "\(why)")
        // Not full, nothing stale: nothing to say. Another layout: said, not guessed at.
        try Data(registry(servers: Array(servers.prefix(7)), segments: [])).write(to: URL(fileURLWithPath: path))
        #expect(PrivateServerFiles.diagnosis(name: "mine", registryPath: path, shmDirectory: directory) == nil)
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: path))
        #expect(PrivateServerFiles.diagnosis(name: "mine", registryPath: path, shmDirectory: directory)?.contains("not jack2's registry") == true)
    }

    /// Issue 36: the advice to remove /dev/shm files was given while a server of that name ran (its files are
    /// its own then); a failed start's wait status was raw ("jackd exited (65280)").
    @Test func leftoverFilesAreStaleOnlyWhenNoServerOfThatNameRuns() throws {
        let uid = getuid()
        let path = directory + "/registry"
        for file in ["jack_mine_\(uid)_0", "jack_sem.\(uid)_mine_system"] {
            #expect(FileManager.default.createFile(atPath: directory + "/" + file, contents: nil))
        }
        try Data(registry(servers: [(getpid(), "jack-\(uid):other:")], segments: [])).write(to: URL(fileURLWithPath: path))
        let why = try #require(PrivateServerFiles.diagnosis(name: "mine", registryPath: path, shmDirectory: directory))
        #expect(why.contains("a server named 'mine' left files") && why.contains("if no jackd of that name runs, remove them"), "\(why)")
        try Data(registry(servers: [(getpid(), "jack-\(uid):mine:")], segments: [])).write(to: URL(fileURLWithPath: path))
        #expect(PrivateServerFiles.diagnosis(name: "mine", registryPath: path, shmDirectory: directory) == nil, "a live 'mine' owns them")
        #expect(PrivateServerFiles.otherClients(name: "mine", in: directory) == [])
        #expect(FileManager.default.createFile(atPath: directory + "/jack_sem.\(uid)_mine_backbeat-01", contents: nil))
        #expect(PrivateServerFiles.otherClients(name: "mine", in: directory) == ["backbeat-01"])
        #expect(PrivateJackServer.describe(waitStatus: 65280) == "exited with status 255")
        #expect(PrivateJackServer.describe(waitStatus: SIGKILL) == "was killed by signal 9 (SIGKILL)")
    }

    @Test func whatADeadPrivateServerLeftIsRemovedAndNothingElse() throws {
        let dead = try deadPID()
        let uid = getuid()
        let shm = directory + "/shm"
        let records = directory + "/records"
        try FileManager.default.createDirectory(atPath: shm, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
        let registryPath = shm + "/jack-shm-registry"
        try Data(registry(servers: [(getpid(), "jack-\(uid):alive:"), (dead, "jack-\(uid):gone:")],
                          segments: [(getpid(), 10, "/jack-\(uid)-0"), (dead, 1_048_576, "/jack-\(uid)-1"), (dead, 10, "/jack-\(uid)-2")]))
            .write(to: URL(fileURLWithPath: registryPath))
        let left = ["jack-\(uid)-1", "jack-\(uid)-2", "jack_gone_\(uid)_0", "jack_sem.\(uid)_gone_system", "jack_sem.\(uid)_gone_backbeat"]
        let others = ["jack-\(uid)-0", "jack_alive_\(uid)_0", "jack_sem.\(uid)_alive_system", "jack_gone_\(uid)_x"]
        for file in left + others { #expect(FileManager.default.createFile(atPath: shm + "/" + file, contents: Data())) }
        for (name, pid, start) in [("gone", dead, "123"), ("alive", getpid(), PrivateServerFiles.startTime(of: getpid())!)] {
            try Data("pid=\(pid)\nstart=\(start)\nname=\(name)\nlog=/etc/passwd\n".utf8).write(to: URL(fileURLWithPath: records + "/jackd-\(name)-1.pid"))
            try Data("log".utf8).write(to: URL(fileURLWithPath: records + "/jackd-\(name)-1.log"))
        }
        let found = PrivateServerFiles.records(in: [records])
        #expect(Set(found.map(\.name)) == ["gone", "alive"])
        #expect(found.allSatisfy { $0.logPath.hasPrefix(records + "/") }, "a record's log is always beside it")

        let lines = PrivateServerFiles.cleanUpAfterDeadServers(records: found, registryPath: registryPath, shmDirectory: shm)
        #expect(lines.count == 1 && lines[0].contains("'gone' (pid \(dead))"), "\(lines)")
        #expect(lines.first?.contains("its registry slot, 2 shared memory segments (1 MiB), 1 socket, 2 semaphores, its log") == true, "\(lines)")
        let remaining = Set(try FileManager.default.contentsOfDirectory(atPath: shm))
        #expect(remaining == Set(others + ["jack-shm-registry"]), "\(remaining)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: records)) == ["jackd-alive-1.pid", "jackd-alive-1.log"])
        let after = try #require(try JackRegistry.read(path: registryPath))
        #expect(after.servers.map(\.name) == ["alive"])
        #expect(after.segments.map(\.id) == ["/jack-\(uid)-0"])
        #expect(FileManager.default.fileExists(atPath: "/etc/passwd"))
    }
}
