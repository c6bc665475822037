// `backbeat render --instrument`: an SFZ instrument on one channel beside the built-in synth, and the messages
// of an instrument that cannot play.
import Foundation
import MIDI
import Testing
import TestSupport

@Suite(.needsBackbeatBinary) struct InstrumentRenderTests {
    /// Writes `sfz` and a MIDI file of `events` into a fresh folder; returns the folder and the two paths.
    private func files(_ sfz: String, _ events: [(seconds: Double, message: MIDIMessage)]) throws -> (folder: URL, sfz: String, midi: String) {
        let folder = try makeTemporaryDirectory("instrument-render")
        let instrument = folder.appendingPathComponent("inst.sfz").path
        try sfz.write(toFile: instrument, atomically: true, encoding: .utf8)
        let midi = folder.appendingPathComponent("song.mid").path
        try Data(StandardMIDIFile.format0(events)).write(to: URL(fileURLWithPath: midi))
        return (folder, instrument, midi)
    }

    /// `--instrument 2=inst.sfz`: channel 2 plays the instrument's sine whatever its program; channel 1 keeps
    /// the built-in patch (harmonics), and a program change on channel 2 does not move it.
    @Test func instrumentOnOneChannelBesideTheBuiltInSynth() throws {
        let (folder, sfz, midi) = try files("<region> sample=*sine", [
            (0.0, .programChange(.init(channel: 1, program: 40))),
            (0.1, .noteOn(.init(channel: 1, note: 69, velocity: 127))), (0.9, .noteOff(.init(channel: 1, note: 69, velocity: 0))),
            (1.2, .noteOn(.init(channel: 0, note: 69, velocity: 127))), (2.0, .noteOff(.init(channel: 0, note: 69, velocity: 0))),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.wav").path
        let result = try backbeat(["render", midi, "-o", output, "--instrument", "2=" + sfz, "--no-reverb", "--no-chorus"])
        #expect(result.status == 0, "\(result.stderr)")
        // The load is reported: size, sample memory (one 1024-frame cycle, 16-bit) and time.
        #expect(result.stderr.contains("inst.sfz': 1 region, 0 sample files, 0.0 MB of samples, loaded in "), "\(result.stderr)")
        let mono = AudioComparison.mono(try WAVRecording(path: output))
        // The third harmonic against the fundamental: none in a sine, a tenth in the built-in piano.
        func harmonicRatio(from: Double, to: Double) -> Double {
            let part = AudioComparison.slice(mono, from: from, to: to, rate: 48_000)
            return AudioComparison.magnitude(part, at: 1320, rate: 48_000) / AudioComparison.magnitude(part, at: 440, rate: 48_000)
        }
        let sine = AudioComparison.slice(mono, from: 0.3, to: 0.8, rate: 48_000)
        #expect(AudioComparison.strongestFrequency(sine, rate: 48_000, low: 400, high: 480).frequency.distance(to: 440).magnitude < 1)
        #expect(harmonicRatio(from: 0.3, to: 0.8) < 0.01)
        #expect(AudioComparison.rms(AudioComparison.slice(mono, from: 1.4, to: 1.9, rate: 48_000)) > 0.001)
        #expect(harmonicRatio(from: 1.4, to: 1.9) > 0.02, "the built-in patch on channel 1 has harmonics")
    }

    /// A missing sample names the instrument's file and line and ends the render before it starts (exit 2);
    /// a channel out of 1...16 is refused with the range.
    @Test func instrumentThatCannotPlayStopsTheRender() throws {
        let (folder, sfz, midi) = try files("<group> lokey=40\n<region> sample=nothere.wav\n", [
            (0.1, .noteOn(.init(channel: 0, note: 60, velocity: 100))), (0.5, .noteOff(.init(channel: 0, note: 60, velocity: 0))),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.wav").path
        let missing = try backbeat(["render", midi, "-o", output, "--instrument", sfz])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("inst.sfz:2: sample '") && missing.stderr.contains("nothere.wav' is missing"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let channel = try backbeat(["render", midi, "-o", output, "--instrument", "17=" + sfz])
        #expect(channel.status != 0)
        #expect(channel.stderr.contains("channels are 1...16"), "\(channel.stderr)")
    }
}
