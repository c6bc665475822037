import Foundation
import Testing
import TestSupport

/// A 1 GiB SFZ instrument streamed from disk over JACK (256-frame periods) at `--sample-cache 256`: 64 mono
/// 16-bit samples of 16 MiB, each 500 Hz for its first 16384 frames (the head read at load) and 1000 Hz after
/// (read by the loader when a note starts it), so the recording shows the streamed part played.
extension JACK.JackIntegrationTests {
    static let streamedHead = 16_384
    static let streamedFrames = 8 << 20

    /// Writes the instrument into `folder`: `s0.wav`... (`count` of them) on keys 36 up. One 1000 Hz buffer (48 frames
    /// a cycle, 96000 of them) is written over and over, so 1 GiB takes seconds.
    static func writeStreamedInstrument(in folder: URL, count: Int = 64) throws -> String {
        var text = ""
        let head = (0..<streamedHead).map { Int16(12_000 * sin(2 * Double.pi * 500 * Double($0) / 48_000)) }
        let tail = (0..<96_000).map { Int16(12_000 * sin(2 * Double.pi * 1000 * Double($0) / 48_000)) }
        for i in 0..<count {
            let name = "s\(i).wav"
            let path = folder.appendingPathComponent(name).path
            guard let file = fopen(path, "wb") else { throw HarnessError("cannot write \(path)") }
            defer { fclose(file) }
            var header = [UInt8]()
            func word(_ v: UInt32) { header += withUnsafeBytes(of: v.littleEndian, Array.init) }
            func half(_ v: UInt16) { header += withUnsafeBytes(of: v.littleEndian, Array.init) }
            let bytes = UInt32(streamedFrames * 2)
            header += Array("RIFF".utf8); word(36 + bytes); header += Array("WAVEfmt ".utf8)
            word(16); half(1); half(1); word(48_000); word(96_000); half(2); half(16)
            header += Array("data".utf8); word(bytes)
            _ = header.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            _ = head.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            var left = streamedFrames - streamedHead
            while left > 0 {
                let n = min(left, tail.count)
                _ = tail.withUnsafeBytes { fwrite($0.baseAddress, 2, n, file) }
                left -= n
            }
            text += "<region> sample=\(name) key=\(36 + i) pitch_keycenter=\(36 + i) ampeg_release=0.01\n"
        }
        let instrument = folder.appendingPathComponent("big.sfz").path
        try text.write(toFile: instrument, atomically: true, encoding: .utf8)
        return instrument
    }

    @Test func aOneGibInstrumentStreamsWithoutALateVoice() throws {
        let folder = try makeTemporaryDirectory("backbeat-sfz-stream")
        defer { try? FileManager.default.removeItem(at: folder) }
        let instrument = try Self.writeStreamedInstrument(in: folder)
        let server = try JackTestServer()
        defer { server.stop() }
        #expect(server.period == 256)
        // 16 notes over 16 samples, one a second, 0.8 s each: their rests are 256 MiB, over the cache with the
        // heads, so the second pass evicts as it reads.
        let notes = (0..<16).map { (start: $0 * 48_000, note: 36 + ($0 * 5) % 64, length: 38_400) }
        let sequencer = try startSequencer(server: server, loop: 16 * 48_000, notes: notes)
        defer { sequencer.signal(SIGTERM) }
        let backbeat = try startBackbeat(server: server.name, ["--no-autoconnect", "--connect-midi", "seq:out", "--instrument", instrument,
                                                              "--sample-cache", "256", "--no-reverb", "--no-chorus"])
        defer { backbeat.signal(SIGTERM) }
        let loaded = try #require(backbeat.output.first { $0.contains("streamed from disk") }, "\(backbeat.output)")
        print("streamed instrument: \(loaded)")
        let recording = try record(server: server, seconds: 18, file: "sfz-stream.wav")
        backbeat.signal(SIGTERM)
        _ = try backbeat.waitForExit()
        let summary = try #require(backbeat.output.first { $0.contains("late voices of") }, "\(backbeat.output)")
        print("streamed instrument over JACK: \(summary)")
        #expect(!backbeat.output.contains { $0.contains("were late") || $0.contains("was late") }, "\(backbeat.output)")
        #expect(summary.contains(" 0 late voices of "), "\(summary)")
        // Each note: its head's 500 Hz, then the streamed 1000 Hz.
        let left = recording.channels[0]
        let onsets = AudioAnalysis.onsets(left, threshold: 1e-4, quietFrames: 4000).filter { $0 + 38_000 < left.count }
        #expect(onsets.count >= 14, "onsets \(onsets)")
        for onset in onsets {
            let head = AudioComparison.strongestFrequency(left[(onset + 1000)..<(onset + 15_000)], rate: 48_000, low: 300, high: 1500, resolution: 1)
            let tail = AudioComparison.strongestFrequency(left[(onset + 18_000)..<(onset + 36_000)], rate: 48_000, low: 300, high: 1500, resolution: 1)
            #expect(abs(head.frequency - 500) < 5 && abs(tail.frequency - 1000) < 5,
                    "note at \(onset): head \(head.frequency) Hz, tail \(tail.frequency) Hz")
        }
    }

    @Test func aVoiceWhoseSampleIsNotReadInTimeIsCountedAndSilent() throws {
        let folder = try makeTemporaryDirectory("backbeat-sfz-late")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two samples are enough to be over a 1 MiB cache; the loader is held back 3 s before each read
        // (BACKBEAT_STREAM_DELAY_MS, a test hook), so the note outruns its head.
        let instrument = try Self.writeStreamedInstrument(in: folder, count: 2)
        let server = try JackTestServer()
        defer { server.stop() }
        let sequencer = try startSequencer(server: server, loop: 96_000, notes: [(0, 36, 38_400)])
        defer { sequencer.signal(SIGTERM) }
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", server.name, "--no-autoconnect", "--connect-midi", "seq:out",
                                                                "--instrument", instrument, "--sample-cache", "1", "--no-reverb", "--no-chorus"],
                                          server: server.name, environment: ["BACKBEAT_STREAM_DELAY_MS": "3000"])
        defer { backbeat.signal(SIGTERM) }
        try backbeat.waitForLine(containing: "ready:")
        let recording = try record(server: server, seconds: 3, file: "sfz-late.wav")
        let late = try backbeat.waitForLine(containing: "late: their samples' data was not read from disk in time")
        print("late voice over JACK: \(late)")
        let left = recording.channels[0]
        let onsets = AudioAnalysis.onsets(left, threshold: 1e-4, quietFrames: 4000).filter { $0 + 38_000 < left.count }
        #expect(!onsets.isEmpty)
        for onset in onsets {
            let head = AudioComparison.strongestFrequency(left[(onset + 1000)..<(onset + 15_000)], rate: 48_000, low: 300, high: 1500, resolution: 1)
            #expect(abs(head.frequency - 500) < 5, "note at \(onset): head \(head.frequency) Hz")
            // Ended at its head's end (within a control block and the interpolation's margin), silent after.
            #expect(AudioComparison.rms(left[(onset + Self.streamedHead + 256)..<(onset + 38_000)]) == 0, "note at \(onset)")
        }
    }
}
