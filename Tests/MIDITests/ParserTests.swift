import Testing
@testable import MIDI

private func decode(_ bytes: [UInt8], limit: Int = MIDIParser.defaultSysexLimit) -> ([MIDIMessage], Int) {
    let result = MIDIParser.decode(bytes, sysexLimit: limit)
    return (result.messages, result.errors)
}

private func on(_ ch: UInt8, _ note: UInt8, _ vel: UInt8) -> MIDIMessage {
    .noteOn(NoteOn(channel: ch, note: note, velocity: vel))
}
private func cc(_ ch: UInt8, _ c: UInt8, _ v: UInt8) -> MIDIMessage {
    .controlChange(ControlChange(channel: ch, controller: c, value: v))
}
private func sysex(_ d: [UInt8], terminated: Bool = true, truncated: Bool = false) -> MIDIMessage {
    .systemExclusive(SystemExclusive(data: d, isTerminated: terminated, isTruncated: truncated))
}

@Suite struct ParserTests {
    @Test func everyChannelMessage() {
        let (m, e) = decode([0x80, 60, 64, 0x91, 61, 100, 0xA2, 62, 5, 0xB3, 7, 100, 0xC4, 5, 0xD5, 9, 0xE6, 0x00, 0x40])
        #expect(e == 0)
        #expect(m == [
            .noteOff(NoteOff(channel: 0, note: 60, velocity: 64)), on(1, 61, 100),
            .polyPressure(PolyPressure(channel: 2, note: 62, pressure: 5)), cc(3, 7, 100),
            .programChange(ProgramChange(channel: 4, program: 5)),
            .channelPressure(ChannelPressure(channel: 5, pressure: 9)),
            .pitchBend(PitchBend(channel: 6, value: 8192)),
        ])
        if case .pitchBend(let b) = m.last { #expect(b.bend == 0) }
    }

    @Test func systemCommonAndRealTime() {
        let (m, e) = decode([0xF1, 0x35, 0xF2, 0x01, 0x02, 0xF3, 7, 0xF6, 0xF8, 0xFA, 0xFB, 0xFC, 0xFE, 0xFF])
        #expect(e == 0)
        #expect(m == [
            .mtcQuarterFrame(MTCQuarterFrame(dataByte: 0x35)), .songPosition(SongPosition(position: 0x101)),
            .songSelect(SongSelect(song: 7)), .tuneRequest, .timingClock, .start, .continue, .stop,
            .activeSensing, .systemReset,
        ])
    }

    @Test func noteOnVelocityZeroStaysNoteOn() {
        #expect(decode([0x90, 60, 0]).0 == [on(0, 60, 0)])
    }

    @Test func runningStatusPersists() {
        let (m, e) = decode([0x90, 60, 100, 62, 100, 60, 0, 0xC0, 1, 2, 3])
        #expect(e == 0)
        #expect(m == [on(0, 60, 100), on(0, 62, 100), on(0, 60, 0),
                      .programChange(ProgramChange(channel: 0, program: 1)),
                      .programChange(ProgramChange(channel: 0, program: 2)),
                      .programChange(ProgramChange(channel: 0, program: 3))])
    }

    @Test(arguments: [[UInt8(0xF1), 0x00], [0xF2, 0, 0], [0xF3, 0], [0xF6], [0xF0, 0xF7]])
    func systemCommonAndSysexCancelRunningStatus(_ middle: [UInt8]) {
        let (m, e) = decode([0x90, 60, 100] + middle + [61, 100])
        #expect(m.count == 2)
        #expect(e == 2)  // 61 and 100 have no status to belong to
    }

    @Test func realTimeDoesNotTouchRunningStatus() {
        let (m, e) = decode([0x90, 60, 100, 0xF8, 61, 0xFE, 100])
        #expect(e == 0)
        #expect(m == [on(0, 60, 100), .timingClock, .activeSensing, on(0, 61, 100)])
    }

    @Test func realTimeBetweenDataBytes() {
        let (m, e) = decode([0xB0, 0xF8, 7, 0xFA, 100, 0xF2, 0xFC, 1, 0xFF, 2])
        #expect(e == 0)
        #expect(m == [.timingClock, .start, cc(0, 7, 100), .stop, .systemReset, .songPosition(SongPosition(position: 0x101))])
    }

    @Test func realTimeInsideSysex() {
        let (m, e) = decode([0xF0, 0x7E, 0xF8, 0x01, 0xFE, 0x02, 0xF7])
        #expect(e == 0)
        #expect(m == [.timingClock, .activeSensing, sysex([0x7E, 1, 2])])
    }

    @Test func sysexEndedByStatusIsUnterminated() {
        let (m, e) = decode([0xF0, 1, 2, 0x90, 60, 100])
        #expect(e == 1)
        #expect(m == [sysex([1, 2], terminated: false), on(0, 60, 100)])
    }

    @Test func sysexEndedBySystemCommon() {
        let (m, e) = decode([0xF0, 1, 0xF6, 0xF0, 2, 0xF3, 4])
        #expect(e == 2)
        #expect(m == [sysex([1], terminated: false), .tuneRequest, sysex([2], terminated: false),
                      .songSelect(SongSelect(song: 4))])
    }

    @Test func sysexEndedByF0StartsNewSysex() {
        let (m, e) = decode([0xF0, 1, 0xF0, 2, 0xF7])
        #expect(e == 1)
        #expect(m == [sysex([1], terminated: false), sysex([2])])
    }

    @Test func sysexEndedByUndefinedStatus() {
        let (m, e) = decode([0xF0, 1, 0xF4, 0xF7])
        #expect(e == 3)  // unterminated sysex, F4, stray F7
        #expect(m == [sysex([1], terminated: false)])
    }

    @Test func undefinedRealTimeInsideSysexIsSkipped() {
        let (m, e) = decode([0xF0, 1, 0xF9, 2, 0xFD, 0xF7])
        #expect(e == 2)
        #expect(m == [sysex([1, 2])])
    }

    @Test func statusBeforeCompleteDiscards() {
        let (m, e) = decode([0x90, 60, 0x80, 60, 0])
        #expect(e == 1)
        #expect(m == [.noteOff(NoteOff(channel: 0, note: 60, velocity: 0))])
        let (m2, e2) = decode([0x90, 0xB0, 1, 2])  // status with no data at all
        #expect(e2 == 1)
        #expect(m2 == [cc(0, 1, 2)])
        let (m3, e3) = decode([0xF2, 1, 0x90, 1, 2])
        #expect(e3 == 1)
        #expect(m3 == [on(0, 1, 2)])
    }

    @Test(arguments: [UInt8(0xF4), 0xF5, 0xF9, 0xFD])
    func undefinedStatusIsSkipped(_ undefined: UInt8) {
        let (m, e) = decode([0x90, 60, 100, undefined, 0xF8])
        #expect(e == 1)
        #expect(m == [on(0, 60, 100), .timingClock])
    }

    @Test(arguments: [UInt8(0xF4), 0xF5])
    func f4F5CancelRunningStatus(_ undefined: UInt8) {
        let (m, e) = decode([0x90, 60, 100, undefined, 61, 100])
        #expect(e == 3)
        #expect(m == [on(0, 60, 100)])
    }

    @Test(arguments: [UInt8(0xF9), 0xFD])
    func f9FDKeepRunningStatusAndMessage(_ undefined: UInt8) {
        let (m, e) = decode([0x90, 60, undefined, 100, 61, 100])
        #expect(e == 1)
        #expect(m == [on(0, 60, 100), on(0, 61, 100)])
    }

    @Test func strayEOX() {
        let (m, e) = decode([0xF7, 0x90, 60, 100, 0xF7, 61, 100])
        #expect(e == 2)  // the running status survives a stray F7
        #expect(m == [on(0, 60, 100), on(0, 61, 100)])
        let (m2, e2) = decode([0x90, 60, 0xF7, 61, 100])
        #expect(e2 == 2)  // incomplete note-on discarded, and the F7 itself
        #expect(m2 == [on(0, 61, 100)])
    }

    @Test func dataWithoutStatus() {
        let (m, e) = decode([1, 2, 3, 0xF8, 4])
        #expect(e == 4)
        #expect(m == [.timingClock])
    }

    @Test func incompleteAtEndIsOneError() {
        #expect(decode([0x90, 60]).1 == 1)
        #expect(decode([0x90]).1 == 1)
        #expect(decode([0xF2, 1]).1 == 1)
        #expect(decode([0x90, 60, 100, 61]).1 == 1)
        #expect(decode([0x90, 60, 100]).1 == 0)  // running status alone is not incomplete
        let (m, e) = decode([0xF0, 1, 2])
        #expect(e == 1)
        #expect(m == [sysex([1, 2], terminated: false)])
    }

    @Test func sysexLimitTruncates() {
        let payload = (0..<10).map { UInt8($0) }
        let (m, e) = decode([0xF0] + payload + [0xF7], limit: 4)
        #expect(e == 0)
        #expect(m == [sysex([0, 1, 2, 3], truncated: true)])
        let (m2, _) = decode([0xF0] + payload + [0xF7], limit: 10)
        #expect(m2 == [sysex(payload)])
        #expect(MIDIParser().sysexLimit == 65536)
    }

    @Test func defaultLimitIs64KiB() {
        let payload = [UInt8](repeating: 0x55, count: 65537)
        let (m, _) = decode([0xF0] + payload + [0xF7])
        guard case .systemExclusive(let s) = m.first else { Issue.record("no sysex"); return }
        #expect(s.data.count == 65536)
        #expect(s.isTruncated)
    }

    /// A stream exercising every rule: the same messages and errors whatever the chunking.
    static let mixed: [UInt8] = [
        0x90, 60, 0xF8, 100, 61, 90, 0xF0, 1, 0xFE, 2, 0xF7, 5, 0xB1, 7, 0xF9, 1, 8, 0xF0, 3, 0x80, 1, 2,
        0xF4, 3, 0xF2, 1, 0xFA, 2, 0xC0, 0xF7, 0xE0, 0, 64, 1, 2, 0xF1, 0x12, 0xF6, 0xF0, 9,
    ]

    @Test func chunkingIndependence() {
        let whole = MIDIParser.decode(Self.mixed)
        #expect(whole.errors == 9)
        for split in 0...Self.mixed.count {
            var parser = MIDIParser()
            var messages = parser.parse(Self.mixed[..<split])
            messages += parser.parse(Self.mixed[split...])
            messages += parser.finish()
            #expect(messages == whole.messages, "split at \(split)")
            #expect(parser.errorCount == whole.errors)
        }
        var parser = MIDIParser()
        var messages: [MIDIMessage] = []
        for byte in Self.mixed { messages += parser.parse([byte]) }
        messages += parser.finish()
        #expect(messages == whole.messages)
    }

    /// The whole-message fast path and the byte-at-a-time path agree on arbitrary bytes, valid or not.
    @Test func fastPathMatchesByteByByte() {
        var g = SeededGenerator(seed: 2024)
        for round in 0..<300 {
            let count = Int.random(in: 0...200, using: &g)
            let bytes: [UInt8] = (0..<count).map { _ in
                // Mostly data bytes and channel statuses, some system bytes.
                switch Int.random(in: 0..<10, using: &g) {
                case 0..<6: UInt8.random(in: 0...0x7F, using: &g)
                case 6..<9: UInt8.random(in: 0x80...0xEF, using: &g)
                default: UInt8.random(in: 0xF0...0xFF, using: &g)
                }
            }
            let whole = MIDIParser.decode(bytes, sysexLimit: 16)
            var parser = MIDIParser(sysexLimit: 16)
            var messages: [MIDIMessage] = []
            for byte in bytes { messages += parser.parse([byte]) }
            messages += parser.finish()
            #expect(messages == whole.messages, "round \(round)")
            #expect(parser.errorCount == whole.errors, "round \(round)")
        }
    }

    @Test func fixedBufferPath() {
        let stream: [UInt8] = [0x90, 60, 100, 61, 100, 0xF0, 1, 0xF7, 62, 100, 0xF8, 63, 100]
        var parser = MIDIParser()
        var out = [ShortMessage](repeating: ShortMessage(status: 0), count: 2)
        var all: [ShortMessage] = []
        // The sysex callback is checked as real-time code: it may only write to memory prepared before.
        let sysexBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 16)
        defer { sysexBytes.deallocate() }
        var sysexCount = 0
        stream.withUnsafeBufferPointer { input in
            var offset = 0
            while offset < input.count {
                let rest = UnsafeBufferPointer(rebasing: input[offset...])
                let (consumed, written) = out.withUnsafeMutableBufferPointer { buffer in
                    parser.parse(rest, into: buffer) { view in
                        var i = 0
                        while i < view.bytes.count && sysexCount < 16 {
                            sysexBytes[sysexCount] = view.bytes[i]
                            sysexCount += 1
                            i += 1
                        }
                    }
                }
                all += out[..<written]
                offset += consumed
            }
        }
        #expect(all == [ShortMessage(status: 0x90, data1: 60, data2: 100), ShortMessage(status: 0x90, data1: 61, data2: 100),
                        ShortMessage(status: 0xF8)])
        #expect(Array(sysexBytes[..<sysexCount]) == [1])
        #expect(parser.errorCount == 4)  // 62 100 and 63 100: the sysex cancelled running status
    }

    @Test func closurePathDeliversShortMessages() {
        var parser = MIDIParser()
        let shorts = UnsafeMutableBufferPointer<ShortMessage>.allocate(capacity: 8)
        defer { shorts.deallocate() }
        var count = 0
        let sysexMarker = ShortMessage(status: 0xF0)
        var sysexLength = 0
        [0xB0, 7, 100, 0xF0, 1, 2, 0xF7, 0xB0, 10, 64].withUnsafeBufferPointer { bytes in
            parser.parse(bytes) { event in
                switch event {
                case .message(let m): shorts[count] = m
                case .sysex(let s):
                    shorts[count] = sysexMarker
                    sysexLength = s.bytes.count
                }
                count += 1
            }
        }
        #expect(sysexLength == 2)
        #expect(Array(shorts[..<count]) == [ShortMessage(status: 0xB0, data1: 7, data2: 100), ShortMessage(status: 0xF0),
                                            ShortMessage(status: 0xB0, data1: 10, data2: 64)])
    }

    @Test func shortMessageConversions() {
        let m = MIDIMessage.pitchBend(PitchBend(channel: 3, bend: -8192))
        #expect(m.shortMessage == ShortMessage(status: 0xE3, data1: 0, data2: 0))
        #expect(MIDIMessage(ShortMessage(status: 0xE3, data1: 0x7F, data2: 0x7F)) == .pitchBend(PitchBend(channel: 3, bend: 8191)))
        #expect(MIDIMessage(ShortMessage(status: 0xF0)) == nil)
        #expect(MIDIMessage(ShortMessage(status: 0xF4)) == nil)
        #expect(MIDIMessage(ShortMessage(status: 0x40)) == nil)
        #expect(ShortMessage(status: 0x95, data1: 1, data2: 2).message == on(5, 1, 2))
        #expect(MIDIMessage.systemExclusive(SystemExclusive(data: [])).shortMessage == nil)
    }

    @Test func channelModeMessages() {
        #expect(ControlChange(channel: 0, controller: 123, value: 0).mode == .allNotesOff)
        #expect(ControlChange(channel: 0, controller: 122, value: 127).mode == .localControl(on: true))
        #expect(ControlChange(channel: 0, controller: 126, value: 4).mode == .monoOn(channels: 4))
        #expect(ControlChange(channel: 0, controller: 7, value: 0).mode == nil)
        #expect(ChannelMode.polyOn.controlChange(channel: 2) == ControlChange(channel: 2, controller: 127, value: 0))
    }
}
