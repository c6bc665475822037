// The one way Backbeat writes a file the user names (`render -o`, `lifecycle check --emit-scenario`, takes):
// it refuses to overwrite an input, follows symbolic links to the file they point to (the link stays), writes
// regular files completely or not at all (a temporary file in the same directory, then rename(2)), writes
// into devices and FIFOs directly (never replacing `/dev/null` with a regular file; a FIFO nobody reads is
// refused at once instead of waiting in open(2)), removes only files it created, and keeps a list of its
// temporary files so a quit signal can remove them.
import Foundation
import Synchronization
import SystemPackage

/// A file being written. Create it, write through `write`, then `commit()`; anything else (an error,
/// `discard()`, or dropping it) leaves a regular file as it was before.
public final class OutputFile {
    /// How a regular file is written.
    public enum Mode: Sendable {
        /// A temporary file beside the target, renamed over it by `commit()`: all or nothing.
        case atomic
        /// A temporary file beside the target (opened for reading too), written as the data comes and put
        /// in place by `publish()` once it holds something: a take, readable up to its last write from then
        /// on, also if Backbeat dies, while whatever was at the path stays as it was until then. Only regular
        /// files (`requireRegular`).
        case growing
    }

    /// The path as the user gave it.
    public let path: String
    /// The file written: `path` with its symbolic links followed.
    public let target: String
    /// True when the target is (or will be) a regular file; false for a device, a FIFO or a terminal.
    public let isRegular: Bool
    /// Whether the descriptor can seek (a header can be patched at the end): false for pipes and FIFOs.
    public let isSeekable: Bool
    /// The descriptor to write; valid until `commit()` or `discard()`.
    public private(set) var fd: Int32
    private var descriptor: FileDescriptor { FileDescriptor(rawValue: fd) }
    /// The temporary file renamed to `target` by `commit()`, for `.atomic` regular files.
    public let temporaryPath: String?
    /// Bytes written by `write(_:)` (the position of the next sequential write).
    public private(set) var position = 0
    private var finished = false
    public let mode: Mode
    /// True once a `.growing` file was renamed to `target` (or an `.atomic` one committed).
    public private(set) var isPublished = false

    /// Opens `path` for writing.
    /// - Parameters:
    ///   - inputs: files this command reads; an output that is one of them (the same device and inode,
    ///     also through a symbolic or hard link) is refused, naming both paths.
    ///   - mode: all or nothing (`.atomic`), or put in place once it holds something (`.growing`).
    ///   - replacingReadFiles: false (the default) also refuses every file this process has read as an input
    ///     (`protect(_:)`: fonts, configs, themes, scenarios); true only where replacing such a file is the
    ///     point (saving a preset over the one that was loaded).
    ///   - what: the kind of file, for `.growing`'s refusal of a path that is not a regular file ("a MIDI take").
    ///   - readerWait: how long a FIFO waits for a program to open it for reading.
    public init(path: String, inputs: [String] = [], mode: Mode = .atomic, replacingReadFiles: Bool = false,
                what: String = "the output", readerWait: Duration = OutputFile.fifoReaderWait) throws(SystemError) {
        self.path = path
        self.mode = mode
        guard !path.isEmpty else { throw SystemError("cannot write to an empty file name") }
        try Self.refuseInputs(inputs, output: path, includingReadFiles: !replacingReadFiles)
        // The kernel follows the links to see what is there (also /proc's magic links, as /dev/stdout is).
        var status = stat()
        let exists = stat(path, &status) == 0
        let type = status.st_mode & S_IFMT
        if exists && type == S_IFDIR { throw SystemError("cannot write '\(path)': it is a directory") }
        if exists && type == S_IFSOCK { throw SystemError("cannot write '\(path)': it is a socket") }
        if mode == .growing { try Self.requireRegular(path, what: what) }
        isRegular = !exists || type == S_IFREG
        // Where a regular file goes: the file the links lead to (created there when the last link dangles).
        var linkStatus = stat()
        let isLink = lstat(path, &linkStatus) == 0 && linkStatus.st_mode & S_IFMT == S_IFLNK
        let target: String
        if !isRegular || !isLink {
            target = path
        } else if exists, let real = realpath(path, nil) {
            target = String(cString: real)
            free(real)
        } else {
            target = try Self.resolveLinks(path)
        }
        self.target = target
        let shown = target == path ? "'\(path)'" : "'\(path)' (a link to '\(target)')"
        func open(_ file: String, _ options: FileDescriptor.OpenOptions) throws(SystemError) -> Int32 {
            do {
                return try FileDescriptor.open(FilePath(file), .writeOnly, options: options.union(.closeOnExec),
                                               permissions: [.ownerReadWrite, .groupRead, .otherRead]).rawValue
            } catch {
                throw SystemError("cannot write \(shown)", error, call: "open")
            }
        }

        if !isRegular && type == S_IFIFO {
            // A FIFO: write into it once a program reads it. A blocking open(2) would wait for a reader for
            // ever, past a quit signal; this one tries without waiting (ENXIO while nobody reads) for
            // `readerWait` at most, and gives up at once on a quit signal. Then back to blocking writes.
            let deadline = ContinuousClock.now + readerWait
            var opened: Int32?
            while opened == nil {
                do {
                    opened = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.nonBlocking, .closeOnExec]).rawValue
                } catch Errno.noSuchAddressOrDevice {
                    guard !QuitSignals.quitRequested else {
                        throw SystemError("cannot write \(shown): a quit signal came while waiting for a program to read the FIFO")
                    }
                    guard ContinuousClock.now < deadline else {
                        throw SystemError("cannot write \(shown): it is a FIFO and no program opened it for reading within \(readerWait)")
                    }
                    usleep(20_000)
                } catch {
                    throw SystemError("cannot write \(shown)", error, call: "open")
                }
            }
            fd = opened ?? -1
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            temporaryPath = nil
        } else if !isRegular {
            // A device or terminal: write into it.
            fd = try open(path, [])
            temporaryPath = nil
        } else {
            let url = URL(fileURLWithPath: target)
            let folder = url.deletingLastPathComponent().path
            Self.removeAbandonedTemporaries(in: folder)
            let temporary = folder + "/" + Self.temporaryName(for: url.lastPathComponent, pid: getpid())
            // O_NOFOLLOW: a link planted under the temporary name must not redirect the write. A growing file
            // is read back too (a take's fallback copy).
            do {
                fd = try FileDescriptor.open(FilePath(temporary), mode == .growing ? .readWrite : .writeOnly,
                                             options: [.create, .truncate, .noFollow, .closeOnExec],
                                             permissions: [.ownerReadWrite, .groupRead, .otherRead]).rawValue
            } catch {
                throw SystemError("cannot write \(shown)", error, call: "open")
            }
            if exists { _ = fchmod(fd, status.st_mode & 0o7777) }  // the replacement keeps the file's permissions
            temporaryPath = temporary
        }
        isSeekable = lseek(fd, 0, SEEK_CUR) >= 0
        if let temporaryPath { Self.pending.withLock { $0[ObjectIdentifier(self)] = temporaryPath } }
    }

    deinit { discard() }

    /// Writes all of `bytes` at the current position (short writes and EINTR retried).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            do {
                done += try descriptor.write(UnsafeRawBufferPointer(rebasing: bytes[done...]))
            } catch {
                position += done
                throw self.error("write", error)
            }
        }
        position += done
    }

    public func write(_ bytes: [UInt8]) throws(SystemError) {
        let failure = bytes.withUnsafeBytes { raw -> SystemError? in
            do throws(SystemError) { try write(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Overwrites bytes at `offset` (a header patched at the end); needs `isSeekable`. The position of
    /// sequential writes does not move.
    public func write(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
        do { try descriptor.writeAll(toAbsoluteOffset: Int64(offset), bytes) } catch { throw self.error("pwrite", error) }
    }

    /// Cuts a regular file to `length` bytes (drops a torn frame after a failed write).
    public func truncate(to length: Int) {
        guard isRegular, isSeekable else { return }
        guard (try? descriptor.resize(to: Int64(length))) != nil else { return }
        position = length
        _ = try? descriptor.seek(offset: Int64(length), from: .start)
    }

    /// Puts a `.growing` file in place now (rename over the target), keeping it open to write on: call it
    /// once the file holds something. Nothing to do for the other modes or once done.
    public func publish() throws(SystemError) {
        guard mode == .growing, !finished, !isPublished, let temporaryPath else { return }
        guard rename(temporaryPath, target) == 0 else { throw error("rename", Errno.last) }
        isPublished = true
        Self.pending.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
    }

    /// Flushes to the disk, closes, and for `.atomic` and `.growing` puts the file in place (a growing file
    /// that holds nothing is to be discarded instead).
    public func commit() throws(SystemError) {
        guard !finished else { return }
        do throws(Errno) {
            try SystemCall.retryOnInterrupt { fsync(fd) }
        } catch where error != .invalidArgument && error != .readOnlyFileSystem {  // devices and pipes cannot sync: not an error
            let failure = self.error("fsync", error)
            discard()
            throw failure
        } catch {}
        finished = true
        let closing = descriptor
        fd = -1
        do { try closing.close() } catch where error as? Errno != .interrupted {  // after EINTR it is closed and synced
            let failure = self.error("close", error)
            removeTemporary()
            throw failure
        } catch {}
        if let temporaryPath, !isPublished {
            guard rename(temporaryPath, target) == 0 else {
                let failure = error("rename", Errno.last)
                removeTemporary()
                throw failure
            }
            isPublished = true
            Self.pending.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        }
    }

    /// Closes without putting anything in place: a temporary file is removed, the target untouched (a
    /// `.growing` file already published stays as written; what went into a device or FIFO stays written).
    /// Backbeat never removes a file it did not create.
    public func discard() {
        guard !finished else { return }
        finished = true
        if fd >= 0 { try? descriptor.close() }
        fd = -1
        removeTemporary()
    }

    private func removeTemporary() {
        guard let temporaryPath, !isPublished else { return }
        unlink(temporaryPath)
        Self.pending.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
    }

    private func error(_ call: String, _ error: any Error) -> SystemError {
        SystemError("cannot write '\(path)'", error, call: call)
    }

    /// How long a FIFO output waits for its reader (`cat fifo` started a moment after Backbeat).
    public static let fifoReaderWait: Duration = .seconds(10)

    // MARK: Whole files

    /// Writes `bytes` to `path` completely or not at all (regular files), refusing to overwrite `inputs`.
    public static func write(_ bytes: [UInt8], to path: String, inputs: [String] = [],
                             replacingReadFiles: Bool = false) throws(SystemError) {
        let file = try OutputFile(path: path, inputs: inputs, replacingReadFiles: replacingReadFiles)
        try file.write(bytes)
        try file.commit()
    }

    // MARK: Quit signals

    /// Temporary files being written, by file: what a quit must remove.
    private static let pending = Mutex<[ObjectIdentifier: String]>([:])

    /// Removes every temporary file still being written (on a quit that cannot wait for the writer to
    /// notice, e.g. a second Ctrl-C). Not for a signal handler: call it from the thread that waits for
    /// signals (`QuitSignals`).
    public static func removeTemporaries() {
        pending.withLock { files in
            for path in files.values { unlink(path) }
            files.removeAll()
        }
    }

    /// The temporary files being written now (for tests).
    public static var temporaries: [String] { pending.withLock { Array($0.values) } }

    // MARK: Temporary files

    /// The hidden file an atomic write of `name` goes to first: `.NAME.backbeat-PID.tmp`.
    static func temporaryName(for name: String, pid: Int32) -> String { ".\(name).backbeat-\(pid).tmp" }

    /// The PID in a temporary file's name (`temporaryName`), or nil for any other name.
    static func temporaryOwner(_ name: String) -> Int32? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), let marker = name.range(of: ".backbeat-", options: .backwards) else { return nil }
        let digits = name[marker.upperBound..<name.index(name.endIndex, offsetBy: -4)]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let pid = Int32(digits), pid > 0 else { return nil }
        return pid
    }

    /// Removes the temporary files in `folder` that a killed Backbeat left (SIGKILL gives it no chance to):
    /// those named by `temporaryName` whose process no longer exists. Another program's files never match.
    public static func removeAbandonedTemporaries(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names {
            guard let pid = temporaryOwner(name), pid != getpid(), kill(pid, 0) != 0, Errno.last == .noSuchProcess else { continue }
            var status = stat()
            let path = folder + "/" + name
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == getuid() else { continue }
            unlink(path)
        }
    }

    // MARK: Paths

    /// Refuses a path that exists and is not a regular file (a device, FIFO, directory or socket, also behind
    /// a link): `what` (a take) is saved to a file, which Backbeat may put in place and remove if it holds
    /// nothing; a device node or FIFO is never written, replaced or removed as one.
    public static func requireRegular(_ path: String, what: String) throws(SystemError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let type = status.st_mode & S_IFMT
        guard type != S_IFREG else { return }
        throw SystemError("cannot write '\(path)': it is \(SystemCall.kind(of: type)), not a regular file; \(what) is saved to a regular file")
    }

    /// Refuses an output that is one of `inputs`, or (with `includingReadFiles`) one of the files this process
    /// has read (`protect(_:)`): the same regular file (device and inode), whatever path, symbolic or hard link
    /// leads to it. A device or FIFO named as both is not refused (nothing is replaced).
    public static func refuseInputs(_ inputs: [String], output: String, includingReadFiles: Bool = true) throws(SystemError) {
        var out = stat()
        guard stat(output, &out) == 0, out.st_mode & S_IFMT == S_IFREG else { return }
        var candidates: [ProtectedFile] = inputs.compactMap { input in
            var inp = stat()
            return stat(input, &inp) == 0 ? ProtectedFile(path: input, role: "the input", device: UInt64(inp.st_dev), inode: UInt64(inp.st_ino)) : nil
        }
        if includingReadFiles { candidates += readFiles.withLock { $0 } }
        for input in candidates where input.device == UInt64(out.st_dev) && input.inode == UInt64(out.st_ino) {
            let how = input.path == output ? "" : " (the same file under another name)"
            throw SystemError("the output '\(output)' is \(input.role) '\(input.path)'\(how): writing it would destroy \(input.role); name another output file")
        }
    }

    /// Files this process has read as inputs, by device and inode (taken when read, so a later change of
    /// directory or a rename does not lose them). Each is kept open (read-only) while the process runs: a file
    /// deleted after it was read then keeps its inode, which a new file (a take) could otherwise be given and
    /// be mistaken for it.
    private static let readFiles = Mutex<[ProtectedFile]>([])
    private struct ProtectedFile: Sendable {
        var path: String
        /// What the file is to this process, for the refusal: "the input", "the log file".
        var role: String
        var device: UInt64
        var inode: UInt64
    }
    private static let heldFiles = Mutex<[FileDescriptor]>([])

    /// Marks `path`, a file this process reads (a SoundFont, a config, a theme, a scenario, a MIDI file), as
    /// one no output may replace, whichever command or key opens the output. A path that is not a regular
    /// file is ignored; a file already marked is not marked twice. `role`: what the file is, for the refusal
    /// ("the log file" for `--log`, which Backbeat writes but no take may replace).
    public static func protect(_ path: String, role: String = "the input") {
        guard let held = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking]) else { return }
        var status = stat()
        guard fstat(held.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            try? held.close()
            return
        }
        let marked = readFiles.withLock { files in
            if files.contains(where: { $0.device == UInt64(status.st_dev) && $0.inode == UInt64(status.st_ino) }) { return false }
            files.append(ProtectedFile(path: path, role: role, device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
            return true
        }
        if marked { heldFiles.withLock { $0.append(held) } } else { try? held.close() }
    }

    /// `path` with symbolic links followed to the file they name (which may not exist yet: a dangling
    /// link creates its target). Directories on the way are left as they are.
    static func resolveLinks(_ path: String) throws(SystemError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                throw SystemError("cannot write '\(path)': cannot read the link '\(current)'")
            }
            current = destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        throw SystemError("cannot write '\(path)': too many levels of symbolic links")
    }
}
