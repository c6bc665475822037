import ArgumentParser
import DSP
import Engine
import Foundation
import MIDI

/// `backbeat render`: a Standard MIDI File through the synth, offline, to a WAV file.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a Standard MIDI File to WAV through the synth.",
        discussion: """
            Plays IN (format 0 or 1, tempo map respected) through the same synth and the same sample-accurate \
            event split as the live engine, as fast as the machine can, until every voice has fallen silent. \
            Writes a stereo WAV of 32-bit float samples; the file is written completely or not at all. \
            Patches: \(SynthPatch.builtIn.enumerated().map { "\($0.offset) \($0.element.name)" }.joined(separator: ", ")); \
            program changes in the file switch patches. Exit code 2 for a missing, unreadable or corrupt \
            input or an unwritable output.
            """
    )

    @Argument(help: ArgumentHelp("The Standard MIDI File to render.", valueName: "in.mid"))
    var input: String

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The WAV file to write.", valueName: "out.wav"))
    var output: String

    @Option(help: "Sample rate in Hz (8000...384000).")
    var rate: Int = 48_000

    @Option(help: "Voices that can sound at once (1...4096).")
    var voices: Int = 64

    @Option(help: "Initial built-in patch (program number; taken modulo the number of patches).")
    var patch: Int = 0

    @Option(help: "Play only this MIDI channel (1...16); all channels by default.")
    var channel: Int?

    func validate() throws {
        guard (8_000...384_000).contains(rate) else { throw ValidationError("--rate must be 8000...384000") }
        guard (1...4_096).contains(voices) else { throw ValidationError("--voices must be 1...4096 (got \(voices))") }
        guard patch >= 0 else { throw ValidationError("--patch must not be negative") }
        if let channel, !(1...16).contains(channel) { throw ValidationError("--channel must be 1...16") }
    }

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
            throw failure("cannot read '\(input)': no such file")
        }
        if isDirectory.boolValue { throw failure("cannot read '\(input)': is a directory") }
        guard let data = FileManager.default.contents(atPath: input) else {
            throw failure("cannot read '\(input)': permission denied or I/O error")
        }
        let file: StandardMIDIFile
        do {
            file = try StandardMIDIFile(bytes: Array(data))
        } catch {
            throw failure("'\(input)': \(error.description)")
        }
        let messages = OfflineRenderer.messages(of: file)
        let start = ContinuousClock.now
        let audio = OfflineRenderer.render(messages, sampleRate: Double(rate), voices: voices, patch: patch,
                                           channel: channel.map { UInt8($0 - 1) })
        let elapsed = ContinuousClock.now - start
        do {
            try WAVFile.write(left: audio.left, right: audio.right, sampleRate: rate, to: output)
        } catch {
            throw failure(error.description)
        }
        let seconds = Double(audio.left.count) / Double(rate)
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let notes = messages.count { $0.message.kind == 0x90 && $0.message.data2 > 0 }
        let peak = zip(audio.left, audio.right).reduce(Float(0)) { max($0, abs($1.0), abs($1.1)) }
        let speed = wall > 0 ? String(format: "%.0fx real time", seconds / wall) : "instant"
        print(String(format: "%@: %d notes, %.2f s of stereo 32-bit float at %d Hz, peak %.1f dBFS (%@)",
                     output, notes, seconds, rate, 20 * log10(max(Double(peak), 1e-10)), speed))
    }

    /// Prints one clear line on stderr; the caller throws the returned exit code 2 (no stack trace).
    private func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("backbeat render: \(message)\n".utf8))
        return ExitCode(2)
    }
}
