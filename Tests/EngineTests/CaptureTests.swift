import Foundation
import Testing
@testable import Engine
import DSP
import MIDI

extension MIDIRecording {
    /// A short message's event, its message read from the event itself.
    mutating func add(_ event: MonitorEvent) { add(event, message: MIDIMessage(event.message)) }
}

@Suite struct CaptureTests {
    let directory: URL

    init() throws { directory = try makeTemporaryDirectory("backbeat-capture") }

    func note(_ frame: UInt32, _ status: UInt8, _ note: UInt8, lost: Bool = false) -> MonitorEvent {
        MonitorEvent(frameTime: frame, message: ShortMessage(status: status, data1: note, data2: status >= 0x90 ? 100 : 0),
                     source: .demo, lost: lost)
    }

    @Test func midiRecordingTimesComeFromFrameTimes() throws {
        // Starts 1000 frames before the 32-bit frame counter wraps.
        let start = UInt32.max - 999
        var recording = MIDIRecording(sampleRate: 48_000, startFrame: start, options: MIDITakeOptions(format: 0, raw: true))
        recording.add(note(start &- 10, 0x90, 50))               // before the start: not recorded
        recording.add(note(start &+ 24_000, 0x90, 60))           // 0.5 s, after the wrap
        recording.add(note(start &+ 30_000, 0x90, 61, lost: true))  // dropped by the lifecycle gate
        recording.add(note(start &+ 48_000, 0x80, 60))           // 1 s
        recording.add(MonitorEvent(frameTime: start &+ 48_000, message: ShortMessage(status: 0xF8), source: .demo, lost: false))
        #expect(recording.events.map(\.seconds) == [0.5, 1, 1])
        // Without a start frame the first event is the start.
        var unanchored = MIDIRecording(sampleRate: 48_000, startFrame: nil, options: MIDITakeOptions(format: 0, raw: true))
        unanchored.add(note(5000, 0x90, 60))
        unanchored.add(note(5000 + 4800, 0x80, 60))
        #expect(unanchored.events.map(\.seconds) == [0, 0.1])
        let file = try StandardMIDIFile(bytes: recording.fileBytes())
        #expect(file.format == 0)
        let timed = file.timedEvents().compactMap { event -> (Double, MIDIMessage)? in
            if case .message(let m) = event.event { return (event.seconds, m) } else { return nil }
        }
        #expect(timed.count == 3)
        #expect(abs(timed[0].0 - 0.5) < 0.001 && abs(timed[1].0 - 1) < 0.001)
        #expect(timed[0].1 == .noteOn(NoteOn(channel: 0, note: 60, velocity: 100)))
    }

    // Issue 27: a take dropped every sysex (5,630 received, 0 recorded). Whole, split and truncated ones are kept.
    @Test func sysexIsRecordedWithItsPayload() throws {
        var recording = MIDIRecording(sampleRate: 48_000, startFrame: 0)
        let identity = SystemExclusive(data: [0x7E, 0x7F, 0x06, 0x01])
        let gmOn = SystemExclusive(data: [0x7E, 0x7F, 0x09, 0x01])
        let sysexEvent = MonitorEvent(frameTime: 4_800, message: ShortMessage(status: 0xF0), source: .jack, lost: false,
                                      sysexLength: 6, sysexBytesQueued: 6)
        var ring: [UInt8] = [0xF0] + identity.data + [0xF7] + [0xF0] + gmOn.data + [0xF7]
        func take(_ n: Int) -> [UInt8] { defer { ring.removeFirst(min(n, ring.count)) }; return Array(ring.prefix(n)) }
        recording.add(sysexEvent, message: sysexEvent.message(takingSysex: take))
        recording.add(note(9_600, 0x90, 60))
        var gated = sysexEvent
        gated.frameTime = 12_000
        gated.lost = true  // the lifecycle gate dropped it: never received, still taken off the ring
        recording.add(gated, message: gated.message(takingSysex: take))
        #expect(ring.isEmpty)
        let file = try StandardMIDIFile(bytes: recording.fileBytes())
        let sysex = file.timedEvents().compactMap { event -> (Double, SystemExclusive)? in
            if case .sysex(let s) = event.event { (event.seconds, s) } else { nil }
        }
        #expect(sysex.count == 1)
        #expect(sysex.first?.1.data == identity.data && sysex.first?.1.isTerminated == true)
        #expect(abs((sysex.first?.0 ?? 0) - 0.1) < 0.001)
    }

    @Test func wavStreamIsValidWhileWritingAndAfterClose() throws {
        let path = directory.appendingPathComponent("stream.wav").path
        let writer = try WAVStreamWriter(path: path, sampleRate: 44_100)
        let frames = (0..<1000).map { StereoFrame(left: Float($0) / 1000, right: -Float($0) / 1000) }
        try frames.withUnsafeBufferPointer { try writer.append($0) }
        try writer.patchHeader()
        let partial = try WAVFile.read(path)
        #expect(partial.left.count == 1000 && partial.sampleRate == 44_100)
        try frames.withUnsafeBufferPointer { try writer.append($0) }
        try writer.close()
        let whole = try WAVFile.read(path)
        #expect(whole.left.count == 2000)
        #expect(whole.left[999] == 0.999 && whole.right[1999] == -0.999)
        // The header a stopped write leaves is the one `WAVFile.encode` writes.
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(WAVFile.headerSize))
                == Array(WAVFile.encode(left: whole.left, right: whole.right, sampleRate: 44_100).prefix(WAVFile.headerSize)))
    }

    @Test func unwritableTargetsAreNamedWithTheReason() throws {
        let missing = directory.appendingPathComponent("no/such/dir/take.wav").path
        #expect(throws: SystemError.self) { try CaptureController.checkWritable(missing) }
        do {
            try CaptureController.checkWritable(missing)
        } catch {
            #expect(error.description.contains(missing) && error.description.contains("does not exist"), "\(error)")
        }
        #expect(throws: SystemError.self) { try CaptureController.checkWritable("/proc/x.wav") }
        #expect(throws: SystemError.self) { try CaptureController.checkWritable(directory.path) }
        #expect(throws: Never.self) { try CaptureController.checkWritable(directory.appendingPathComponent("ok.mid").path) }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("ok.mid").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "no probe left behind")
    }

    @Test func midiRecordingFallsBackToTheTemporaryDirectory() throws {
        let engine = Engine(options: EngineOptions(), log: { _ in })
        let capture = CaptureController(engine: engine)
        let subdirectory = directory.appendingPathComponent("vanishing")
        try FileManager.default.createDirectory(at: subdirectory, withIntermediateDirectories: true)
        let path = subdirectory.appendingPathComponent("take.mid").path
        try capture.startMIDIRecording(to: path)
        #expect(capture.status().midi?.path == path)
        #expect(throws: SystemError.self) { try capture.startMIDIRecording(to: path) }
        for event in [note(100, 0x90, 64), note(4900, 0x80, 64)] { capture.record(event, message: MIDIMessage(event.message)) }
        #expect(capture.status().midi?.count == 2)
        try FileManager.default.removeItem(at: subdirectory)
        let summary = try #require(try capture.stopMIDIRecording())
        #expect(summary.path != path && summary.requestedPath == path)
        #expect(summary.problem?.contains(path) == true)
        #expect(summary.message.contains(summary.path))
        let file = try StandardMIDIFile(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: summary.path))))
        #expect(file.timedEvents().filter { if case .message(.noteOn) = $0.event { true } else if case .message(.noteOff) = $0.event { true } else { false } }.count == 2)
        try? FileManager.default.removeItem(atPath: summary.path)
        #expect(!capture.isRecordingMIDI)
        #expect(try capture.stopMIDIRecording() == nil)
    }

    @Test func keyRecordingsGetTimestampedNames() {
        let path = CaptureController.timestampedPath(extension: "mid", directory: "/tmp", date: Date(timeIntervalSince1970: 0))
        #expect(path.hasPrefix("/tmp/backbeat-19") && path.count == "/tmp/backbeat-19700101-000000.mid".count, "\(path)")
        #expect(path.hasSuffix(".mid"))
    }
}
