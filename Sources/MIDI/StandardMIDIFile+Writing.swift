// Writing any Standard MIDI File value: what a take becomes when it is finished (format 1, one track per
// port), what `render` and the tests build files with. The bytes are `SMFEncoder`'s.

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
        var file = SMFEncoder.header(format: format, tracks: tracks.count, division: division)
        for events in tracks {
            var track = SMFEncoder.Track()
            var ended = false
            for event in events {
                track.append(event.event, at: event.tick)
                if case .meta(let meta) = event.event, meta.isEndOfTrack { ended = true; break }
            }
            if !ended { track.end() }
            file += SMFEncoder.trackChunk(track.bytes)
        }
        return file
    }

    /// A format 0 file of `events` (seconds from the start; sorted here, ties keep their order) at a fixed
    /// tempo. Channel messages use running status; sysex become F0 events, system common and real-time
    /// messages F7 escape events. Times are rounded to the nearest tick.
    public static func format0(
        _ events: [(seconds: Double, message: MIDIMessage)],
        ticksPerQuarterNote: UInt16 = 480,
        microsecondsPerQuarterNote: UInt32 = defaultMicrosecondsPerQuarterNote
    ) -> [UInt8] {
        let tpq = max(1, min(ticksPerQuarterNote, 0x7FFF))
        let tempo = max(1, min(microsecondsPerQuarterNote, 0xFF_FFFF))
        let ticksPerSecond = Double(tpq) * 1_000_000 / Double(tempo)
        // Non-finite or negative times go to the start, so the order is total and ticks never go back.
        let sorted = events.enumerated()
            .map { (offset: $0.offset, seconds: $0.element.seconds.isFinite ? max(0, $0.element.seconds) : 0,
                    message: $0.element.message) }
            .sorted { ($0.seconds, $0.offset) < ($1.seconds, $1.offset) }

        var track = SMFEncoder.Track()
        track.append(.meta(tempoEvent(tempo)), at: 0)
        for item in sorted {
            let exact = (item.seconds * ticksPerSecond).rounded()
            track.append(.message(item.message), at: exact.isFinite && exact > 0 ? UInt64(min(exact, 1e15)) : 0)
        }
        track.end()
        return SMFEncoder.header(format: 0, tracks: 1, division: .ticksPerQuarterNote(tpq)) + SMFEncoder.trackChunk(track.bytes)
    }
}
