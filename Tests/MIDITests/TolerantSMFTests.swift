// The tolerant reader (`StandardMIDIFile.read(_:strict:)`): files with the faults players meet are read as far
// as they go, every kind of fault counted with its first byte offset; strict mode keeps the errors.
import Testing
import MIDI

private func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
private func header(format: UInt8, tracks: UInt8, tpq: UInt8 = 96) -> [UInt8] {
    Array("MThd".utf8) + be32(6) + [0, format, 0, tracks, 0, tpq]
}
private func track(_ events: [UInt8]) -> [UInt8] { Array("MTrk".utf8) + be32(events.count) + events }
private let endOfTrack: [UInt8] = [0x00, 0xFF, 0x2F, 0x00]

/// The channel messages of a file, merged, with their times.
private func channelMessages(_ file: StandardMIDIFile) -> [(Double, MIDIMessage)] {
    file.timedEvents().compactMap { e in
        if case .message(let m) = e.event, m.channel != nil { (e.seconds, m) } else { nil }
    }
}

private func notes(_ file: StandardMIDIFile) -> [UInt8] {
    channelMessages(file).compactMap { if case .noteOn(let n) = $0.1 { n.note } else { nil } }
}

@Suite struct TolerantSMFTests {
    /// F1 and F3 take one data byte, F2 two, the others none: all skipped, running status kept.
    @Test func straySystemBytesAreSkippedWithTheirDataAndCounted() throws {
        let events: [UInt8] = [0x00, 0x90, 60, 100,
                               0x00, 0xF2, 0x10, 0x20,  // song position, two data bytes (F2 at offset 27)
                               0x00, 0xF8,              // clock, none
                               0x00, 61, 100,           // running status still 90
                               0x00, 0xF1, 0x05,        // quarter frame, one
                               0x00, 0xF3, 0x02,        // song select, one
                               0x00, 0xFE,              // active sensing
                               0x00, 0x90, 62, 100] + endOfTrack
        let bytes = header(format: 0, tracks: 1) + track(events)
        let (file, warnings) = try StandardMIDIFile.read(bytes, strict: false)
        #expect(notes(file) == [60, 61, 62])
        #expect(warnings.count == 1)
        let stray = try #require(warnings.first)
        #expect(stray.kind == .strayStatus && stray.count == 5 && stray.firstOffset == 27, "\(stray)")
        #expect(stray.description.contains("5 times") && stray.description.contains("byte offset 27"))
        // Strict: the first stray byte is the error, at its offset.
        #expect(throws: SMFError.self) { try StandardMIDIFile.read(bytes, strict: true) }
        do { _ = try StandardMIDIFile(bytes: bytes) } catch { #expect(error.offset == 27) }
    }

    // Issue 36: `smf --strict` accepted a file with one byte after its last chunk.
    @Test func bytesAfterTheLastChunkAreAFaultButAWholeChunkIsSkipped() throws {
        let file = header(format: 0, tracks: 1) + track([0x00, 0x90, 60, 100] + endOfTrack)
        for extra: [UInt8] in [[0x00], [0x4D, 0x54, 0x72], Array("XFIH".utf8) + be32(100) + [1, 2]] {
            let bytes = file + extra
            do {
                _ = try StandardMIDIFile.read(bytes, strict: true)
                Issue.record("strict read accepted \(extra.count) trailing bytes")
            } catch {
                #expect(error.offset == file.count, "\(error)")
                #expect(error.description.contains("the end of the file after the last chunk, found \(extra.count) more byte"), "\(error)")
            }
            let (read, warnings) = try StandardMIDIFile.read(bytes, strict: false)
            #expect(notes(read) == [60])
            #expect(warnings.map(\.kind) == [.trailingBytes])
            #expect(warnings.first?.firstOffset == file.count)
        }
        // A whole chunk of another type after the tracks is skipped, as the specification asks.
        let alien = file + Array("XFIH".utf8) + be32(2) + [1, 2]
        let (read, warnings) = try StandardMIDIFile.read(alien, strict: true)
        #expect(notes(read) == [60] && warnings.isEmpty)
        let one = try StandardMIDIFile.read(file + [0xFF], strict: false).warnings.first
        #expect(one?.description.contains("found 1 more byte (FF)") == true, "\(String(describing: one))")
    }

    @Test func runningStatusContinuesAfterMetaAndSysex() throws {
        let events: [UInt8] = [0x00, 0x90, 60, 100,
                               0x00, 0xFF, 0x01, 0x01, 0x41,   // a text event
                               0x00, 61, 100,                  // data bytes: running status 90 continued
                               0x00, 0xF0, 0x03, 0x7E, 0x7F, 0xF7,
                               0x00, 62, 100] + endOfTrack
        let bytes = header(format: 0, tracks: 1) + track(events)
        let (file, warnings) = try StandardMIDIFile.read(bytes, strict: false)
        #expect(notes(file) == [60, 61, 62])
        #expect(warnings.map(\.kind) == [.runningStatusAfterMetaOrSysex])
        #expect(warnings.first?.count == 2)
        #expect(warnings.first?.firstOffset == 32)
        #expect(throws: SMFError.self) { try StandardMIDIFile.read(bytes, strict: true) }
    }

    @Test func aChunkLongerThanTheFilePlaysWhatIsThere() throws {
        let events: [UInt8] = [0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0]
        let bytes = header(format: 0, tracks: 1) + Array("MTrk".utf8) + be32(1000) + events
        let (file, warnings) = try StandardMIDIFile.read(bytes, strict: false)
        #expect(channelMessages(file).count == 2)
        #expect(warnings.map(\.kind) == [.chunkOverrun])
        #expect(warnings.first?.firstOffset == 18)
    }

    @Test func dataEndingMidEventKeepsTheEventsBefore() throws {
        // A note-on cut after its key, then a second track missing altogether.
        let bytes = header(format: 1, tracks: 2) + track([0x00, 0x90, 60, 100, 0x10, 0x90, 62])
        let (file, warnings) = try StandardMIDIFile.read(bytes, strict: false)
        #expect(notes(file) == [60])
        #expect(warnings.map(\.kind) == [.missingTracks, .truncatedEvent])
        #expect(warnings.first { $0.kind == .truncatedEvent }?.firstOffset == 29)
    }

    @Test func aMessageInterruptedByAStatusIsDroppedAndTheStatusRead() throws {
        let bytes = header(format: 0, tracks: 1) + track([0x00, 0x90, 60, 0x90, 61, 100] + endOfTrack)
        let (file, warnings) = try StandardMIDIFile.read(bytes, strict: false)
        #expect(notes(file) == [61])
        #expect(warnings.map(\.kind) == [.interruptedMessage])
    }

    @Test func aZeroTempoIsIgnored() throws {
        let bytes = header(format: 0, tracks: 1) + track([0x00, 0xFF, 0x51, 0x03, 0, 0, 0, 0x60, 0x90, 60, 100] + endOfTrack)
        let (file, warnings) = try StandardMIDIFile.read(bytes, strict: false)
        #expect(warnings.map(\.kind) == [.zeroTempo])
        #expect(abs((channelMessages(file).first?.0 ?? 0) - 0.5) < 1e-9, "96 ticks at the default 120 BPM")
    }

    @Test func onlyAFileWithoutMThdIsRefused() throws {
        #expect(throws: SMFError.self) { try StandardMIDIFile.read(Array("RIFF....".utf8), strict: false) }
        // A header cut short, a bad format and division: defaults, one warning.
        let (file, warnings) = try StandardMIDIFile.read(Array("MThd".utf8) + be32(6) + [0, 9, 0], strict: false)
        #expect(file.tracks.isEmpty)
        #expect(warnings.first?.kind == .header)
    }

    /// Every prefix of a faulty file reads tolerantly without trapping, the events bounded by its bytes.
    @Test func everyPrefixReadsTolerantly() throws {
        let events: [UInt8] = [0x00, 0x90, 60, 100, 0x00, 0xF2, 1, 2, 0x00, 0xFF, 0x01, 0x02, 0x41, 0x42,
                               0x00, 61, 0, 0x00, 0xF0, 0x02, 0x7E, 0xF7, 0x83, 0x60, 0x80, 60, 0] + endOfTrack
        let bytes = header(format: 1, tracks: 3) + track(events) + track(events)
        for n in 4...bytes.count {
            let (file, _) = try StandardMIDIFile.read(Array(bytes.prefix(n)), strict: false)
            #expect(file.tracks.reduce(0) { $0 + $1.count } <= n)
        }
    }

    @Test func format2TracksFollowOneAnother() throws {
        // Two sequences of one second each at 96 ticks per quarter, 120 BPM; the second at 60 BPM.
        let first = track([0x00, 0x90, 60, 100, 0x81, 0x40, 0x80, 60, 0] + endOfTrack)  // 192 ticks = 1 s
        let second = track([0x00, 0xFF, 0x51, 0x03, 0x0F, 0x42, 0x40, 0x00, 0x90, 62, 100, 0x60, 0x80, 62, 0] + endOfTrack)
        let (file, warnings) = try StandardMIDIFile.read(header(format: 2, tracks: 2) + first + second, strict: true)
        #expect(warnings.isEmpty)
        let times = channelMessages(file).map(\.0)
        #expect(times.count == 4)
        #expect(abs(times[2] - 1) < 1e-9 && abs(times[3] - 2) < 1e-9, "\(times)")
        #expect(abs(file.duration - 2) < 1e-9)
    }

    @Test func endOfTrackSetsTheDuration() throws {
        // 5 s of silence: End-of-Track at 960 ticks of 96 per quarter at 120 BPM.
        let bytes = header(format: 0, tracks: 1) + track([0x87, 0x40, 0xFF, 0x2F, 0x00])
        let file = try StandardMIDIFile(bytes: bytes)
        #expect(abs(file.duration - 5) < 1e-9)
    }
}
