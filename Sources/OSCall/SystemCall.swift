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

    /// The bytes of the file at `path`, read to its end (/proc files report size 0), or the errno of the
    /// failed open or read.
    public static func readFile(_ path: String) throws(Errno) -> [UInt8] {
        do {
            let fd = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
            return try fd.closeAfter {
                var bytes: [UInt8] = []
                var block = [UInt8](repeating: 0, count: 64 << 10)
                while true {
                    let count = try block.withUnsafeMutableBytes { try fd.read(into: $0) }
                    if count == 0 { return bytes }
                    bytes += block[0..<count]
                }
            }
        } catch {
            throw error as? Errno ?? .ioError
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
