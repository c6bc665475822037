import Testing
import MIDI

private func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
private func header(format: UInt8, tracks: UInt8, division: [UInt8]) -> [UInt8] {
    Array("MThd".utf8) + be32(6) + [0, format, 0, tracks] + division
}
private func track(_ events: [UInt8]) -> [UInt8] { Array("MTrk".utf8) + be32(events.count) + events }
private let endOfTrack: [UInt8] = [0x00, 0xFF, 0x2F, 0x00]

private func messages(_ events: [StandardMIDIFile.TimedEvent]) -> [(Double, MIDIMessage)] {
    events.compactMap { e in
        switch e.event {
        case .message(let m): (e.seconds, m)
        case .sysex(let s): (e.seconds, .systemExclusive(s))
        default: nil
        }
    }
}

private func on(_ note: UInt8, _ vel: UInt8, ch: UInt8 = 0) -> MIDIMessage {
    .noteOn(NoteOn(channel: ch, note: note, velocity: vel))
}

@Suite struct StandardMIDIFileTests {
    @Test func format0TempoChangeMidFileAndRunningStatus() throws {
        let bytes = header(format: 0, tracks: 1, division: [0x00, 96]) + track([
            0x00, 0x90, 0x3C, 0x64,  // note on at 0
            0x60, 0x3C, 0x00,  // running status: note on velocity 0 at tick 96
            0x60, 0xFF, 0x51, 0x03, 0x03, 0xD0, 0x90,  // tempo 250000 us at tick 192
            0x60, 0x80, 0x3C, 0x40,  // note off at tick 288
        ] + endOfTrack)
        let file = try StandardMIDIFile(bytes: bytes)
        #expect(file.format == 0)
        #expect(file.division == .ticksPerQuarterNote(96))
        #expect(file.tracks.count == 1)
        let timed = file.timedEvents()
        let m = messages(timed)
        #expect(m.map(\.0) == [0, 0.5, 1.25])
        #expect(m.map(\.1) == [on(60, 100), on(60, 0), .noteOff(NoteOff(channel: 0, note: 60, velocity: 64))])
        let tempo = timed.compactMap { if case .meta(let meta) = $0.event { meta.tempo } else { nil } }
        #expect(tempo == [250_000])
    }

    @Test func format1MergesTracksWithTempoOnTrack0() throws {
        let tempoTrack = track([
            0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20,  // 500000 us
            0x83, 0x60, 0xFF, 0x51, 0x03, 0x0F, 0x42, 0x40,  // tick 480: 1000000 us
        ] + endOfTrack)
        let notes = track([
            0x00, 0xFF, 0x03, 0x04] + Array("Bass".utf8) + [
            0x00, 0x91, 0x30, 0x50,
            0x00, 0xF0, 0x03, 0x7E, 0x01, 0xF7,  // sysex at 0, cancels running status
            0x83, 0x60, 0x91, 0x30, 0x00,  // tick 480
            0x00, 0xF7, 0x01, 0xF8,  // escape: a clock at 480
            0x83, 0x60, 0xB1, 0x07, 0x64,  // tick 960
        ] + endOfTrack)
        let file = try StandardMIDIFile(bytes: header(format: 1, tracks: 2, division: [0x01, 0xE0]) + tempoTrack + notes)
        #expect(file.tracks.count == 2)
        let timed = file.timedEvents()
        let m = messages(timed)
        #expect(m.map(\.0) == [0, 0, 0.5, 0.5, 1.5])
        #expect(m.map(\.1) == [on(48, 80, ch: 1), .systemExclusive(SystemExclusive(data: [0x7E, 0x01])),
                               on(48, 0, ch: 1), .timingClock,
                               .controlChange(ControlChange(channel: 1, controller: 7, value: 100))])
        #expect(timed.first?.track == 0)  // ties: track 0 (tempo) first
        let names = timed.compactMap { if case .meta(let meta) = $0.event { meta.text } else { nil } }
        #expect(names == ["Bass"])
    }

    @Test func tempoOnAnyTrackApplies() throws {
        let first = track([0x00, 0x90, 0x40, 0x40, 0x83, 0x60, 0x40, 0x00, 0x83, 0x60, 0x40, 0x40] + endOfTrack)
        let second = track([0x83, 0x60, 0xFF, 0x51, 0x03, 0x0F, 0x42, 0x40] + endOfTrack)  // 60 BPM at tick 480
        let file = try StandardMIDIFile(bytes: header(format: 1, tracks: 2, division: [0x01, 0xE0]) + first + second)
        #expect(messages(file.timedEvents()).map(\.0) == [0, 0.5, 1.5])
    }

    @Test func smpteDivision() throws {
        // 25 fps (0xE7 = -25), 40 ticks per frame: 1000 ticks per second.
        let bytes = header(format: 0, tracks: 1, division: [0xE7, 40]) + track([0x83, 0x74, 0x90, 0x3C, 0x64] + endOfTrack)
        let file = try StandardMIDIFile(bytes: bytes)
        #expect(file.division == .smpte(framesPerSecond: 25, ticksPerFrame: 40))
        #expect(messages(file.timedEvents()).map(\.0) == [0.5])
    }

    @Test func unknownChunksAreSkipped() throws {
        let bytes = header(format: 0, tracks: 1, division: [0, 96]) + Array("XYZW".utf8) + be32(3) + [1, 2, 3]
            + track([0x00, 0xC0, 0x05] + endOfTrack)
        #expect(messages(try StandardMIDIFile(bytes: bytes).timedEvents()).map(\.1)
                == [.programChange(ProgramChange(channel: 0, program: 5))])
    }

    static let good = header(format: 0, tracks: 1, division: [0, 96])

    @Test(arguments: [
        // (file, offset, words in the message)
        (Array("MTh".utf8), 3, "MThd"),
        (Array("RIFF".utf8) + be32(6), 0, "MThd"),
        (Array("MThd".utf8) + be32(6) + [0, 0, 0], 11, "header bytes"),  // truncated header
        (Array("MThd".utf8) + be32(2) + [0, 0], 4, "header length"),
        (header(format: 3, tracks: 1, division: [0, 96]), 8, "format 0, 1 or 2"),
        (header(format: 0, tracks: 1, division: [0, 0]), 12, "ticks per quarter"),
        (good, 14, "track chunk 1 of 1"),  // missing track
        (good + Array("MTrk".utf8) + be32(100) + [0, 0x90, 1, 2], 18, "chunk length"),  // bad chunk length
        (good + track([0x81, 0x81, 0x81, 0x81, 0x00, 0x90, 1, 2]), 22, "variable-length"),  // bad VLQ
        (good + track([0x81, 0x81]), 24, "variable-length"),  // VLQ cut by the chunk end
        (good + track([0x00, 0x3C, 0x40]), 23, "no running status"),
        (good + track([0x00, 0x90, 0x3C, 0x90]), 25, "data byte"),
        (good + track([0x00, 0x90, 0x3C]), 25, "data byte"),  // message cut by the chunk end
        (good + track([0x00, 0xFF, 0x01, 0x05, 0x41]), 25, "meta event length"),
        (good + track([0x00, 0xF0, 0x7F, 0x01]), 24, "sysex event length"),
        (good + track([0x00, 0xF8]), 23, "FF (meta)"),
        (good + track([0x00, 0xFF]), 24, "meta event type"),
    ])
    func corruptFilesNameTheOffset(_ bytes: [UInt8], _ offset: Int, _ words: String) {
        do {
            _ = try StandardMIDIFile(bytes: bytes)
            Issue.record("no error")
        } catch {
            #expect(error.offset == offset)
            #expect(error.description.contains("offset \(offset)"))
            #expect(error.description.contains(words), "\(error.description)")
        }
    }

    @Test func writeFormat0ThenReadBack() throws {
        let events: [(seconds: Double, message: MIDIMessage)] = [
            (0, .programChange(ProgramChange(channel: 0, program: 40))),
            (0, on(60, 100)),
            (0.5, on(64, 90)),
            (0.5, .systemExclusive(SystemExclusive(data: [0x7E, 0x7F, 0x09, 0x01]))),
            (1.25, on(60, 0)),
            (1.25, .timingClock),
            (1.0, .noteOff(NoteOff(channel: 0, note: 64, velocity: 0))),  // out of order on purpose
            (2, .pitchBend(PitchBend(channel: 3, bend: -100))),
            (2, .songPosition(SongPosition(position: 300))),
        ]
        let bytes = StandardMIDIFile.format0(events, ticksPerQuarterNote: 480)
        let file = try StandardMIDIFile(bytes: bytes)
        #expect(file.format == 0)
        #expect(file.division == .ticksPerQuarterNote(480))
        let back = messages(file.timedEvents())
        let expected = events.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }.map(\.element)
        #expect(back.map(\.0) == expected.map(\.seconds))
        #expect(back.map(\.1) == expected.map(\.message))
        // Running status: the two note-ons at 0 and 0.5 share a status byte.
        #expect(bytes.count < 80)
    }

    @Test func writerAtAnotherTempoRoundsToTicks() throws {
        let bytes = StandardMIDIFile.format0([(1.0, on(1, 1)), (-5, on(2, 2)), (.nan, on(3, 3))],
                                             ticksPerQuarterNote: 96, microsecondsPerQuarterNote: 400_000)
        let back = messages(try StandardMIDIFile(bytes: bytes).timedEvents())
        #expect(back.map(\.1) == [on(2, 2), on(3, 3), on(1, 1)])
        #expect(abs(back[2].0 - 1.0) < 1e-9)
    }

    @Test func randomCorruptionNeverTraps() {
        let valid = StandardMIDIFile.format0([(0, on(60, 100)), (0.5, .systemExclusive(SystemExclusive(data: [1, 2]))),
                                              (1, on(60, 0)), (1, .start)])
        var g = SeededGenerator(seed: 99)
        var errors = 0
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &g) {
                bytes[Int.random(in: 0..<bytes.count, using: &g)] = UInt8.random(in: 0...255, using: &g)
            }
            bytes.removeLast(Int.random(in: 0...3, using: &g))
            do { _ = try StandardMIDIFile(bytes: bytes).timedEvents() } catch { errors += 1 }
        }
        #expect(errors > 0)
    }
}
