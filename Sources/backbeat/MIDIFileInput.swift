import Engine
import MIDI

/// A Standard MIDI File read as `render` and `play` read it: the tolerant reader (each kind of fault one
/// warning line, with its count and first byte offset; `strict` refuses such a file), and one message for a
/// file that cannot be read or is not MIDI.
enum MIDIFileInput {
    /// Why a file was refused: the line to print.
    struct Refusal: Error {
        let message: String
    }

    /// Reads `path`; warnings go to stderr with `prefix` ("backbeat render: ").
    static func read(_ path: String, strict: Bool, prefix: String) throws(Refusal) -> StandardMIDIFile {
        let data: [UInt8]
        do throws(ReadFailure) { data = try SystemCall.readFile(path, limit: ReadLimit.midiFile, what: "a MIDI file") } catch {
            throw Refusal(message: SystemError("cannot read '\(path)'", error).description)
        }
        do {
            let read = try StandardMIDIFile.read(data, strict: strict)
            for warning in read.warnings { Console.message("'\(path)': warning: \(warning)", prefix: prefix) }
            return read.file
        } catch {
            throw Refusal(message: "'\(path)': \(error.description)")
        }
    }
}
