import Engine
import Foundation
import SystemPackage

/// `--log FILE`: engine messages with a monotonic time stamp (ui-bench measures "ready:" to "first frame"),
/// appended, in the workstation and headless alike. The file is created if missing; a FIFO, directory or
/// socket is refused (a FIFO nobody reads would hold the start in open(2)); a terminal or `/dev/null` is
/// written into. A regular log file is protected like an input: no take or render may replace it.
final class LogFile: Sendable {
    private let fd: FileDescriptor
    private let start = ContinuousClock.now

    init(path: String) throws(SystemError) {
        guard !path.isEmpty else { throw SystemError("--log needs a file name") }
        var status = stat()
        if stat(path, &status) == 0 {
            let type = status.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFCHR else {
                throw SystemError("cannot write the log file '\(path)': it is \(SystemCall.kind(of: type)), not a regular file")
            }
        }
        do {
            fd = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.append, .create, .closeOnExec, .nonBlocking],
                                         permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw SystemError("cannot write the log file '\(path)'", error)
        }
        _ = fcntl(fd.rawValue, F_SETFL, fcntl(fd.rawValue, F_GETFL) & ~O_NONBLOCK)  // opened without waiting, written in full
        OutputFile.protect(path, role: "the log file")
    }

    deinit { try? fd.close() }

    /// Appends `line` with its time stamp; a failed write (a full disk) is dropped: the log never stops
    /// Backbeat.
    func write(_ line: String) {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let stamp = String(format: "%.3f", Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9)
        _ = try? fd.writeAll(Array("[\(stamp)] \(line)\n".utf8))
    }
}
