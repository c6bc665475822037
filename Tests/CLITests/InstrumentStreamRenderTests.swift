// `backbeat render --instrument` with an instrument bigger than `--sample-cache`: streamed from disk, reported,
// and the same audio as a whole load.
import Foundation
import MIDI
import Testing
import TestSupport

@Suite(.needsBackbeatBinary) struct InstrumentStreamRenderTests {
    /// A mono 16-bit 48 kHz WAV of `frames` frames: 440 Hz up to frame 16384 (a streamed instrument's head),
    /// 880 Hz after.
    private func writeWAV(_ path: String, frames: Int) throws {
        var bytes = Data()
        func word(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        func half(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        bytes.append(contentsOf: Array("RIFF".utf8)); word(UInt32(36 + 2 * frames)); bytes.append(contentsOf: Array("WAVEfmt ".utf8))
        word(16); half(1); half(1); word(48_000); word(96_000); half(2); half(16)
        bytes.append(contentsOf: Array("data".utf8)); word(UInt32(2 * frames))
        for i in 0..<frames {
            let hertz = i < 16_384 ? 440.0 : 880.0
            half(UInt16(bitPattern: Int16(12_000 * sin(2 * Double.pi * hertz * Double(i) / 48_000))))
        }
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test func aStreamedInstrumentRendersAsTheWholeOneAndSaysSo() throws {
        let folder = try makeTemporaryDirectory("instrument-stream")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two samples of 400000 frames: 1.5 MB decoded, over a 1 MiB cache.
        for name in ["a", "b"] { try writeWAV(folder.appendingPathComponent("\(name).wav").path, frames: 400_000) }
        let sfz = folder.appendingPathComponent("inst.sfz").path
        try "<region> sample=a.wav key=60 pitch_keycenter=60\n<region> sample=b.wav key=62 pitch_keycenter=62\n"
            .write(toFile: sfz, atomically: true, encoding: .utf8)
        let midi = folder.appendingPathComponent("song.mid").path
        try Data(StandardMIDIFile.format0([
            (0.1, .noteOn(.init(channel: 0, note: 60, velocity: 100))), (1.0, .noteOff(.init(channel: 0, note: 60, velocity: 0))),
            (1.2, .noteOn(.init(channel: 0, note: 62, velocity: 100))), (1.9, .noteOff(.init(channel: 0, note: 62, velocity: 0))),
        ])).write(to: URL(fileURLWithPath: midi))
        let streamedPath = folder.appendingPathComponent("streamed.wav").path, wholePath = folder.appendingPathComponent("whole.wav").path
        let streamed = try backbeat(["render", midi, "-o", streamedPath, "--instrument", sfz, "--sample-cache", "1", "--no-reverb", "--no-chorus"])
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(streamed.stderr.contains("1.5 MB of samples, streamed from disk ("), "\(streamed.stderr)")
        #expect(streamed.stderr.contains("--sample-cache 1 MiB), loaded in "), "\(streamed.stderr)")
        #expect(streamed.stderr.contains("late voices of 2") && streamed.stderr.contains(" 0 late voices"), "\(streamed.stderr)")
        #expect(streamed.stderr.contains("streamed 1.5 MiB from disk"), "\(streamed.stderr)")
        let whole = try backbeat(["render", midi, "-o", wholePath, "--instrument", sfz, "--no-reverb", "--no-chorus"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(!whole.stderr.contains("streamed"), "\(whole.stderr)")
        // Sample for sample the same: the tails (880 Hz) were read in time.
        #expect(try Data(contentsOf: URL(fileURLWithPath: streamedPath)) == Data(contentsOf: URL(fileURLWithPath: wholePath)))
        let mono = AudioComparison.mono(try WAVRecording(path: streamedPath))
        let tail = AudioComparison.slice(mono, from: 0.6, to: 0.9, rate: 48_000)
        #expect(abs(AudioComparison.strongestFrequency(tail, rate: 48_000, low: 300, high: 1000, resolution: 1).frequency - 880) < 5)
    }
}
