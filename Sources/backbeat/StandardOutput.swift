import Foundation
import SystemPackage

/// Standard output that cannot fail silently: a write that fails (a full disk, `/dev/full`) ends Backbeat
/// with exit code 1 and one line on standard error, instead of exit 0 and lost results. A reader that went
/// away (`backbeat smf big.mid | head`) is no error: Backbeat ends quietly then, killed by SIGPIPE as `cat`
/// and `grep` are. Results go out with write(2), whole; what `print` buffers (argument parser help, the
/// lifecycle commands) is checked when the process exits.
enum StandardOutput {
    /// Called first thing in `main`: SIGPIPE is ignored, so a closed pipe comes back as EPIPE from the write
    /// (the engine's sockets and pipes must not kill the process), and only standard output's EPIPE ends it;
    /// and an exit hook flushes C's stdout (`print`) and checks that it could.
    static func installChecks() {
        signal(SIGPIPE, SIG_IGN)
        atexit {
            // Every C stream (the only one written is stdout: stderr is unbuffered).
            guard fflush(nil) != 0 else { return }
            let code = Errno.last
            if code == .brokenPipe { StandardOutput.endQuietly() }
            StandardOutput.report(code)
            _exit(1)
        }
    }

    /// The reader of standard output went away: end as a pipeline's other programs do, by SIGPIPE, without
    /// a word (the shell sees status 141 and says nothing).
    static func endQuietly() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        _exit(128 + SIGPIPE)  // not reached: SIGPIPE's default action ends the process
    }

    /// Writes `text`; exits 1 with a message if it cannot.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Writes `bytes`, all of them; exits 1 with a message if it cannot.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        fflush(nil)  // whatever `print` buffered goes first
        if let code = writeAll(STDOUT_FILENO, bytes) {
            if code == .brokenPipe { endQuietly() }
            report(code)
            exit(1)
        }
    }

    /// write(2) until every byte is out (swift-system retries EINTR and short writes); the errno of a
    /// failure, or nil.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Errno? {
        do {
            _ = try FileDescriptor(rawValue: fd).writeAll(bytes)
            return nil
        } catch {
            return error as? Errno ?? .ioError
        }
    }

    /// "backbeat: cannot write the output (standard output): No space left on device".
    static func report(_ code: Errno?) {
        let reason = code.map { ": \($0)" } ?? ""
        let line = "backbeat: cannot write the output (standard output)\(reason)\n"
        var text = line
        text.withUTF8 { _ = writeAll(STDERR_FILENO, $0) }
    }
}
