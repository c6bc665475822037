import Foundation
import MIDI
import Testing
@testable import Engine

/// The MIDI capture written as it goes: valid after every append, and after every single write of one.
@Suite struct SMFStreamWriterTests {
    let directory: URL

    init() throws { directory = try makeTemporaryDirectory("backbeat-smf") }

    func messages(_ bytes: [UInt8]) throws -> [(seconds: Double, message: MIDIMessage)] {
        try StandardMIDIFile(bytes: bytes).timedEvents().compactMap { event in
            if case .message(let m) = event.event { (event.seconds, m) } else { nil }
        }
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    func take(_ pairs: [(seconds: Double, message: MIDIMessage)]) -> [TakeEvent] {
        pairs.map { TakeEvent(seconds: $0.seconds, port: nil, event: .message($0.message)) }
    }

    @Test func fileIsValidAfterEveryAppendAndEveryWriteOfOne() throws {
        let path = directory.appendingPathComponent("take.mid").path
        let writer = try SMFStreamWriter(path: path)
        #expect(!FileManager.default.fileExists(atPath: path), "a take with no events is not at its path")
        #expect(try messages(writer.contents()).isEmpty)
        let first: [(seconds: Double, message: MIDIMessage)] = [
            (0.1, .noteOn(NoteOn(channel: 0, note: 60, velocity: 100))), (0.2, .noteOn(NoteOn(channel: 0, note: 64, velocity: 90))),
        ]
        try writer.append(take(first))
        try writer.publish()
        let afterFirst = try bytes(path)
        #expect(try messages(afterFirst).map(\.seconds).map { ($0 * 1000).rounded() } == [100, 200])
        let second: [(seconds: Double, message: MIDIMessage)] = [
            (0.6, .noteOff(NoteOff(channel: 0, note: 60, velocity: 0))), (0.6, MIDIMessage(ShortMessage(status: 0xF8))!),
            (3000, .controlChange(ControlChange(channel: 2, controller: 7, value: 5))),
        ]
        try writer.append(take(second))
        let afterSecond = try bytes(path)
        let all = try messages(afterSecond)
        #expect(all.map(\.message) == (first + second).map(\.message))
        #expect(all.map { ($0.seconds * 1000).rounded() } == [100, 200, 600, 600, 3_000_000])

        // A process killed between the append's writes leaves one of these two files: both read as the first append.
        // In the first the new events lie past the track's declared end: a player ignores them, and Backbeat's
        // tolerant reading says so (a strict one refuses bytes after the last chunk).
        let count = afterFirst.count
        var afterStep1 = afterFirst + afterSecond[count...]
        let tolerant = try StandardMIDIFile.read(afterStep1, strict: false)
        #expect(tolerant.warnings.map(\.kind) == [.trailingBytes] && tolerant.warnings.first?.firstOffset == count)
        #expect(tolerant.file.timedEvents().compactMap { if case .message(let m) = $0.event { m } else { nil } } == first.map(\.message))
        afterStep1.replaceSubrange(18..<22, with: afterSecond[18..<22])
        #expect(try messages(afterStep1).map(\.message) == first.map(\.message))

        // A copy with events the file never got (the fallback after a write error).
        let held: [(seconds: Double, message: MIDIMessage)] = [(3001, .noteOn(NoteOn(channel: 1, note: 30, velocity: 1)))]
        let copy = try messages(writer.contents(appending: take(held)))
        #expect(copy.map(\.message) == (first + second + held).map(\.message))
        #expect(abs(copy.last!.seconds - 3001) < 0.001)
        try writer.close()
        #expect(try bytes(path) == afterSecond)
    }

    @Test func recordingHandsOverItsEventsAndKeepsCounting() {
        var recording = MIDIRecording(sampleRate: 48_000, startFrame: 1000, options: MIDITakeOptions(format: 0, raw: true))
        let on = MonitorEvent(frameTime: 1000 + 48_000, message: ShortMessage(status: 0x90, data1: 60, data2: 100), source: .jack, lost: false)
        recording.add(on)
        #expect(recording.takeEvents().map(\.seconds) == [1])
        #expect(recording.events.isEmpty && recording.count == 1)
        // A hair out of order after a hand-over is still recorded, at the latest time.
        recording.add(MonitorEvent(frameTime: 1000 + 47_000, message: ShortMessage(status: 0x80, data1: 60), source: .demo, lost: false))
        #expect(recording.takeEvents().map(\.seconds) == [1])
        #expect(recording.count == 2 && recording.duration == 1)
    }
}
