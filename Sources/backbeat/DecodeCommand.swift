import ArgumentParser
import Foundation
import MIDI

/// `backbeat decode`: raw MIDI bytes in, one line per message out (a monitor without times).
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode raw MIDI bytes into one line per message.",
        discussion: """
            Reads binary MIDI bytes (or hex text with --hex) from FILE, or from standard input when FILE is \
            missing or '-'. Prints index, type, channel, names, values and raw bytes of each message, then a \
            summary. With --json, one JSON object per message and a last line \
            {"type":"summary","messages":N,"errors":E}. Exit code 2 for unreadable, bad or empty input.
            """
    )

    @Argument(help: "File of raw MIDI bytes; '-' or nothing reads standard input.")
    var file: String?

    @Flag(help: "The input is hex text: whitespace-separated or contiguous pairs, optional 0x prefixes.")
    var hex = false

    @Flag(help: "One JSON object per message, then a summary object.")
    var json = false

    @Flag(help: "Name middle C (note 60) C3 instead of C4.")
    var middleC3 = false

    func run() throws {
        let input: [UInt8]
        do {
            input = try readInput()
        } catch {
            throw failure(error.message)
        }
        var bytes = input
        if hex {
            guard let text = String(validating: input, as: UTF8.self) else { throw failure("the hex input is not UTF-8 text") }
            do {
                bytes = try HexBytes.parse(text)
            } catch {
                throw failure(error.description)
            }
        }
        if bytes.isEmpty { throw failure("empty input: no bytes to decode") }

        let (messages, errors) = MIDIParser.decode(bytes)
        let formatter = MonitorFormatter(middleC: middleC3 ? .c3 : .c4)
        var out = ""
        for (i, message) in messages.enumerated() {
            out += json ? message.json : formatter.line(message, index: i + 1)
            out += "\n"
            if out.utf8.count > 1 << 16 {
                print(out, terminator: "")
                out = ""
            }
        }
        out += json
            ? MIDIJSON.summary(messages: messages.count, errors: errors)
            : "\(messages.count) messages, \(errors) errors"
        print(out)
    }

    struct InputError: Error { var message: String }

    private func readInput() throws(InputError) -> [UInt8] {
        if file == nil || file == "-" {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        let path = file!
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(message: "cannot read '\(path)': no such file")
        }
        if isDirectory.boolValue { throw InputError(message: "cannot read '\(path)': is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(message: "cannot read '\(path)': permission denied or I/O error")
        }
        return Array(data)
    }

    /// Prints one clear line on stderr; the caller throws the returned exit code 2 (no stack trace).
    private func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("backbeat decode: \(message)\n".utf8))
        return ExitCode(2)
    }
}
