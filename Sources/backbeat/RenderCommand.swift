import ArgumentParser
import DSP

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render a Standard MIDI File to WAV through the synth.")
    func run() throws { throw ValidationError("render is not implemented yet") }
}
