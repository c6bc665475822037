// The one writer of Standard MIDI File bytes: `StandardMIDIFile.format0`, `StandardMIDIFile.encoded()` and
// the live take writer (Engine's `SMFStreamWriter`, which patches a growing file's chunk length) all encode
// their chunks and track events here, so the three cannot write the same events differently.

/// Chunks, variable-length quantities and track events of a Standard MIDI File.
public enum SMFEncoder {
    /// A track's End of Track at delta 0: the four bytes every track ends with.
    public static let endOfTrack: [UInt8] = [0x00, 0xFF, 0x2F, 0x00]

    /// The header chunk (14 bytes): `MThd`, its length 6, the format, the number of tracks and the division.
    public static func header(format: UInt16, tracks: Int, division: StandardMIDIFile.Division) -> [UInt8] {
        var bytes: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, UInt8(format >> 8), UInt8(format & 0xFF),
                                                    UInt8(tracks >> 8 & 0xFF), UInt8(tracks & 0xFF)]
        switch division {
        case .ticksPerQuarterNote(let tpq): bytes += [UInt8(tpq >> 8 & 0x7F), UInt8(tpq & 0xFF)]
        case .smpte(let fps, let tpf): bytes += [UInt8(bitPattern: -Int8(fps == 29 ? 29 : Int8(fps))), tpf]
        }
        return bytes
    }

    /// A track chunk's type and length (8 bytes), then `body`.
    public static func trackChunk(_ body: [UInt8]) -> [UInt8] {
        Array("MTrk".utf8) + bigEndian(UInt32(body.count)) + body
    }

    /// A chunk length as the file stores it: four bytes, most significant first.
    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Appends a variable-length quantity (at most 0x0FFFFFFF, 4 bytes).
    public static func appendVLQ(_ value: UInt32, to bytes: inout [UInt8]) {
        let v = min(value, 0x0FFF_FFFF)
        var shift: UInt32 = 21
        var started = false
        while shift > 0 {
            let part = UInt8(v >> shift & 0x7F)
            if part != 0 || started {
                bytes.append(part | 0x80)
                started = true
            }
            shift -= 7
        }
        bytes.append(UInt8(v & 0x7F))
    }

    /// A variable-length quantity in exactly four bytes (leading 0x80 bytes pad it), which can be written
    /// over another of four bytes in place.
    public static func paddedVLQ(_ value: UInt32) -> [UInt8] {
        let v = min(value, 0x0FFF_FFFF)
        return [UInt8(v >> 21 & 0x7F) | 0x80, UInt8(v >> 14 & 0x7F) | 0x80, UInt8(v >> 7 & 0x7F) | 0x80, UInt8(v & 0x7F)]
    }

    /// Appends one track event's bytes after its delta time: channel messages with running status
    /// (`runningStatus` is the status in force, 0 for none), sysex as an F0 event, any other message and an
    /// escape as an F7 event, a meta event as FF; all but channel messages cancel running status.
    public static func appendTrackEvent(_ event: StandardMIDIFile.Event, runningStatus: inout UInt8, to track: inout [UInt8]) {
        switch event {
        case .message(let message): appendEvent(message, runningStatus: &runningStatus, to: &track)
        case .sysex(let sysex): appendEvent(.systemExclusive(sysex), runningStatus: &runningStatus, to: &track)
        case .escape(let bytes):
            runningStatus = 0
            track.append(0xF7)
            appendVLQ(UInt32(bytes.count), to: &track)
            track += bytes
        case .meta(let meta):
            runningStatus = 0
            track += [0xFF, meta.type & 0x7F]
            appendVLQ(UInt32(meta.data.count), to: &track)
            track += meta.data
        }
    }

    /// Appends one message as a track event (after its delta time), as ``appendTrackEvent(_:runningStatus:to:)``.
    static func appendEvent(_ message: MIDIMessage, runningStatus: inout UInt8, to track: inout [UInt8]) {
        switch message {
        case .systemExclusive(let sysex):
            runningStatus = 0
            track.append(0xF0)
            appendVLQ(UInt32(sysex.data.count + (sysex.isTerminated ? 1 : 0)), to: &track)
            track += sysex.data.map { $0 & 0x7F }
            if sysex.isTerminated { track.append(0xF7) }
        case let message where message.channel != nil:
            var encoder = MIDIEncoder(runningStatus: false)
            var bytes: [UInt8] = []
            encoder.encode(message, into: &bytes)
            if bytes[0] == runningStatus { bytes.removeFirst() } else { runningStatus = bytes[0] }
            track += bytes
        case let message:
            runningStatus = 0
            let bytes = message.bytes
            track.append(0xF7)
            appendVLQ(UInt32(bytes.count), to: &track)
            track += bytes
        }
    }

    /// A track's events as bytes, one at a time: each event's delta time from its tick (a tick before the
    /// last one is written at the last one, so time never goes back), then the event with running status.
    public struct Track: Sendable {
        /// The track's bytes so far (without its chunk head).
        public private(set) var bytes: [UInt8] = []
        /// The tick of the last event.
        public private(set) var tick: UInt64
        private var runningStatus: UInt8 = 0
        /// Whether the first event's delta time is kept in ``firstDelta`` rather than written.
        private let deltaApart: Bool
        /// The first event's delta time, when the track was made with `firstDeltaApart`.
        public private(set) var firstDelta: UInt32?

        /// A track starting at `tick`. `firstDeltaApart`: the bytes continue a track already written, whose
        /// End of Track's delta time the first event's delta replaces in place (``firstDelta``).
        public init(from tick: UInt64 = 0, firstDeltaApart: Bool = false) {
            self.tick = tick
            deltaApart = firstDeltaApart
        }

        /// Appends `event` at `eventTick`.
        public mutating func append(_ event: StandardMIDIFile.Event, at eventTick: UInt64) {
            let delta = UInt32(min(eventTick > tick ? eventTick - tick : 0, 0x0FFF_FFFF))
            tick = max(tick, eventTick)
            if deltaApart && firstDelta == nil { firstDelta = delta } else { SMFEncoder.appendVLQ(delta, to: &bytes) }
            SMFEncoder.appendTrackEvent(event, runningStatus: &runningStatus, to: &bytes)
        }

        /// Appends an End of Track at the last event's tick.
        public mutating func end() { bytes += SMFEncoder.endOfTrack }
    }
}
