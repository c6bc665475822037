// The offline renderer and WAV writer (owned with the synth: see Sources/Engine/Core/OfflineRenderer.swift).
import DSP
import Foundation
import MIDI
import Testing
@testable import Engine



/// Format 1, 480 ticks per quarter: a tempo track (120 BPM, then 60 BPM from tick 960 = 1 s) and a note
/// track with four short notes at ticks 0, 480, 960, 1440: 0 s, 0.5 s, 1 s and 2 s.
private let notes: [(seconds: Double, note: UInt8)] = [(0, 69), (0.5, 72), (1, 76), (2, 81)]
private func twoTempoFile() -> [UInt8] {
    let tempo: [UInt8] = vlq(0) + [0xFF, 0x51, 3, 0x07, 0xA1, 0x20]       // 500000 us per quarter
        + vlq(960) + [0xFF, 0x51, 3, 0x0F, 0x42, 0x40]                  // 1000000 us per quarter
        + vlq(0) + [0xFF, 0x2F, 0]
    var track: [UInt8] = []
    var last = 0
    for (i, n) in notes.enumerated() {
        let tick = 480 * i
        track += vlq(tick - last) + [0x90, n.note, 100]
        track += vlq(120) + [0x80, n.note, 0] // 120 ticks: 0.125 s, or 0.25 s after the tempo change
        last = tick + 120
    }
    track += vlq(0) + [0xFF, 0x2F, 0]
    return SMFEncoder.header(format: 1, tracks: 2, division: .ticksPerQuarterNote(480)) + SMFEncoder.trackChunk(tempo) + SMFEncoder.trackChunk(track)
}


@Test func aMIDIFileWithATempoChangeRendersNotesAtTheRightTimesAndPitches() throws {
    let file = try StandardMIDIFile(bytes: twoTempoFile())
    let messages = OfflineRenderer.messages(of: file)
    #expect(messages.count == 8)
    let rate = 48_000.0
    let audio = OfflineRenderer.render(messages, sampleRate: rate, voices: 8, patch: 0) // sine keys
    for (seconds, note) in notes {
        let frame = Int(seconds * rate)
        // Silence before (the previous note's release has ended), sound from exactly this frame.
        if frame > 0 { #expect(audio.left[(frame - 480)..<frame].allSatisfy { $0 == 0 }, "before \(seconds) s") }
        #expect(audio.left[frame] != 0, "onset at \(seconds) s")
        let expected = 440 * pow(2, (Double(note) - 69) / 12)
        let measured = AudioAnalysis.dominantFrequency(audio.left[(frame + 960)..<(frame + 4_800)], sampleRate: Int(rate),
                                                      low: expected * 0.9, high: expected * 1.1)
        #expect(abs(measured / expected - 1) < 0.005, "note \(note): \(measured) Hz")
    }
    // It ends where the last release and the reverb fall below -90 dBFS (QuietTail), then 0.05 s of padding:
    // after the last note-off (2.25 s), within one period of the last audible frame.
    let last = (0..<audio.left.count).last { abs(audio.left[$0]) >= QuietTail.threshold || abs(audio.right[$0]) >= QuietTail.threshold } ?? 0
    #expect(last > Int(2.25 * rate))
    #expect(audio.left.count - last <= 512 + 2_400, "\(audio.left.count - last) frames after the last audible one")
}

@Test func offlineOutputMatchesTheSynthDrivenDirectly() {
    let messages = [TimedMessage(seconds: 0.0101, message: ShortMessage(status: 0x90, data1: 60, data2: 90)),
                    TimedMessage(seconds: 0.0203, message: ShortMessage(status: 0x80, data1: 60, data2: 0))]
    // Sine keys: no filter sweep, whose steps follow the call size (128 here, 1024 below).
    let audio = OfflineRenderer.render(messages, sampleRate: 48_000, patch: 0, periodFrames: 128, padding: 0)
    let synth = Synth(patch: 0)
    synth.prepare(sampleRate: 48_000, maxFrames: 1_024)
    var left = [Float](repeating: 0, count: audio.left.count), right = left
    let on = Int((0.0101 * 48_000).rounded()), off = Int((0.0203 * 48_000).rounded())
    left.withUnsafeMutableBufferPointer { l in
        right.withUnsafeMutableBufferPointer { r in
            var done = 0
            func run(to end: Int) {
                while done < end {
                    let n = min(1_024, end - done)
                    synth.render(left: l.baseAddress! + done, right: r.baseAddress! + done, frames: n)
                    done += n
                }
            }
            run(to: on); synth.handle(messages[0].message)
            run(to: off); synth.handle(messages[1].message)
            run(to: l.count)
        }
    }
    #expect(left == audio.left && right == audio.right)
    #expect(audio.left.firstIndex { $0 != 0 } == on)
}

@Test func wavFilesRoundTripAndAreWrittenAtomically() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backbeat-wav-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("out.wav").path
    let left: [Float] = [0, 0.5, -0.25, 1e-7], right: [Float] = [1, -1, 0.125, 0]
    try WAVFile.write(left: left, right: right, sampleRate: 44_100, to: path)
    let read = try WAVFile.read(path)
    #expect(read.left == left && read.right == right && read.sampleRate == 44_100)
    let bytes = WAVFile.encode(left: left, right: right, sampleRate: 44_100)
    #expect(bytes.count == WAVFile.headerSize + 4 * 8 && WAVFile.headerSize == 94)  // a JUNK chunk holds ds64's place
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.wav"])
    #expect(throws: SystemError.self) {
        try WAVFile.write(left: left, right: right, sampleRate: 44_100, to: directory.path + "/missing/out.wav")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.wav"])
}

/// A variable-length quantity (SMFEncoder's).
private func vlq(_ value: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    SMFEncoder.appendVLQ(UInt32(value), to: &bytes)
    return bytes
}
