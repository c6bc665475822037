// The one way Backbeat writes a file the user names (`render -o`, `lifecycle check --emit-scenario`, audio
// recordings): it refuses to overwrite an input, follows symbolic links to the file they point to (the link
// stays), writes regular files completely or not at all (a temporary file in the same directory, then
// rename(2)), writes into devices and FIFOs directly (never replacing `/dev/null` with a regular file), and
// keeps a list of its temporary files so a quit signal can remove them.
import Foundation
import Synchronization

/// Why an output file could not be written, naming the file.
public struct OutputFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A file being written. Create it, write through `write`, then `commit()`; anything else (an error,
/// `discard()`, or dropping it) leaves a regular file as it was before.
public final class OutputFile {
    /// How a regular file is written.
    public enum Mode: Sendable {
        /// A temporary file beside the target, renamed over it by `commit()`: all or nothing.
        case atomic
        /// The target itself, truncated and written as the data comes (a recording that must be readable
        /// up to its last write at any moment, also if Backbeat dies).
        case inPlace
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
    /// The temporary file renamed to `target` by `commit()`, for `.atomic` regular files.
    public let temporaryPath: String?
    /// Bytes written by `write(_:)` (the position of the next sequential write).
    public private(set) var position = 0
    private var finished = false

    /// Opens `path` for writing.
    /// - Parameters:
    ///   - inputs: files this command reads; an output that is one of them (the same device and inode,
    ///     also through a symbolic or hard link) is refused, naming both paths.
    ///   - mode: all or nothing (`.atomic`), or written in place as it grows (`.inPlace`).
    public init(path: String, inputs: [String] = [], mode: Mode = .atomic) throws(OutputFileError) {
        self.path = path
        guard !path.isEmpty else { throw OutputFileError("cannot write to an empty file name") }
        try Self.refuseInputs(inputs, output: path)
        // The kernel follows the links to see what is there (also /proc's magic links, as /dev/stdout is).
        var status = stat()
        let exists = stat(path, &status) == 0
        let type = status.st_mode & S_IFMT
        if exists && type == S_IFDIR { throw OutputFileError("cannot write '\(path)': it is a directory") }
        if exists && type == S_IFSOCK { throw OutputFileError("cannot write '\(path)': it is a socket") }
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
        func failure(_ call: String) -> OutputFileError {
            let reason = String(cString: strerror(errno))
            let shown = target == path ? "'\(path)'" : "'\(path)' (a link to '\(target)')"
            return OutputFileError("cannot write \(shown): \(reason) (\(call))")
        }

        if !isRegular {
            // A device, FIFO or terminal: write into it. Opening a FIFO waits for its reader, like `cat > fifo`.
            fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw failure("open") }
            temporaryPath = nil
        } else if mode == .inPlace {
            fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw failure("open") }
            temporaryPath = nil
        } else {
            let url = URL(fileURLWithPath: target)
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
            // O_NOFOLLOW: a link planted under the temporary name must not redirect the write.
            fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw failure("open") }
            if exists { _ = fchmod(fd, status.st_mode & 0o7777) }  // the replacement keeps the file's permissions
            temporaryPath = temporary
        }
        isSeekable = lseek(fd, 0, SEEK_CUR) >= 0
        if let temporaryPath { Self.pending.withLock { $0[ObjectIdentifier(self)] = temporaryPath } }
    }

    deinit { discard() }

    /// Writes all of `bytes` at the current position (retrying short writes and EINTR).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFileError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, base + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                position += done
                throw error("write")
            }
            done += n
        }
        position += done
    }

    public func write(_ bytes: [UInt8]) throws(OutputFileError) {
        let failure = bytes.withUnsafeBytes { raw -> OutputFileError? in
            do throws(OutputFileError) { try write(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Overwrites bytes at `offset` (a header patched at the end); needs `isSeekable`. The position of
    /// sequential writes does not move.
    public func write(_ bytes: [UInt8], at offset: Int) throws(OutputFileError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw error("pwrite")
            }
            done += n
        }
    }

    /// Cuts a regular file to `length` bytes (drops a torn frame after a failed write).
    public func truncate(to length: Int) {
        guard isRegular, isSeekable else { return }
        if ftruncate(fd, off_t(length)) == 0 { position = length; _ = lseek(fd, off_t(length), SEEK_SET) }
    }

    /// Flushes to the disk, closes, and for `.atomic` puts the file in place.
    public func commit() throws(OutputFileError) {
        guard !finished else { return }
        if fsync(fd) != 0 && errno != EINVAL && errno != EROFS {  // devices and pipes cannot sync: not an error
            let failure = error("fsync")
            discard()
            throw failure
        }
        finished = true
        let closed = close(fd)
        fd = -1
        if closed != 0 && errno != EINTR {  // after EINTR the descriptor is closed and the data synced
            let failure = error("close")
            removeTemporary()
            throw failure
        }
        if let temporaryPath {
            guard rename(temporaryPath, target) == 0 else {
                let failure = error("rename")
                removeTemporary()
                throw failure
            }
            Self.pending.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        }
    }

    /// Closes without putting anything in place: a temporary file is removed, the target untouched (for
    /// `.inPlace` and special files, what was written stays written).
    public func discard() {
        guard !finished else { return }
        finished = true
        if fd >= 0 { close(fd) }
        fd = -1
        removeTemporary()
    }

    private func removeTemporary() {
        guard let temporaryPath else { return }
        unlink(temporaryPath)
        Self.pending.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
    }

    private func error(_ call: String) -> OutputFileError {
        OutputFileError("cannot write '\(path)': \(String(cString: strerror(errno))) (\(call))")
    }

    // MARK: Whole files

    /// Writes `bytes` to `path` completely or not at all (regular files), refusing to overwrite `inputs`.
    public static func write(_ bytes: [UInt8], to path: String, inputs: [String] = []) throws(OutputFileError) {
        let file = try OutputFile(path: path, inputs: inputs)
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

    // MARK: Paths

    /// Refuses an output that is one of `inputs`: the same regular file (device and inode), whatever path,
    /// symbolic or hard link leads to it. A device or FIFO named as both is not refused (nothing is replaced).
    public static func refuseInputs(_ inputs: [String], output: String) throws(OutputFileError) {
        var out = stat()
        guard stat(output, &out) == 0, out.st_mode & S_IFMT == S_IFREG else { return }
        for input in inputs {
            var inp = stat()
            if stat(input, &inp) == 0 && inp.st_dev == out.st_dev && inp.st_ino == out.st_ino {
                let how = input == output ? "" : " (the same file under another name)"
                throw OutputFileError("the output '\(output)' is the input '\(input)'\(how): writing it would destroy the input; name another output file")
            }
        }
    }

    /// `path` with symbolic links followed to the file they name (which may not exist yet: a dangling
    /// link creates its target). Directories on the way are left as they are.
    static func resolveLinks(_ path: String) throws(OutputFileError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                throw OutputFileError("cannot write '\(path)': cannot read the link '\(current)'")
            }
            current = destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        throw OutputFileError("cannot write '\(path)': too many levels of symbolic links")
    }
}
