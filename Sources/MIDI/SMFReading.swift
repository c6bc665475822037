// What reading a Standard MIDI File rests on (StandardMIDIFile.swift reads with them): the bounds-checked
// byte cursor, and the faults a tolerant read skips, counted by kind, that a strict read throws at.

/// A bounds-checked cursor over file bytes; every read throws ``SMFError`` instead of trapping.
struct ByteReader {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    var remaining: Int { end - position }

    mutating func byte(_ what: String) throws(SMFError) -> UInt8 {
        guard position < end else { throw SMFError(offset: position, expected: "\(what), found the end of the \(endName)") }
        defer { position += 1 }
        return bytes[position]
    }

    var endName: String { end == bytes.count ? "file" : "track chunk" }

    mutating func dataByte() throws(SMFError) -> UInt8 {
        let offset = position
        let b = try byte("a data byte")
        guard b < 0x80 else { throw SMFError(offset: offset, expected: "a data byte (00-7F), found \(hexString([b]))") }
        return b
    }

    mutating func uint16(_ what: String) throws(SMFError) -> UInt16 {
        guard remaining >= 2 else { throw SMFError(offset: end, expected: "\(what) (2 bytes), found the end of the \(endName)") }
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    mutating func uint32(_ what: String) throws(SMFError) -> UInt32 {
        guard remaining >= 4 else { throw SMFError(offset: end, expected: "\(what) (4 bytes), found the end of the \(endName)") }
        defer { position += 4 }
        return UInt32(bytes[position]) << 24 | UInt32(bytes[position + 1]) << 16
            | UInt32(bytes[position + 2]) << 8 | UInt32(bytes[position + 3])
    }

    /// The big-endian 32-bit value at `offset` (at least 4 bytes before `end`), without moving.
    func uint32At(_ offset: Int) throws(SMFError) -> UInt32 {
        guard offset >= 0, offset + 4 <= end else { throw SMFError(offset: end, expected: "4 bytes, found the end of the \(endName)") }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    mutating func fourCC(_ what: String) throws(SMFError) -> String {
        guard remaining >= 4 else { throw SMFError(offset: end, expected: "\(what) (4 bytes), found the end of the \(endName)") }
        defer { position += 4 }
        return String(decoding: bytes[position..<position + 4], as: UTF8.self)
    }

    /// A variable-length quantity: at most 4 bytes, 7 bits each, high bit set on all but the last.
    mutating func vlq(_ what: String) throws(SMFError) -> UInt32 {
        let start = position
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < end else {
                throw SMFError(offset: position, expected: "\(what) (variable-length quantity), found the end of the \(endName)")
            }
            let b = bytes[position]
            position += 1
            value = value << 7 | UInt32(b & 0x7F)
            if b < 0x80 { return value }
        }
        throw SMFError(offset: start, expected: "\(what) as a variable-length quantity of at most 4 bytes")
    }

    /// A VLQ length then that many bytes.
    mutating func lengthPrefixed(_ what: String) throws(SMFError) -> [UInt8] {
        let lengthOffset = position
        let length = Int(try vlq("\(what) length"))
        guard length <= remaining else {
            throw SMFError(offset: lengthOffset, expected: "\(what) length of at most \(remaining) (the bytes left in the \(endName)), found \(length)")
        }
        defer { position += length }
        return Array(bytes[position..<position + length])
    }
}

/// One kind of fault a tolerant read skipped over: how often, and where it first happened.
public struct SMFWarning: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Int, Hashable, Sendable, CaseIterable {
        /// A header chunk shorter than 6 bytes or cut by the end of the file, an unknown format (read as 1),
        /// or an invalid division (read as 480 ticks per quarter note).
        case header
        /// Fewer track chunks than the header announces.
        case missingTracks
        /// A chunk whose declared length runs past the end of the file: what is there is read.
        case chunkOverrun
        /// An event cut off by the end of its chunk: the track ends before it.
        case truncatedEvent
        /// A variable-length quantity longer than 4 bytes: the track ends there.
        case badLength
        /// A system byte (F1-F6, F8-FE) in a track: skipped with its data bytes.
        case strayStatus
        /// Data bytes after a meta or sysex event taken as running status of the channel message before it.
        case runningStatusAfterMetaOrSysex
        /// Data bytes with no running status at all: skipped.
        case missingStatus
        /// A channel message cut short by a status byte: the message is dropped.
        case interruptedMessage
        /// A set-tempo event of 0 microseconds per quarter note: ignored.
        case zeroTempo
        /// Bytes after the last chunk that are no chunk (a stray byte, a chunk header cut short): ignored.
        case trailingBytes

        public var summary: String {
            switch self {
            case .header: "header field out of range (defaults used)"
            case .missingTracks: "fewer track chunks than the header announces"
            case .chunkOverrun: "chunk length past the end of the file (what is there was read)"
            case .truncatedEvent: "event cut off by the end of its chunk"
            case .badLength: "variable-length quantity longer than 4 bytes (rest of the track skipped)"
            case .strayStatus: "system bytes in a track skipped (F1-F6, F8-FE)"
            case .runningStatusAfterMetaOrSysex: "running status continued after a meta or sysex event"
            case .missingStatus: "data bytes without a status skipped"
            case .interruptedMessage: "channel message cut short by a status byte (dropped)"
            case .zeroTempo: "set-tempo of 0 microseconds per quarter note ignored"
            case .trailingBytes: "bytes after the last chunk ignored"
            }
        }
    }

    public var kind: Kind
    /// How many times it happened.
    public var count: Int
    /// Byte offset of its first occurrence.
    public var firstOffset: Int
    /// What the strict reader would have said of the first occurrence.
    public var detail: String

    /// One line: the kind, its count and its first byte offset.
    public var description: String {
        "\(kind.summary): \(count) time\(count == 1 ? "" : "s"), first at byte offset \(firstOffset) (expected \(detail))"
    }
}

/// The faults of one read: strict mode throws at the first, tolerant mode counts them by kind.
struct SMFDiagnostics {
    let strict: Bool
    private var found: [SMFWarning.Kind: SMFWarning] = [:]

    init(strict: Bool) { self.strict = strict }

    /// The warnings in the order of ``SMFWarning/Kind``.
    var warnings: [SMFWarning] { SMFWarning.Kind.allCases.compactMap { found[$0] } }

    mutating func fault(_ kind: SMFWarning.Kind, at offset: Int, _ expected: String) throws(SMFError) {
        if strict { throw SMFError(offset: offset, expected: expected) }
        if found[kind] == nil {
            found[kind] = SMFWarning(kind: kind, count: 1, firstOffset: offset, detail: expected)
        } else {
            found[kind]!.count += 1
        }
    }

    /// A VLQ, or nil (after counting the fault) when the track cannot go on.
    mutating func vlq(_ r: inout ByteReader, _ what: String) throws(SMFError) -> UInt32? {
        do { return try r.vlq(what) } catch {
            try fault(error.expected.contains("at most 4 bytes") ? .badLength : .truncatedEvent, at: error.offset, error.expected)
            return nil
        }
    }

    /// A VLQ length then that many bytes, or nil (after counting the fault) when they are not all there.
    mutating func lengthPrefixed(_ r: inout ByteReader, _ what: String) throws(SMFError) -> [UInt8]? {
        do { return try r.lengthPrefixed(what) } catch {
            try fault(error.expected.contains("at most 4 bytes") ? .badLength : .truncatedEvent, at: error.offset, error.expected)
            return nil
        }
    }
}
