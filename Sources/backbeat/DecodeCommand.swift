import ArgumentParser
import Engine
import Foundation
import MIDI
import Realtime
import SystemPackage
import TextOutput

/// `backbeat decode`: raw MIDI bytes in, one line per message out (a monitor without times).
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode raw MIDI bytes into one line per message.",
        discussion: """
            Reads binary MIDI bytes (or hex text with --hex) from FILE, or from standard input when FILE is \
            missing or '-', and prints each message as soon as its bytes have arrived: index, type, channel, \
            names, values and raw bytes, then a summary. With --json, one JSON object per message and a last \
            line {"type":"summary","messages":N,"errors":E}. Each error is reported with its byte offset, the \
            byte and what was expected: on standard error, or with --json as {"type":"error",...} objects \
            among the messages. Exit status: 0 when messages were decoded, 1 when there were only errors or \
            the output could not be written, 2 for unreadable, bad or empty input.
            """
    )

    @Argument(help: "File of raw MIDI bytes; '-' or nothing reads standard input.", completion: .file())
    var file: String?

    @Flag(help: "The input is hex text: whitespace-separated or contiguous pairs, optional 0x prefixes.")
    var hex = false

    @Flag(help: "One JSON object per message, then a summary object.")
    var json = false

    @OptionGroup var noteNames: NoteNameArguments

    func run() throws {
        let fd = try openInput()
        defer { if fd != .standardInput { try? fd.close() } }
        var stream = makeStream()
        let sink = DecodeSink(output: STDOUT_FILENO, errors: STDERR_FILENO, flushEveryBlock: !Self.isRegularFile(STDOUT_FILENO))
        let name = file.map { "'\(TerminalText.sanitized($0))'" } ?? "standard input"
        // A Standard MIDI File is not a byte stream: its header would decode as errors and its events as
        // nonsense. Its first block says so ("MThd"), and `smf` lists it.
        // Hex text read as bytes is all data bytes, every one an error: its first block says so too, and one
        // line asks for --hex instead.
        var first = true
        var isSMF = false, isHexText = false
        do {
            try Self.decode(&stream, sink: sink) { buffer in
                let n = Glibc.read(fd.rawValue, buffer.baseAddress, buffer.count)
                if first && n > 0 && !hex {
                    first = false
                    if n >= 4 && Array(UnsafeRawBufferPointer(rebasing: buffer[0..<4])) == Array("MThd".utf8) { isSMF = true; return 0 }
                    if Self.looksLikeHexText(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { isHexText = true; return 0 }
                }
                return n
            }
        } catch {
            if isSMF {
                let shownFile = file.map { TerminalText.sanitized($0) } ?? "-"
                throw failure("\(name) is a Standard MIDI File, not a stream of MIDI bytes: list it with `backbeat smf \(shownFile)`")
            }
            if isHexText {
                // As for input that held only errors: exit 1.
                Console.message("\(name) looks like hex text: did you mean --hex?", prefix: "backbeat decode: ")
                throw ExitCode(1)
            }
            switch error {
            case .input(let bad): throw failure(bad.description)
            case .read(let code): throw failure(SystemError("cannot read \(name)", code).description)
            case .empty: throw failure("empty input: no bytes to decode")
            }
        }
        if stream.errorCount > 0 && stream.messageCount == 0 { throw ExitCode(1) }
    }

    func makeStream() -> MIDIDecodeStream {
        MIDIDecodeStream(format: json ? .json : .text, middleC: noteNames.middleC, hex: hex, errorPrefix: "backbeat decode: ")
    }

    enum Failure: Error { case input(HexInputError), read(Errno), empty }

    /// Input blocks read at once; each is decoded in pieces of `pieceSize` so the lines waiting to be
    /// written stay near `flushThreshold` whatever the input (random bytes make ~35 bytes of text each).
    static let blockSize = 1 << 16, pieceSize = 1 << 14, flushThreshold = 1 << 20

    /// The whole command but the opening of the input: blocks from `read` (read(2)'s contract: bytes read,
    /// 0 at the end, -1 with errno) are decoded and written as they come. `bench` runs this too.
    static func decode(_ stream: inout MIDIDecodeStream, sink: DecodeSink,
                       read: (UnsafeMutableRawBufferPointer) -> Int) throws(Failure) {
        let memory = FixedArray<UInt8>(zeroed: blockSize)
        let block = UnsafeMutableRawBufferPointer(memory.buffer)
        while true {
            let n: Int
            do throws(Errno) { n = try SystemCall.retryOnInterrupt { read(block) } } catch {
                sink.flush(&stream)
                throw .read(error)
            }
            if n == 0 { break }
            var start = 0
            while start < n {
                let piece = UnsafeBufferPointer(start: block.baseAddress!.assumingMemoryBound(to: UInt8.self) + start,
                                                count: min(pieceSize, n - start))
                do { try stream.feed(piece) } catch {
                    sink.flush(&stream)
                    throw .input(error)
                }
                start += piece.count
                if stream.output.count >= flushThreshold { sink.flush(&stream) }
            }
            if sink.flushEveryBlock { sink.flush(&stream) }
        }
        do { try stream.finishInput() } catch {
            sink.flush(&stream)
            throw .input(error)
        }
        if stream.bytesDecoded == 0 { throw .empty }
        stream.writeSummary()
        sink.flush(&stream)
    }

    private func openInput() throws -> FileDescriptor {
        guard let path = file, path != "-" else { return .standardInput }
        let shown = "'\(TerminalText.sanitized(path))'"
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
        } catch {
            throw failure(SystemError("cannot read \(shown)", error).description)
        }
        var info = stat()
        if fstat(fd.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            try? fd.close()
            throw failure("cannot read \(shown): is a directory")
        }
        return fd
    }

    /// Whether `block` (the input's first) is hex text, such as `90 3C 40` or `0x903C40`: pairs of hex digits
    /// as `--hex` reads them, ASCII only. Such bytes are all below 0x80, so read as MIDI they are data bytes
    /// without a status: nothing but errors.
    static func looksLikeHexText(_ block: UnsafeRawBufferPointer) -> Bool {
        guard block.allSatisfy({ $0 < 0x80 }) else { return false }
        var reader = HexReader(), bytes: [UInt8] = []
        do {
            try reader.read(block.assumingMemoryBound(to: UInt8.self), into: &bytes)
            // A block that ends inside a token (a pipe's first read) is judged by its complete pairs.
            if block.last.map({ $0 == 0x20 || (0x09...0x0D).contains($0) }) == true { try reader.finish(into: &bytes) }
        } catch {
            return false
        }
        return !bytes.isEmpty
    }

    static func isRegularFile(_ fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Prints one clear line on stderr; the caller throws the returned exit code 2 (no stack trace).
    private func failure(_ message: String) -> ExitCode {
        Console.message(message, prefix: "backbeat decode: ")
        return ExitCode(2)
    }
}

/// Where decoded lines go: messages (and JSON errors) to `output`, text-mode errors to `errors`. Writes
/// whole buffers with write(2); an output that cannot be written ends Backbeat with exit code 1.
struct DecodeSink {
    var output: Int32
    var errors: Int32
    /// Pipes and terminals get each block's lines at once (a live pipe shows them as they come); a regular
    /// file gets large writes.
    var flushEveryBlock: Bool

    func flush(_ stream: inout MIDIDecodeStream) {
        if !stream.output.isEmpty {
            if let code = StandardOutput.writeAll(output, stream.output.bytes) {
                if code == .brokenPipe { StandardOutput.endQuietly() }
                StandardOutput.report(code)
                exit(1)
            }
            stream.output.removeAll()
        }
        if !stream.errorOutput.isEmpty {
            _ = StandardOutput.writeAll(errors, stream.errorOutput.bytes)
            stream.errorOutput.removeAll()
        }
    }
}
