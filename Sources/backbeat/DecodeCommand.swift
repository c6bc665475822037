import ArgumentParser
import MIDI

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Decode raw MIDI bytes into one line per message.")
    func run() throws { throw ValidationError("decode is not implemented yet") }
}
