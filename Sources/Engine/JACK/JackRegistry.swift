import Foundation
import Glibc
import SystemPackage

/// jack2's shared server registry, `/dev/shm/jack-shm-registry` (the layout of jack2's common/shm.h on
/// 64-bit Linux): a header with 8 server slots (pid and "jack-UID:NAME:"), then 256 entries for the shared
/// memory segments the servers allocated (allocator pid, size, name such as "/jack-0-0").
///
/// A server that exits cleanly empties its slot and removes its segments. One that is killed keeps its
/// slot until a server of the same name starts, so killed servers of other names fill the registry until no
/// jackd can start at all (jackd then exits at once).
public struct JackRegistry: Sendable, Equatable {
    public struct Server: Sendable, Equatable {
        public var slot: Int
        public var pid: Int32
        /// "jack-UID:NAME:".
        public var prefix: String
        /// NAME, when the prefix is of that form.
        public var name: String? {
            let parts = prefix.split(separator: ":", omittingEmptySubsequences: false)
            return parts.count == 3 && parts[0].hasPrefix("jack-") ? String(parts[1]) : nil
        }
        public var uid: UInt32? {
            prefix.split(separator: ":").first.flatMap { UInt32($0.dropFirst("jack-".count)) }
        }
    }

    public struct Segment: Sendable, Equatable {
        public var index: Int
        public var allocator: Int32
        public var size: Int
        /// A POSIX shared memory name ("/jack-0-0": the file /dev/shm/jack-0-0).
        public var id: String
    }

    public static let defaultPath = "/dev/shm/jack-shm-registry"
    public static let slotCount = 8
    static let magic: UInt32 = 0x4A41_434B  // "JACK"
    static let serversOffset = 24
    static let serverSize = 264             // pid_t, char[257], padded to 4
    static let headerLength = serversOffset + slotCount * serverSize  // 2136
    static let entryLength = 268            // int16 index, pid_t allocator, int32 size, char[255] id
    static let entryCount = 256
    static let size = headerLength + entryLength * entryCount         // 70744

    /// Used slots.
    public var servers: [Server]
    /// Used segment entries.
    public var segments: [Segment]

    /// Reads the registry at `path`; nil when there is none (absent is not a problem).
    public static func read(path: String = defaultPath) throws(SystemError) -> JackRegistry? {
        var bytes = [UInt8](repeating: 0, count: size)
        let n: Int
        do {
            let fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .noFollow])
            n = try fd.closeAfter { try bytes.withUnsafeMutableBytes { try fd.readAll(fromAbsoluteOffset: 0, into: $0) } }
        } catch Errno.noSuchFileOrDirectory {
            return nil
        } catch {
            throw SystemError("cannot read \(path)", error)
        }
        guard n == size else { throw SystemError("\(path) is not jack2's registry as this Backbeat knows it (\(n) bytes)") }
        let parsed = bytes.withUnsafeBytes { buffer in Result { () throws(SystemError) in try JackRegistry(buffer, path: path) } }
        return try parsed.get()
    }

    init(_ raw: UnsafeRawBufferPointer, path: String) throws(SystemError) {
        guard Self.isKnownLayout(raw) else {
            throw SystemError("\(path) is not jack2's registry as this Backbeat knows it (another jack2 version?)")
        }
        servers = (0..<Self.slotCount).compactMap { slot in
            let at = Self.serversOffset + slot * Self.serverSize
            let pid = raw.loadUnaligned(fromByteOffset: at, as: Int32.self)
            guard pid != 0 else { return nil }
            return Server(slot: slot, pid: pid, prefix: Self.cString(raw, at: at + 4, limit: 257))
        }
        segments = (0..<Self.entryCount).compactMap { index in
            let at = Self.headerLength + index * Self.entryLength
            let allocator = raw.loadUnaligned(fromByteOffset: at + 4, as: Int32.self)
            let size = raw.loadUnaligned(fromByteOffset: at + 8, as: Int32.self)
            guard allocator != 0 || size != 0 else { return nil }
            return Segment(index: index, allocator: allocator, size: Int(size), id: Self.cString(raw, at: at + 12, limit: 255))
        }
    }

    static func isKnownLayout(_ raw: UnsafeRawBufferPointer) -> Bool {
        raw.count >= size
            && raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self) == magic
            && raw.loadUnaligned(fromByteOffset: 8, as: Int32.self) == 1  // POSIX shared memory
            && raw.loadUnaligned(fromByteOffset: 12, as: Int32.self) == Int32(size)
            && raw.loadUnaligned(fromByteOffset: 16, as: Int32.self) == Int32(headerLength)
            && raw.loadUnaligned(fromByteOffset: 20, as: Int32.self) == Int32(entryLength)
    }

    private static func cString(_ raw: UnsafeRawBufferPointer, at offset: Int, limit: Int) -> String {
        let field = raw[offset..<offset + limit]
        let end = field.firstIndex(of: 0) ?? field.endIndex
        return String(decoding: raw[offset..<end], as: UTF8.self)
    }

    /// True while a process of that pid exists and is not a zombie.
    public static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return kill(pid, 0) == 0 || Errno.last == .notPermitted }
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    /// Servers whose process is gone: they hold a slot nobody frees.
    public var deadServers: [Server] { servers.filter { !Self.isAlive($0.pid) } }

    // MARK: Changing it

    /// Empties the slot of server `name` (this user's) held by `pid`, and removes the segments `pid`
    /// allocated (their files in `shmDirectory` and their entries), under jack2's registry lock.
    /// Returns the slots freed and the segments removed. Only for a pid that is gone.
    static func release(pid: Int32, name: String, path: String = defaultPath,
                        shmDirectory: String = "/dev/shm") throws(SystemError) -> (slots: Int, segments: [Segment]) {
        guard !isAlive(pid) else { return (0, []) }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readWrite, options: [.closeOnExec, .noFollow])
        } catch Errno.noSuchFileOrDirectory {
            return (0, [])
        } catch {
            throw SystemError("cannot open \(path)", error)
        }
        defer { try? fd.close() }
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, 0), map != MAP_FAILED else {
            throw SystemError("cannot map \(path)", Errno.last)
        }
        defer { munmap(map, size) }
        let raw = UnsafeMutableRawBufferPointer(start: map, count: size)
        guard isKnownLayout(UnsafeRawBufferPointer(raw)) else {
            throw SystemError("\(path) is not jack2's registry as this Backbeat knows it (another jack2 version?)")
        }
        let lock = RegistryLock()
        defer { lock.unlock() }
        guard !lock.isStuck else { throw SystemError("jack2's registry lock was not free within 2 s") }
        let prefix = "jack-\(getuid()):\(name):"
        var slots = 0
        for slot in 0..<slotCount {
            let at = serversOffset + slot * serverSize
            guard raw.loadUnaligned(fromByteOffset: at, as: Int32.self) == pid,
                  cString(UnsafeRawBufferPointer(raw), at: at + 4, limit: 257) == prefix else { continue }
            memset(map + at, 0, serverSize)
            slots += 1
        }
        var removed: [Segment] = []
        for index in 0..<entryCount {
            let at = headerLength + index * entryLength
            guard raw.loadUnaligned(fromByteOffset: at + 4, as: Int32.self) == pid else { continue }
            let id = cString(UnsafeRawBufferPointer(raw), at: at + 12, limit: 255)
            let size = Int(raw.loadUnaligned(fromByteOffset: at + 8, as: Int32.self))
            // Only names of jack's own form: never a path elsewhere.
            if id.hasPrefix("/jack-") && !id.dropFirst().contains("/") { unlink(shmDirectory + id) }
            memset(map + at + 4, 0, entryLength - 4)  // allocator, size, id (as jack2 releases an entry)
            removed.append(Segment(index: index, allocator: pid, size: size, id: id))
        }
        return (slots, removed)
    }
}

/// jack2's registry lock: a System V semaphore (key 0x282929) taken with SEM_UNDO, so the kernel gives it
/// back if the holder dies. Waits at most two seconds (a stuck lock is reported by jackd itself).
struct RegistryLock {
    private let id: Int32
    private let held: Bool
    /// The lock exists and could not be taken.
    var isStuck: Bool { id >= 0 && !held }

    init() {
        let id = semget(0x282929, 0, 0)
        self.id = id
        guard id >= 0 else { held = false; return }
        var op = sembuf(sem_num: 0, sem_op: -1, sem_flg: Int16(SEM_UNDO | IPC_NOWAIT))
        var taken = false
        for _ in 0..<200 {
            do throws(Errno) {
                try SystemCall.retryOnInterrupt { semop(id, &op, 1) }
                taken = true
                break
            } catch where error == .resourceTemporarilyUnavailable {
                usleep(10_000)  // semtimedop needs _GNU_SOURCE, which Swift's Glibc module does not define
            } catch {
                break
            }
        }
        held = taken
    }

    func unlock() {
        guard held else { return }
        var op = sembuf(sem_num: 0, sem_op: 1, sem_flg: Int16(SEM_UNDO))
        semop(id, &op, 1)
    }
}
