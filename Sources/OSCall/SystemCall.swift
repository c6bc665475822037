// The one door to the OS for Backbeat's I/O off the real-time path: files and descriptors through
// swift-system (`FileDescriptor`: open, read, write, pread/pwrite, close, each retried on EINTR), the few
// calls it does not wrap (waitpid, poll, semop, mkdtemp, posix_spawn) through `SystemCall.retryOnInterrupt`,
// and every failure told in one way: `SystemError`, the file or the call, and `Errno`'s text (strerror).
// ALSA has its own door (`ALSACall`), JACK its own (`JackClient`). The real-time thread uses none of this.
import Glibc
import SystemPackage

/// Why a file, a descriptor or a process could not be used: what Backbeat was doing (naming the file or
/// the program), and the reason. Engine's one error type for files, descriptors and processes.
public struct SystemError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }

    /// "`what`: the reason", and " (`call`)" when the call is named: "cannot write 'x.wav': No space left on
    /// device (write)". The reason is `Errno`'s text (strerror) for a system error, else the error's own.
    public init(_ what: String, _ error: any Error, call: String? = nil) {
        self.init("\(what): \(SystemError.reason(error))" + (call.map { " (\($0))" } ?? ""))
    }

    /// The text of a failure: strerror's for an `Errno` (swift-system throws them untyped), else the error's.
    public static func reason(_ error: any Error) -> String {
        if let code = error as? Errno { return code.description }
        return "\(error)"
    }
}

/// Why `SystemCall.readFile` could not read a file: the reason alone, for a message that names the file.
public enum ReadFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// A failed call: strerror's text.
    case system(Errno)
    /// Not a regular file: its kind ("a FIFO").
    case notRegular(String)
    /// Larger than the limit for its kind of file.
    case tooLarge(limit: Int, what: String)

    public var description: String {
        switch self {
        case .system(let code): code.description
        case .notRegular(let kind): "it is \(kind), not a regular file"
        case .tooLarge(let limit, let what): "it is larger than \(ReadLimit.format(limit)), the most \(what) may be"
        }
    }
}

/// How much of each kind of file Backbeat reads into memory (a SoundFont is mapped, not read). Each bound is
/// far above any real file of its kind and far below what would hurt: `/dev/zero` or a 10 GB file named by
/// mistake ends with a message naming the limit, not with the OOM killer.
public enum ReadLimit {
    /// A Standard MIDI File: the largest real ones (orchestral scores, MIDI karaoke archives) are a few MB.
    public static let midiFile = 256 << 20
    /// A config, theme, preset, session or scenario (TOML text, kilobytes).
    public static let text = 1 << 20
    /// An Info.plist (kilobytes; binary plists of large apps reach a few hundred KB).
    public static let plist = 16 << 20
    /// A WAV file read whole (tests, benchmarks: minutes of audio).
    public static let wav = 1 << 30

    /// "256 MiB", "1 MiB", "512 KiB".
    public static func format(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

extension Errno {
    /// The errno the last failed C call left (swift-system keeps its own `Errno.current` internal).
    public static var last: Errno { Errno(rawValue: Glibc.errno) }
}

/// C calls that swift-system does not wrap, run the way its own are (swift-nio's `syscall` in
/// NIOPosix/System.swift is the model): retried while they fail with EINTR, a failure thrown as `Errno`.
public enum SystemCall {
    /// Runs `call` (which returns a negative value and sets errno on failure) again while it fails with
    /// EINTR; its result, or the errno of another failure.
    @discardableResult
    public static func retryOnInterrupt<R: SignedInteger>(_ call: () -> R) throws(Errno) -> R {
        while true {
            let result = call()
            guard result < 0 else { return result }
            let code = Errno.last
            guard code == .interrupted else { throw code }
        }
    }

    /// The bytes of the regular file at `path`, read to its end (/proc files report size 0, so the limit is
    /// also checked as it reads). `what` names the kind of file for the limit's message ("a scenario").
    /// Anything but a regular file is refused before a byte is read: a FIFO would block (opened without
    /// waiting, so it is refused even when no program writes it), `/dev/zero` never ends.
    public static func readFile(_ path: String, limit: Int, what: String) throws(ReadFailure) -> [UInt8] {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
        } catch {
            throw .system(error as? Errno ?? .ioError)
        }
        defer { try? fd.close() }
        var status = stat()
        guard fstat(fd.rawValue, &status) == 0 else { throw .system(.last) }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { throw .notRegular(kind(of: type)) }
        guard Int(status.st_size) <= limit else { throw .tooLarge(limit: limit, what: what) }
        return try read(fd, limit: limit, what: what)
    }

    /// Standard input read to its end, at most `limit` bytes (an endless pipe is cut off with an error, not
    /// read until memory runs out).
    public static func readStandardInput(limit: Int, what: String) throws(ReadFailure) -> [UInt8] {
        try read(.standardInput, limit: limit, what: what)
    }

    private static func read(_ fd: FileDescriptor, limit: Int, what: String) throws(ReadFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count: Int
            do {
                count = try block.withUnsafeMutableBytes { try fd.read(into: $0) }
            } catch {
                throw .system(error as? Errno ?? .ioError)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .tooLarge(limit: limit, what: what) }
            bytes += block[0..<count]
        }
    }

    /// "a FIFO", "a character device"...: the kind of a file that is not a regular one, from its `st_mode`
    /// type bits.
    public static func kind(of type: mode_t) -> String {
        switch type & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        case S_IFREG: "a regular file"
        default: "not a regular file"
        }
    }

    /// Waits for child `pid` to end (retrying EINTR); its wait status, or nil when it is not (or no longer)
    /// a child of this process.
    @discardableResult
    public static func waitForExit(_ pid: pid_t, usage: UnsafeMutablePointer<rusage>? = nil) -> Int32? {
        var status: Int32 = 0
        let waited = try? retryOnInterrupt { wait4(pid, &status, 0, usage) }
        return waited == nil ? nil : status
    }
}

extension FileDescriptor {
    /// Reads until `buffer` is full or the end of the file, at `offset` (pread, short reads and EINTR
    /// retried); the count read.
    public func readAll(fromAbsoluteOffset offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var done = 0
        while done < buffer.count {
            let n = try read(fromAbsoluteOffset: offset + Int64(done), into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            if n == 0 { break }
            done += n
        }
        return done
    }
}
