/// `backbeat decode` as a stream: bytes (or hex text) go in as they arrive, in chunks of any size, and the
/// lines of every message completed so far come out in ``output``, ready to be written. Memory stays bounded
/// whatever the input's length: the parser's sysex buffer, and the lines of one chunk until the caller
/// writes them and calls ``OutputBytes/removeAll()``.
///
/// Errors are reported one by one, with the offset of the byte (counted in decoded MIDI bytes), the byte, and
/// what was expected: in text mode as lines in ``errorOutput`` (for standard error), in JSON mode as
/// `{"type":"error","offset":N,"byte":"F9","message":"..."}` objects among the messages in ``output``
/// (`"byte"` is left out for an error at the end of the input).
public struct MIDIDecodeStream: ~Copyable {
    public enum Format: Sendable { case text, json }

    public let format: Format
    /// Lines of messages and the summary (and, in JSON mode, of errors): standard output.
    public var output = OutputBytes(capacity: 1 << 20)
    /// Text-mode error lines: standard error.
    public var errorOutput = OutputBytes(capacity: 1 << 12)
    /// Messages decoded so far.
    public private(set) var messageCount = 0
    /// MIDI bytes decoded so far (with hex input, the bytes the text stands for).
    public private(set) var bytesDecoded = 0
    /// Errors so far (see ``MIDIParser`` for what counts as one).
    public var errorCount: Int { parser.errorCount }

    private var parser: MIDIParser
    private let writer: MessageLineWriter
    private var hexReader: HexReader?
    private let errorPrefix: String
    private var sysexStart = 0

    /// `errorPrefix` starts every text-mode error line ("backbeat decode: ").
    public init(format: Format, middleC: MiddleC = .c4, hex: Bool = false, errorPrefix: String = "",
                sysexLimit: Int = MIDIParser.defaultSysexLimit) {
        self.format = format
        parser = MIDIParser(sysexLimit: sysexLimit)
        writer = MessageLineWriter(middleC: middleC)
        hexReader = hex ? HexReader() : nil
        self.errorPrefix = errorPrefix
    }

    /// Decodes `chunk`; its messages' lines are appended to ``output``.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) throws(HexInputError) {
        if hexReader != nil {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(chunk.count / 2)
            try hexReader!.read(chunk, into: &bytes)
            bytes.withUnsafeBufferPointer { decode($0) }
        } else {
            decode(chunk)
        }
    }

    /// Ends the input: the last hex token is checked, and an incomplete message or open sysex at the end
    /// is reported (an open sysex is also printed, unterminated).
    public mutating func finishInput() throws(HexInputError) {
        if hexReader != nil {
            var bytes: [UInt8] = []
            try hexReader!.finish(into: &bytes)
            bytes.withUnsafeBufferPointer { decode($0) }
        }
        if !parser.isIdle { report(nil, at: bytesDecoded, [endOfInputProblem()]) }
        var open: SystemExclusive?
        parser.finishUnchecked { event in
            if case .sysex(let view) = event { open = view.makeMessage() }
        }
        if let open {
            open.data.withUnsafeBufferPointer {
                emit(SysexView(bytes: $0, isTerminated: open.isTerminated, isTruncated: open.isTruncated))
            }
        }
    }

    /// Appends the summary: `N messages, E errors`, or the JSON summary object.
    public mutating func writeSummary() {
        switch format {
        case .text:
            output.appendDecimal(messageCount); output.append(" messages, ")
            output.appendDecimal(errorCount); output.append(" errors\n")
        case .json:
            output.append(MIDIJSON.summary(messages: messageCount, errors: errorCount) + "\n")
        }
    }

    // MARK: The loop

    /// Byte by byte through the parser's step, so that every error is seen where it happens.
    private mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let p = bytes.baseAddress else { return }
        for i in 0..<bytes.count {
            let b = p[i]
            let errorsBefore = parser.errors
            let before = ParserState(parser)
            let offset = bytesDecoded &+ i
            switch parser.step(b) {
            case .none: break
            case .message(let m): emit(m)
            case .sysex:
                emit(parser.currentSysex())
                if parser.pendingStatus != 0 {
                    let s = parser.pendingStatus
                    parser.pendingStatus = 0
                    if case .message(let m) = parser.beginStatus(s) { emit(m) }
                }
            }
            if parser.errors != errorsBefore {
                report(b, at: offset, problems(b, before: before, count: parser.errors &- errorsBefore))
            }
            if b == 0xF0 { sysexStart = offset }
        }
        bytesDecoded &+= bytes.count
    }

    private mutating func emit(_ m: ShortMessage) {
        messageCount &+= 1
        switch format {
        case .text: writer.writeText(m, index: messageCount, into: &output)
        case .json: writer.writeJSON(m, into: &output)
        }
    }

    private mutating func emit(_ sysex: SysexView) {
        messageCount &+= 1
        switch format {
        case .text: writer.writeText(sysex, index: messageCount, into: &output)
        case .json: writer.writeJSON(sysex, into: &output)
        }
    }

    // MARK: Errors

    /// What the parser was doing before a byte.
    private struct ParserState {
        var status: UInt8, needed: UInt8, count: UInt8, partial: Bool, inSysex: Bool
        init(_ p: borrowing MIDIParser) {
            status = p.status; needed = p.needed; count = p.count; partial = p.partial; inSysex = p.inSysex
        }
    }

    /// The errors one byte caused, in the parser's order (a status byte can end a message and be bad itself).
    private func problems(_ b: UInt8, before: ParserState, count: Int) -> [String] {
        var found: [String] = []
        if b < 0x80 {
            found.append("data byte with no status byte before it (no running status): expected a status byte")
        } else if b == 0xF9 || b == 0xFD {
            found.append("undefined real-time status byte: skipped")
        } else {
            if before.inSysex {
                found.append("the sysex from offset \(sysexStart) ended without F7: expected data bytes or F7 (end of exclusive)")
            } else if before.partial {
                found.append(incomplete(before) + ", got a status byte")
            }
            if b == 0xF7 && !before.inSysex { found.append("F7 (end of exclusive) with no sysex to end: skipped") }
            if b == 0xF4 || b == 0xF5 { found.append("undefined status byte: skipped, and running status cancelled") }
        }
        while found.count < count { found.append("invalid byte") }
        return Array(found.prefix(count))
    }

    private func endOfInputProblem() -> String {
        if parser.inSysex { return "the input ended inside the sysex from offset \(sysexStart): expected F7 (end of exclusive)" }
        return "the input ended inside a message: " + incomplete(ParserState(parser))
    }

    /// "Note On (90) incomplete: expected 1 more data byte".
    private func incomplete(_ state: ParserState) -> String {
        let missing = Int(state.needed) - Int(state.count)
        return "\(Self.typeName(state.status)) (\(hexString([state.status]))) incomplete: expected \(missing) more data byte\(missing == 1 ? "" : "s")"
    }

    static func typeName(_ status: UInt8) -> String {
        switch status & 0xF0 {
        case 0x80: "Note Off"
        case 0x90: "Note On"
        case 0xA0: "Poly Pressure"
        case 0xB0: "Control Change"
        case 0xC0: "Program Change"
        case 0xD0: "Channel Pressure"
        case 0xE0: "Pitch Bend"
        default: status == 0xF1 ? "MTC Quarter Frame" : status == 0xF2 ? "Song Position" : status == 0xF3 ? "Song Select" : "message"
        }
    }

    private mutating func report(_ byte: UInt8?, at offset: Int, _ messages: [String]) {
        for message in messages {
            switch format {
            case .text:
                errorOutput.append(errorPrefix + "offset \(offset), " + (byte.map { "byte \(hexString([$0]))" } ?? "end of input") + ": " + message + "\n")
            case .json:
                var fields: [(key: String, value: JSONValue)] = [("type", .string("error")), ("offset", .int(offset))]
                if let byte { fields.append(("byte", .string(hexString([byte])))) }
                fields.append(("message", .string(message)))
                output.append(MIDIJSON.object(fields) + "\n")
            }
        }
    }
}
