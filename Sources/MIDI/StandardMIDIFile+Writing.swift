// Writing any Standard MIDI File value: what a take becomes when it is finished (format 1, one track per
// port) and what the tests build files with.

extension StandardMIDIFile {
    /// Meta event types a take uses.
    public enum MetaType {
        public static let trackName: UInt8 = 0x03
        public static let marker: UInt8 = 0x06
        public static let endOfTrack: UInt8 = 0x2F
        public static let setTempo: UInt8 = 0x51
        public static let sequencerSpecific: UInt8 = 0x7F
    }

    /// A Set Tempo meta event.
    public static func tempoEvent(_ microseconds: UInt32) -> MetaEvent {
        let t = max(1, min(microseconds, 0xFF_FFFF))
        return MetaEvent(type: MetaType.setTempo, data: [UInt8(t >> 16 & 0xFF), UInt8(t >> 8 & 0xFF), UInt8(t & 0xFF)])
    }

    /// The file's bytes: the header, then each track with its events in the order given (ticks must not go
    /// back; a tick before the previous one is written at the previous one), channel messages with running
    /// status, and an End of Track added where a track lacks one (anything after an End of Track is dropped).
    public func encoded() -> [UInt8] {
        var file: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, UInt8(format >> 8), UInt8(format & 0xFF),
                                                   UInt8(tracks.count >> 8 & 0xFF), UInt8(tracks.count & 0xFF)]
        switch division {
        case .ticksPerQuarterNote(let tpq): file += [UInt8(tpq >> 8 & 0x7F), UInt8(tpq & 0xFF)]
        case .smpte(let fps, let tpf): file += [UInt8(bitPattern: -Int8(fps == 29 ? 29 : Int8(fps))), tpf]
        }
        for track in tracks {
            var body: [UInt8] = []
            var tick: UInt64 = 0
            var runningStatus: UInt8 = 0
            var ended = false
            for event in track {
                let delta = event.tick > tick ? event.tick - tick : 0
                tick = max(tick, event.tick)
                Self.appendVLQ(UInt32(min(delta, 0x0FFF_FFFF)), to: &body)
                Self.appendTrackEvent(event.event, runningStatus: &runningStatus, to: &body)
                if case .meta(let meta) = event.event, meta.isEndOfTrack { ended = true; break }
            }
            if !ended { body += [0x00, 0xFF, 0x2F, 0x00] }
            file += Array("MTrk".utf8)
            let n = UInt32(body.count)
            file += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            file += body
        }
        return file
    }

    /// One track event's bytes after its delta time.
    public static func appendTrackEvent(_ event: Event, runningStatus: inout UInt8, to track: inout [UInt8]) {
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
}
