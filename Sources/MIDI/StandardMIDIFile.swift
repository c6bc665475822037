/// A corrupt or unsupported Standard MIDI File: where reading stopped and what it expected there.
public struct SMFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Byte offset in the file where the problem is (for a truncated file: its length).
    public var offset: Int
    /// What was expected at `offset`.
    public var expected: String

    public init(offset: Int, expected: String) {
        self.offset = offset
        self.expected = expected
    }

    public var description: String { "corrupt MIDI file at byte offset \(offset): expected \(expected)" }
}

/// A Standard MIDI File (format 0, 1 or 2): its header and tracks of events at absolute ticks.
///
/// Read one with ``init(bytes:)``; get its events merged in time order, in seconds, with ``timedEvents()``;
/// write a format 0 file with ``format0(_:ticksPerQuarterNote:microsecondsPerQuarterNote:)``.
public struct StandardMIDIFile: Hashable, Sendable {
    /// How ticks relate to time.
    public enum Division: Hashable, Sendable {
        /// Metrical time: ticks per quarter note; the tempo map gives seconds.
        case ticksPerQuarterNote(UInt16)
        /// Time code: frames per second (24, 25, 29 for 29.97 drop-frame, 30) and ticks per frame.
        case smpte(framesPerSecond: UInt8, ticksPerFrame: UInt8)
    }

    /// A meta event (FF type length data).
    public struct MetaEvent: Hashable, Sendable {
        public var type: UInt8
        public var data: [UInt8]
        public init(type: UInt8, data: [UInt8]) { self.type = type; self.data = data }

        /// Microseconds per quarter note of a set-tempo event (type 51, 3 bytes).
        public var tempo: UInt32? {
            guard type == 0x51, data.count == 3 else { return nil }
            return UInt32(data[0]) << 16 | UInt32(data[1]) << 8 | UInt32(data[2])
        }
        /// The text of a text-like event (types 01...0F: text, copyright, track name, lyric, marker...).
        public var text: String? {
            guard (0x01...0x0F).contains(type) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        /// True for end of track (type 2F).
        public var isEndOfTrack: Bool { type == 0x2F }
    }

    /// What a track event is.
    public enum Event: Hashable, Sendable {
        /// A channel message.
        case message(MIDIMessage)
        /// An F0 sysex event; `isTerminated` is false when its packet does not end in F7 (a divided sysex
        /// continued by escape events).
        case sysex(SystemExclusive)
        /// An F7 escape event: bytes sent as they are (sysex continuation, system common, real-time).
        case escape([UInt8])
        case meta(MetaEvent)
    }

    /// An event of one track at an absolute tick.
    public struct TrackEvent: Hashable, Sendable {
        public var tick: UInt64
        public var event: Event
        public init(tick: UInt64, event: Event) { self.tick = tick; self.event = event }
    }

    /// An event of the merged file, in seconds from the start.
    public struct TimedEvent: Hashable, Sendable {
        public var seconds: Double
        public var tick: UInt64
        /// Index of the track it came from.
        public var track: Int
        public var event: Event
    }

    /// 0 (one track), 1 (simultaneous tracks) or 2 (independent sequences, played one after another).
    public var format: UInt16
    public var division: Division
    public var tracks: [[TrackEvent]]

    public init(format: UInt16, division: Division, tracks: [[TrackEvent]]) {
        self.format = format; self.division = division; self.tracks = tracks
    }

    /// Default tempo of a file without set-tempo events: 120 BPM.
    public static let defaultMicrosecondsPerQuarterNote: UInt32 = 500_000

    // MARK: Reading

    /// Reads a format 0, 1 or 2 file strictly: the first problem is an error. Never traps: every length is
    /// checked against the bytes left.
    /// - Throws: ``SMFError`` with the byte offset of the first problem.
    public init(bytes: [UInt8]) throws(SMFError) {
        self = try Self.read(bytes, strict: true).file
    }

    /// Reads a file as a player must: what can be played is kept and every kind of fault is counted in the
    /// returned warnings (stray system bytes skipped with their data, running status continued after a meta
    /// or sysex event, chunks cut short, events interrupted...). With `strict`, the first fault throws instead,
    /// as ``init(bytes:)`` does. Only bytes that are not a Standard MIDI File at all (no `MThd` header) throw in
    /// either mode. Memory is bounded by the input: every event read consumes at least one byte.
    public static func read(_ bytes: [UInt8], strict: Bool) throws(SMFError) -> (file: StandardMIDIFile, warnings: [SMFWarning]) {
        var diagnostics = SMFDiagnostics(strict: strict)
        let file = try StandardMIDIFile(bytes: bytes, diagnostics: &diagnostics)
        return (file, diagnostics.warnings)
    }

    private init(bytes: [UInt8], diagnostics d: inout SMFDiagnostics) throws(SMFError) {
        var r = ByteReader(bytes: bytes, position: 0, end: bytes.count)
        guard try r.fourCC("header chunk type 'MThd'") == "MThd" else {
            throw SMFError(offset: 0, expected: "header chunk type 'MThd'")
        }
        let lengthOffset = r.position
        var headerLength = 6
        if r.remaining >= 4 { headerLength = Int(try r.uint32("header chunk length")) } else {
            try d.fault(.header, at: lengthOffset, "header chunk length (4 bytes), found the end of the file")
            r.position = r.end
        }
        if headerLength < 6 {
            try d.fault(.header, at: lengthOffset, "header length of at least 6")
            headerLength = 6
        }
        if headerLength > r.remaining {
            try d.fault(.header, at: bytes.count, "\(headerLength) header bytes (file ends after \(r.remaining))")
        }
        let headerEnd = min(r.position + headerLength, r.end)
        var header = ByteReader(bytes: bytes, position: r.position, end: headerEnd)
        let formatOffset = header.position
        var format: UInt16 = 1, trackCount = Int.max, rawDivision: UInt16 = 480
        if header.remaining >= 2 { format = try header.uint16("format") }
        if header.remaining >= 2 { trackCount = Int(try header.uint16("number of tracks")) }
        let divisionOffset = header.position
        if header.remaining >= 2 { rawDivision = try header.uint16("division") }
        if format > 2 {
            try d.fault(.header, at: formatOffset, "format 0, 1 or 2 (found \(format))")
            format = 1
        }
        self.format = format
        var division = Division.ticksPerQuarterNote(480)
        if rawDivision & 0x8000 != 0 {
            let fps = UInt8(truncatingIfNeeded: -Int(Int8(bitPattern: UInt8(rawDivision >> 8))))
            let tpf = UInt8(rawDivision & 0xFF)
            if [24, 25, 29, 30].contains(fps), tpf > 0 {
                division = .smpte(framesPerSecond: fps, ticksPerFrame: tpf)
            } else {
                try d.fault(.header, at: divisionOffset, "SMPTE division of 24, 25, 29 or 30 fps and nonzero ticks per frame")
            }
        } else if rawDivision > 0 {
            division = .ticksPerQuarterNote(rawDivision)
        } else {
            try d.fault(.header, at: divisionOffset, "nonzero ticks per quarter note")
        }
        self.division = division
        r.position = headerEnd

        var tracks: [[TrackEvent]] = []
        while tracks.count < trackCount {
            guard r.remaining > 0 else {
                if trackCount != Int.max {
                    try d.fault(.missingTracks, at: r.position, "track chunk \(tracks.count + 1) of \(trackCount)")
                }
                break
            }
            guard r.remaining >= 8 else {
                try d.fault(.chunkOverrun, at: r.position, "chunk type and length (8 bytes), found the end of the file")
                break
            }
            let chunkType = try r.fourCC("chunk type")
            let lengthOffset = r.position
            var length = Int(try r.uint32("chunk length"))
            if length > r.remaining {
                try d.fault(.chunkOverrun, at: lengthOffset,
                            "chunk length of at most \(r.remaining) (the bytes left), found \(length)")
                length = r.remaining
            }
            let chunkEnd = r.position + length
            if chunkType == "MTrk" {
                var track = ByteReader(bytes: bytes, position: r.position, end: chunkEnd)
                tracks.append(try Self.readTrack(&track, number: tracks.count + 1, diagnostics: &d))
            }  // other chunk types are skipped, as the specification asks
            r.position = chunkEnd
        }
        // After the last track: whole chunks of any type are skipped, as the specification asks; bytes that
        // are no chunk (a stray byte, a header cut short, a length past the end) are a fault.
        while r.remaining > 0 {
            let start = r.position
            let typeIsText = r.remaining >= 8 && bytes[start..<start + 4].allSatisfy { (0x20...0x7E).contains($0) }
            let length = r.remaining >= 8 ? Int(try r.uint32At(start + 4)) : 0
            guard typeIsText, length <= r.remaining - 8 else {
                let shown = r.remaining > 8 ? hexString(bytes[start..<start + 8]) + " ..." : hexString(bytes[start...])
                try d.fault(.trailingBytes, at: start,
                            "the end of the file after the last chunk, found \(counted(r.remaining, "more byte")) (\(shown))")
                break
            }
            r.position = start + 8 + length
        }
        self.tracks = tracks
    }

    /// Reads the events of track chunk `number` (1-based, for messages); a fault that ends the track keeps
    /// the events before it.
    private static func readTrack(_ r: inout ByteReader, number: Int, diagnostics d: inout SMFDiagnostics) throws(SMFError) -> [TrackEvent] {
        var events: [TrackEvent] = []
        var tick: UInt64 = 0
        var runningStatus: UInt8 = 0
        /// The running status a meta or sysex event cancelled: writers that keep using it are followed.
        var cancelledStatus: UInt8 = 0
        var readDelta = true
        while r.remaining > 0 {
            if readDelta {
                guard let delta = try d.vlq(&r, "delta time") else { return events }
                tick &+= UInt64(delta)
            }
            readDelta = true
            let statusOffset = r.position
            guard r.remaining > 0 else {
                try d.fault(.truncatedEvent, at: statusOffset, "an event after the delta time, found the end of the \(r.endName)")
                return events
            }
            var status = try r.byte("status byte")
            if status < 0x80 {
                if runningStatus != 0 {
                    status = runningStatus
                } else if cancelledStatus != 0 {
                    try d.fault(.runningStatusAfterMetaOrSysex, at: statusOffset,
                                "a status byte (no running status in effect after a meta or sysex event)")
                    status = cancelledStatus
                    runningStatus = status
                } else {
                    try d.fault(.missingStatus, at: statusOffset, "a status byte (no running status in effect)")
                    // Skip data bytes up to the next status byte, which is read at the same tick.
                    while r.remaining > 0 && r.bytes[r.position] < 0x80 { r.position += 1 }
                    readDelta = false
                    continue
                }
                r.position -= 1  // the byte is the first data byte
            }
            switch status {
            case 0x80...0xEF:
                runningStatus = status
                let count = ShortMessage.dataLength(status: status)
                var data: (UInt8, UInt8) = (0, 0)
                var complete = true
                for i in 0..<count {
                    let offset = r.position
                    guard r.remaining > 0 else {
                        try d.fault(.truncatedEvent, at: offset, "a data byte, found the end of the \(r.endName)")
                        return events
                    }
                    let b = r.bytes[offset]
                    guard b < 0x80 else {
                        // A status where a data byte belongs: the message is dropped, the status read next.
                        try d.fault(.interruptedMessage, at: offset, "a data byte (00-7F), found \(hexString([b]))")
                        complete = false
                        break
                    }
                    r.position += 1
                    if i == 0 { data.0 = b } else { data.1 = b }
                }
                guard complete else { readDelta = false; continue }
                let message = MIDIMessage(ShortMessage(status: status, data1: data.0, data2: data.1))!
                events.append(TrackEvent(tick: tick, event: .message(message)))
            case 0xFF:
                if runningStatus != 0 { cancelledStatus = runningStatus }
                runningStatus = 0
                guard r.remaining > 0 else {
                    try d.fault(.truncatedEvent, at: r.position, "meta event type, found the end of the \(r.endName)")
                    return events
                }
                let type = try r.byte("meta event type")
                guard let data = try d.lengthPrefixed(&r, "meta event") else { return events }
                let meta = MetaEvent(type: type, data: data)
                if meta.tempo == 0 {
                    // Zero microseconds per quarter note would put every later event at the same instant.
                    try d.fault(.zeroTempo, at: statusOffset, "a tempo above 0 microseconds per quarter note (track \(number) sets 0)")
                    continue
                }
                events.append(TrackEvent(tick: tick, event: .meta(meta)))
                if meta.isEndOfTrack { return events }
            case 0xF0:
                if runningStatus != 0 { cancelledStatus = runningStatus }
                runningStatus = 0
                guard var data = try d.lengthPrefixed(&r, "sysex event") else { return events }
                let terminated = data.last == 0xF7
                if terminated { data.removeLast() }
                events.append(TrackEvent(tick: tick, event: .sysex(SystemExclusive(data: data, isTerminated: terminated))))
            case 0xF7:
                if runningStatus != 0 { cancelledStatus = runningStatus }
                runningStatus = 0
                guard let data = try d.lengthPrefixed(&r, "escape event") else { return events }
                events.append(TrackEvent(tick: tick, event: .escape(data)))
            default:
                // A system byte that has no place in a track: skipped with its data bytes (F1 and F3 one,
                // F2 two), running status left as it was.
                try d.fault(.strayStatus, at: statusOffset,
                            "a channel status, FF (meta), F0 or F7 (sysex) event, found \(hexString([status]))")
                let dataBytes = status == 0xF2 ? 2 : (status == 0xF1 || status == 0xF3) ? 1 : 0
                for _ in 0..<dataBytes where r.remaining > 0 && r.bytes[r.position] < 0x80 { r.position += 1 }
            }
        }
        return events
    }

    // MARK: Time

    /// Every event of every track merged in time order (ties: track order, then file order), with its time in
    /// seconds. Set-tempo events on any track apply to all. Escape events that hold complete MIDI messages
    /// (system common, real-time) come out as `.message`. In a format 2 file each track is its own sequence
    /// with its own tempo map: they follow one another, each starting where the one before ended (at its
    /// End-of-Track, or its last event).
    public func timedEvents() -> [TimedEvent] {
        guard format == 2 else { return Self.merged(tracks.indices, of: tracks, division: division) }
        var result: [TimedEvent] = []
        var secondsOffset = 0.0
        var tickOffset: UInt64 = 0
        for t in tracks.indices {
            let events = Self.merged(t..<t + 1, of: tracks, division: division)
            for var e in events {
                e.seconds += secondsOffset
                e.tick &+= tickOffset
                result.append(e)
            }
            if let last = events.last {
                secondsOffset += last.seconds
                tickOffset &+= last.tick
            }
        }
        return result
    }

    /// Seconds from the start to the end of the file: its last event, End-of-Track included (a track of
    /// silence ending in End-of-Track lasts until it).
    public var duration: Double {
        timedEvents().reduce(0) { max($0, $1.seconds.isFinite ? $1.seconds : 0) }
    }

    /// The events of `trackRange` merged in time order through one tempo map.
    private static func merged(_ trackRange: Range<Int>, of tracks: [[TrackEvent]], division: Division) -> [TimedEvent] {
        struct Item { var tick: UInt64; var track: Int; var index: Int; var event: Event }
        var items: [Item] = []
        for t in trackRange {
            for (i, e) in tracks[t].enumerated() { items.append(Item(tick: e.tick, track: t, index: i, event: e.event)) }
        }
        items.sort { ($0.tick, $0.track, $0.index) < ($1.tick, $1.track, $1.index) }

        var clock = TempoClock(division: division)
        var result: [TimedEvent] = []
        result.reserveCapacity(items.count)
        for item in items {
            let seconds = clock.seconds(at: item.tick)
            if case .meta(let meta) = item.event, let tempo = meta.tempo { clock.setTempo(tempo, at: item.tick) }
            if case .escape(let bytes) = item.event {
                let decoded = MIDIParser.decode(bytes)
                if decoded.errors == 0 && !decoded.messages.isEmpty {
                    for m in decoded.messages {
                        result.append(TimedEvent(seconds: seconds, tick: item.tick, track: item.track, event: .message(m)))
                    }
                    continue
                }
            }
            result.append(TimedEvent(seconds: seconds, tick: item.tick, track: item.track, event: item.event))
        }
        return result
    }

    /// Converts ticks to seconds as the ticks advance, through tempo changes.
    struct TempoClock {
        let division: Division
        var tempo = Double(StandardMIDIFile.defaultMicrosecondsPerQuarterNote)
        var segmentTick: UInt64 = 0
        var segmentSeconds = 0.0

        mutating func setTempo(_ microseconds: UInt32, at tick: UInt64) {
            segmentSeconds = seconds(at: tick)
            segmentTick = tick
            tempo = Double(microseconds)
        }

        func seconds(at tick: UInt64) -> Double {
            switch division {
            case .ticksPerQuarterNote(let tpq):
                return segmentSeconds + Double(tick - segmentTick) * tempo / 1_000_000 / Double(tpq)
            case .smpte(let fps, let tpf):
                let framesPerSecond = fps == 29 ? 30_000.0 / 1001 : Double(fps)
                return Double(tick) / (framesPerSecond * Double(tpf))
            }
        }
    }
}
