import ArgumentParser
import Engine
import Foundation
import MIDI
import Reports
import SystemPackage
import TextOutput

/// `backbeat smf FILE`: lists a Standard MIDI File (a take, or any other) event by event.
struct SMFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smf",
        abstract: "List a Standard MIDI File: header, tracks, and each event with its tick and time.",
        discussion: """
            Prints the header (format, tracks, division), then each track's events in file order: tick, time \
            in seconds through the file's tempo map, and the event with the names the monitor uses (meta \
            events by their type: Set Tempo with its BPM, Marker, Track Name...). With --json, one object per \
            line: {"type":"header",...}, {"type":"track",...}, then each event with "track", "tick" and \
            "time" added to the fields of `decode --json` (meta events: "type":"meta" with "meta" and \
            "text" or "bpm"; F7 escape events: "type":"escape" with "bytes"). A file with faults is listed as \
            `render` plays it, with one warning line on stderr per kind of fault (count and first byte offset); \
            with --strict, or for input that is not a MIDI file, the first fault is named with its byte offset \
            and what was expected there (exit 2). Format 2 times run on from one track to the next.
            """
    )

    @Argument(help: "The Standard MIDI File (.mid); '-' reads standard input.", completion: .file(extensions: ["mid", "midi", "smf", "kar"]))
    var file: String

    @Flag(help: "One JSON object per line.")
    var json = false

    @OptionGroup var noteNames: NoteNameArguments

    @Flag(help: "Refuse a file with any fault (exit 2 with its byte offset) instead of listing what can be read.")
    var strict = false

    func run() throws {
        let shown = file == "-" ? "standard input" : "'\(TerminalText.sanitized(file))'"
        let data: [UInt8]
        do throws(ReadFailure) {
            data = try file == "-" ? SystemCall.readStandardInput(limit: ReadLimit.midiFile, what: "a MIDI file")
                : SystemCall.readFile(file, limit: ReadLimit.midiFile, what: "a MIDI file")
        } catch {
            Console.message(SystemError("cannot read \(shown)", error).description, prefix: "backbeat smf: ")
            throw ExitCode(2)
        }
        let smf: StandardMIDIFile
        do {
            let read = try StandardMIDIFile.read([UInt8](data), strict: strict)
            smf = read.file
            for warning in read.warnings { Console.message("\(shown): warning: \(warning)", prefix: "backbeat smf: ") }
        } catch {
            Console.message("\(shown): \(error.description)", prefix: "backbeat smf: ")
            throw ExitCode(2)
        }
        for line in SMFListing.lines(smf, json: json, middleC: noteNames.middleC) { Console.out(line) }
    }
}
