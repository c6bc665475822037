import CALSA
import MIDI

/// What one ALSA sequencer event means to Backbeat.
public enum ALSAInput: Equatable, Sendable {
    /// A channel, system common or real-time message.
    case message(ShortMessage)
    /// A whole system exclusive message, F0 included; F7 included unless another message from the same
    /// source ended it early (`isTerminated` false, as the MIDI parser reports it).
    case sysex(bytes: [UInt8], isTerminated: Bool)
    /// A client or port came, went or changed (from System:Announce), or a subscription changed.
    case announcement(ALSAAnnouncement)
}

/// A System:Announce event.
public struct ALSAAnnouncement: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case clientStart, clientExit, clientChange, portStart, portExit, portChange, subscribed, unsubscribed
    }
    public var kind: Kind
    public var client: UInt8
    public var port: UInt8
    /// For subscriptions: the other end (the destination).
    public var destinationClient: UInt8 = 0
    public var destinationPort: UInt8 = 0
}

/// Turns ALSA sequencer events into Backbeat's messages: the direct mapping of every event type that has a
/// MIDI 1.0 form (the same one ALSA's own `snd_midi_event_decode` uses), and sysex reassembled from chunks.
///
/// - Control14 (param < 32) is two controller messages, MSB then LSB (param + 32), as ALSA's decoder
///   writes it; RPN/NRPN are four (101/100 or 99/98, then data entry 6 and 38).
/// - Note-on with velocity 0 stays a note-on with velocity 0 (the synth treats it as a note-off), as on the
///   wire; ALSA does not rewrite it either.
/// - `SND_SEQ_EVENT_NOTE` (a scheduled note with a duration) has no MIDI 1.0 form and is ignored, like
///   every event that is not MIDI (queue control, timers, user events).
/// - ALSA delivers a long sysex in chunks (the kernel's rawmidi clients cut at their buffer size; only the
///   first begins with F0): chunks are joined per source until F7. A channel or system common message from
///   the same source ends an open sysex early (delivered unterminated first, as the MIDI parser does);
///   real-time messages do not. A chunk that continues nothing is dropped (counted).
/// - A sysex longer than `sysexLimit` bytes keeps its first bytes and its end (F7).
///
/// Not real-time: it allocates for sysex. It runs on the sequencer reader thread (and in tests).
public struct ALSAEventDecoder: Sendable {
    public static let defaultSysexLimit = 65_535
    public let sysexLimit: Int
    private var openSysex: [UInt16: [UInt8]] = [:]
    /// Sysex continuation chunks with nothing to continue.
    public private(set) var orphanChunks = 0

    public init(sysexLimit: Int = ALSAEventDecoder.defaultSysexLimit) { self.sysexLimit = max(2, sysexLimit) }

    /// Hands what `event` means to `emit` (nothing for events without a MIDI meaning).
    public mutating func decode(_ event: snd_seq_event_t, _ emit: (ALSAInput) -> Void) {
        let type = event.type
        let source = UInt16(event.source.client) << 8 | UInt16(event.source.port)
        func short(_ status: UInt8, _ d1: UInt8 = 0, _ d2: UInt8 = 0) {
            let message = ShortMessage(status: status, data1: d1 & 0x7F, data2: d2 & 0x7F)
            if status < 0xF8 { endSysex(source, emit) }  // a non-real-time message ends an open sysex
            emit(.message(message))
        }
        func is_(_ value: snd_seq_event_type) -> Bool { type == snd_seq_event_type_t(value.rawValue) }
        let note = event.data.note, control = event.data.control
        let channel = note.channel & 0x0F, controlChannel = control.channel & 0x0F
        switch true {
        case is_(SND_SEQ_EVENT_NOTEON): short(0x90 | channel, note.note, note.velocity)
        case is_(SND_SEQ_EVENT_NOTEOFF): short(0x80 | channel, note.note, note.velocity)
        case is_(SND_SEQ_EVENT_KEYPRESS): short(0xA0 | channel, note.note, note.velocity)
        case is_(SND_SEQ_EVENT_CONTROLLER):
            short(0xB0 | controlChannel, UInt8(truncatingIfNeeded: control.param), UInt8(truncatingIfNeeded: control.value))
        case is_(SND_SEQ_EVENT_PGMCHANGE): short(0xC0 | controlChannel, UInt8(truncatingIfNeeded: control.value))
        case is_(SND_SEQ_EVENT_CHANPRESS): short(0xD0 | controlChannel, UInt8(truncatingIfNeeded: control.value))
        case is_(SND_SEQ_EVENT_PITCHBEND):
            let value = Int(control.value) + 8192
            short(0xE0 | controlChannel, UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 7))
        case is_(SND_SEQ_EVENT_CONTROL14):
            let param = Int(control.param), value = Int(control.value)
            if param < 32 {
                short(0xB0 | controlChannel, UInt8(param), UInt8(truncatingIfNeeded: value >> 7))
                short(0xB0 | controlChannel, UInt8(param + 32), UInt8(truncatingIfNeeded: value))
            } else {
                short(0xB0 | controlChannel, UInt8(truncatingIfNeeded: param), UInt8(truncatingIfNeeded: value))
            }
        case is_(SND_SEQ_EVENT_NONREGPARAM), is_(SND_SEQ_EVENT_REGPARAM):
            let registered = is_(SND_SEQ_EVENT_REGPARAM)
            let param = Int(control.param), value = Int(control.value)
            short(0xB0 | controlChannel, registered ? 101 : 99, UInt8(truncatingIfNeeded: param >> 7))
            short(0xB0 | controlChannel, registered ? 100 : 98, UInt8(truncatingIfNeeded: param))
            short(0xB0 | controlChannel, 6, UInt8(truncatingIfNeeded: value >> 7))
            short(0xB0 | controlChannel, 38, UInt8(truncatingIfNeeded: value))
        case is_(SND_SEQ_EVENT_QFRAME): short(0xF1, UInt8(truncatingIfNeeded: control.value))
        case is_(SND_SEQ_EVENT_SONGPOS):
            let value = Int(control.value)
            short(0xF2, UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 7))
        case is_(SND_SEQ_EVENT_SONGSEL): short(0xF3, UInt8(truncatingIfNeeded: control.value))
        case is_(SND_SEQ_EVENT_TUNE_REQUEST): short(0xF6)
        case is_(SND_SEQ_EVENT_CLOCK): short(0xF8)
        case is_(SND_SEQ_EVENT_START): short(0xFA)
        case is_(SND_SEQ_EVENT_CONTINUE): short(0xFB)
        case is_(SND_SEQ_EVENT_STOP): short(0xFC)
        case is_(SND_SEQ_EVENT_SENSING): short(0xFE)
        case is_(SND_SEQ_EVENT_RESET): short(0xFF)
        case is_(SND_SEQ_EVENT_SYSEX):
            var event = event
            guard backbeat_seq_event_is_variable(&event) != 0, let pointer = event.data.ext.ptr else { return }
            let chunk = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: Int(event.data.ext.len))
            sysexChunk(chunk, source: source, emit)
        case is_(SND_SEQ_EVENT_CLIENT_START), is_(SND_SEQ_EVENT_CLIENT_EXIT), is_(SND_SEQ_EVENT_CLIENT_CHANGE),
             is_(SND_SEQ_EVENT_PORT_START), is_(SND_SEQ_EVENT_PORT_EXIT), is_(SND_SEQ_EVENT_PORT_CHANGE):
            let kinds: [(snd_seq_event_type, ALSAAnnouncement.Kind)] = [
                (SND_SEQ_EVENT_CLIENT_START, .clientStart), (SND_SEQ_EVENT_CLIENT_EXIT, .clientExit),
                (SND_SEQ_EVENT_CLIENT_CHANGE, .clientChange), (SND_SEQ_EVENT_PORT_START, .portStart),
                (SND_SEQ_EVENT_PORT_EXIT, .portExit), (SND_SEQ_EVENT_PORT_CHANGE, .portChange),
            ]
            guard let kind = kinds.first(where: { is_($0.0) })?.1 else { return }
            if kind == .clientExit || kind == .portExit {
                // Whatever that client had open cannot continue.
                for key in openSysex.keys where key >> 8 == UInt16(event.data.addr.client) { endSysex(key, emit) }
            }
            emit(.announcement(ALSAAnnouncement(kind: kind, client: event.data.addr.client, port: event.data.addr.port)))
        case is_(SND_SEQ_EVENT_PORT_SUBSCRIBED), is_(SND_SEQ_EVENT_PORT_UNSUBSCRIBED):
            let connect = event.data.connect
            emit(.announcement(ALSAAnnouncement(
                kind: is_(SND_SEQ_EVENT_PORT_SUBSCRIBED) ? .subscribed : .unsubscribed,
                client: connect.sender.client, port: connect.sender.port,
                destinationClient: connect.dest.client, destinationPort: connect.dest.port)))
        default:
            break
        }
    }

    private mutating func sysexChunk(_ chunk: UnsafeBufferPointer<UInt8>, source: UInt16, _ emit: (ALSAInput) -> Void) {
        guard !chunk.isEmpty else { return }
        if chunk[0] == 0xF0 {
            endSysex(source, emit)
            openSysex[source] = []
        } else if openSysex[source] == nil {
            orphanChunks += 1
            return
        }
        var bytes = openSysex[source] ?? []
        openSysex[source] = nil  // unique while appending
        let ended = chunk.last == 0xF7
        let room = max(0, sysexLimit - 1 - bytes.count)
        bytes.append(contentsOf: chunk.prefix(ended ? min(room, chunk.count - 1) : min(room, chunk.count)))
        if ended {
            bytes.append(0xF7)
            emit(.sysex(bytes: bytes, isTerminated: true))
        } else {
            openSysex[source] = bytes
        }
    }

    private mutating func endSysex(_ source: UInt16, _ emit: (ALSAInput) -> Void) {
        guard let bytes = openSysex.removeValue(forKey: source) else { return }
        emit(.sysex(bytes: bytes, isTerminated: false))
    }

    /// Delivers every open sysex, unterminated (the input ended).
    public mutating func finish(_ emit: (ALSAInput) -> Void) {
        for key in openSysex.keys.sorted() { endSysex(key, emit) }
    }
}
