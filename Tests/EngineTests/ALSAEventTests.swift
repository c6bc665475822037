import CALSA
@testable import Engine
import MIDI
import Testing

/// Sequencer events built in memory, as `snd_seq_event_input` hands them over, turned into Backbeat's
/// messages (no /dev/snd/seq needed).
@Suite struct ALSAEventTests {
    static func event(_ type: snd_seq_event_type, client: UInt8 = 20, port: UInt8 = 0,
                      _ fill: (inout snd_seq_event_t) -> Void = { _ in }) -> snd_seq_event_t {
        var event = snd_seq_event_t()
        event.type = snd_seq_event_type_t(type.rawValue)
        event.source = snd_seq_addr_t(client: client, port: port)
        fill(&event)
        return event
    }

    static func note(_ type: snd_seq_event_type, channel: UInt8, note: UInt8, velocity: UInt8) -> snd_seq_event_t {
        event(type) { $0.data.note.channel = channel; $0.data.note.note = note; $0.data.note.velocity = velocity }
    }

    static func control(_ type: snd_seq_event_type, channel: UInt8 = 0, param: UInt32 = 0, value: Int32) -> snd_seq_event_t {
        event(type) { $0.data.control.channel = channel; $0.data.control.param = param; $0.data.control.value = value }
    }

    static func decode(_ events: [snd_seq_event_t], decoder: inout ALSAEventDecoder) -> [ALSAInput] {
        var out: [ALSAInput] = []
        for event in events { decoder.decode(event) { out.append($0) } }
        return out
    }

    static func decode(_ events: [snd_seq_event_t]) -> [ALSAInput] {
        var decoder = ALSAEventDecoder()
        return decode(events, decoder: &decoder)
    }

    static func short(_ status: UInt8, _ d1: UInt8 = 0, _ d2: UInt8 = 0) -> ALSAInput {
        .message(ShortMessage(status: status, data1: d1, data2: d2))
    }

    @Test func channelMessages() {
        let events = [
            Self.note(SND_SEQ_EVENT_NOTEON, channel: 3, note: 60, velocity: 100),
            Self.note(SND_SEQ_EVENT_NOTEON, channel: 3, note: 60, velocity: 0),
            Self.note(SND_SEQ_EVENT_NOTEOFF, channel: 15, note: 61, velocity: 64),
            Self.note(SND_SEQ_EVENT_KEYPRESS, channel: 1, note: 62, velocity: 5),
            Self.control(SND_SEQ_EVENT_CONTROLLER, channel: 2, param: 7, value: 99),
            Self.control(SND_SEQ_EVENT_PGMCHANGE, channel: 4, value: 12),
            Self.control(SND_SEQ_EVENT_CHANPRESS, channel: 5, value: 77),
            Self.control(SND_SEQ_EVENT_PITCHBEND, channel: 6, value: -8192),
            Self.control(SND_SEQ_EVENT_PITCHBEND, channel: 6, value: 0),
            Self.control(SND_SEQ_EVENT_PITCHBEND, channel: 6, value: 8191),
        ]
        #expect(Self.decode(events) == [
            Self.short(0x93, 60, 100), Self.short(0x93, 60, 0), Self.short(0x8F, 61, 64), Self.short(0xA1, 62, 5),
            Self.short(0xB2, 7, 99), Self.short(0xC4, 12), Self.short(0xD5, 77),
            Self.short(0xE6, 0, 0), Self.short(0xE6, 0, 0x40), Self.short(0xE6, 0x7F, 0x7F),
        ])
    }

    @Test func fourteenBitControllersAndParameterNumbers() {
        let events = [
            Self.control(SND_SEQ_EVENT_CONTROL14, channel: 0, param: 1, value: 0x1234),
            Self.control(SND_SEQ_EVENT_CONTROL14, channel: 0, param: 64, value: 127),
            Self.control(SND_SEQ_EVENT_REGPARAM, channel: 1, param: 0, value: 2 << 7),
            Self.control(SND_SEQ_EVENT_NONREGPARAM, channel: 2, param: (3 << 7) | 4, value: (5 << 7) | 6),
        ]
        #expect(Self.decode(events) == [
            Self.short(0xB0, 1, 0x24), Self.short(0xB0, 33, 0x34), Self.short(0xB0, 64, 127),
            Self.short(0xB1, 101, 0), Self.short(0xB1, 100, 0), Self.short(0xB1, 6, 2), Self.short(0xB1, 38, 0),
            Self.short(0xB2, 99, 3), Self.short(0xB2, 98, 4), Self.short(0xB2, 6, 5), Self.short(0xB2, 38, 6),
        ])
    }

    @Test func systemCommonAndRealTime() {
        let events = [
            Self.control(SND_SEQ_EVENT_QFRAME, value: 0x35),
            Self.control(SND_SEQ_EVENT_SONGPOS, value: 0x2101),
            Self.control(SND_SEQ_EVENT_SONGSEL, value: 9),
            Self.event(SND_SEQ_EVENT_TUNE_REQUEST), Self.event(SND_SEQ_EVENT_CLOCK), Self.event(SND_SEQ_EVENT_START),
            Self.event(SND_SEQ_EVENT_CONTINUE), Self.event(SND_SEQ_EVENT_STOP), Self.event(SND_SEQ_EVENT_SENSING),
            Self.event(SND_SEQ_EVENT_RESET),
            // Not MIDI 1.0: ignored.
            Self.note(SND_SEQ_EVENT_NOTE, channel: 0, note: 60, velocity: 100),
            Self.event(SND_SEQ_EVENT_TEMPO), Self.event(SND_SEQ_EVENT_ECHO),
        ]
        #expect(Self.decode(events) == [
            Self.short(0xF1, 0x35), Self.short(0xF2, 0x01, 0x42), Self.short(0xF3, 9), Self.short(0xF6),
            Self.short(0xF8), Self.short(0xFA), Self.short(0xFB), Self.short(0xFC), Self.short(0xFE), Self.short(0xFF),
        ])
    }

    static func sysex(_ bytes: [UInt8], client: UInt8 = 20, into storage: inout [[UInt8]]) -> snd_seq_event_t {
        storage.append(bytes)  // the event points into it; kept alive by the caller
        let index = storage.count - 1
        return storage[index].withUnsafeMutableBufferPointer { buffer in
            event(SND_SEQ_EVENT_SYSEX, client: client) {
                backbeat_seq_event_set_variable(&$0, UInt32(buffer.count), buffer.baseAddress)
            }
        }
    }

    @Test func sysexChunksAreJoinedPerSource() {
        var storage: [[UInt8]] = []
        storage.reserveCapacity(16)
        let events = [
            Self.sysex([0xF0, 0x7E, 0x01], into: &storage),
            Self.sysex([0xF0, 0x11], client: 21, into: &storage),  // another source, interleaved
            Self.event(SND_SEQ_EVENT_CLOCK),                       // real time: does not end it
            Self.sysex([0x02, 0x03], into: &storage),
            Self.sysex([0x12, 0xF7], client: 21, into: &storage),
            Self.sysex([0x04, 0xF7], into: &storage),
            Self.sysex([0x05, 0xF7], into: &storage),              // continues nothing: dropped
            Self.sysex([0xF0, 0x09], into: &storage),
            Self.note(SND_SEQ_EVENT_NOTEON, channel: 0, note: 60, velocity: 1),  // ends it early
        ]
        var decoder = ALSAEventDecoder()
        #expect(Self.decode(events, decoder: &decoder) == [
            Self.short(0xF8),
            .sysex(bytes: [0xF0, 0x11, 0x12, 0xF7], isTerminated: true),
            .sysex(bytes: [0xF0, 0x7E, 0x01, 0x02, 0x03, 0x04, 0xF7], isTerminated: true),
            .sysex(bytes: [0xF0, 0x09], isTerminated: false),
            Self.short(0x90, 60, 1),
        ])
        #expect(decoder.orphanChunks == 1)
    }

    @Test func longSysexKeepsItsStartAndEnd() {
        var storage: [[UInt8]] = []
        storage.reserveCapacity(4)
        var decoder = ALSAEventDecoder(sysexLimit: 8)
        let out = Self.decode([Self.sysex([0xF0] + Array(1...20) + [0xF7], into: &storage)], decoder: &decoder)
        #expect(out == [.sysex(bytes: [0xF0, 1, 2, 3, 4, 5, 6, 0xF7], isTerminated: true)])
    }

    @Test func announcements() {
        let events = [
            Self.event(SND_SEQ_EVENT_CLIENT_START, client: 0, port: 1) { $0.data.addr = snd_seq_addr_t(client: 24, port: 0) },
            Self.event(SND_SEQ_EVENT_PORT_START, client: 0, port: 1) { $0.data.addr = snd_seq_addr_t(client: 24, port: 2) },
            Self.event(SND_SEQ_EVENT_PORT_SUBSCRIBED, client: 0, port: 1) {
                $0.data.connect.sender = snd_seq_addr_t(client: 24, port: 2)
                $0.data.connect.dest = snd_seq_addr_t(client: 128, port: 0)
            },
            Self.event(SND_SEQ_EVENT_CLIENT_EXIT, client: 0, port: 1) { $0.data.addr = snd_seq_addr_t(client: 24, port: 0) },
        ]
        #expect(Self.decode(events) == [
            .announcement(ALSAAnnouncement(kind: .clientStart, client: 24, port: 0)),
            .announcement(ALSAAnnouncement(kind: .portStart, client: 24, port: 2)),
            .announcement(ALSAAnnouncement(kind: .subscribed, client: 24, port: 2, destinationClient: 128, destinationPort: 0)),
            .announcement(ALSAAnnouncement(kind: .clientExit, client: 24, port: 0)),
        ])
    }

    @Test func sixteenBitConversionClipsAndRounds() {
        #expect(s16Sample(0) == 0)
        #expect(s16Sample(1) == 32767)
        #expect(s16Sample(-1) == -32767)
        #expect(s16Sample(2) == 32767)
        #expect(s16Sample(-3) == -32767)
        #expect(s16Sample(0.5) == 16384)
        #expect(s16Sample(.nan) == 0)
        var left: [Float] = [0.25, -0.25], right: [Float] = [1, -1]
        var out = [Int16](repeating: 0, count: 4)
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                out.withUnsafeMutableBufferPointer { interleaveS16(left: l.baseAddress!, right: r.baseAddress!, frames: 2, into: $0.baseAddress!) }
            }
        }
        #expect(out == [8192, 32767, -8192, -32767])
    }
}
