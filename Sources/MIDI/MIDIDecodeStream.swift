import TextOutput
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
    private var writer: MessageLineWriter
    private var hexReader: HexReader?
    /// See ``errorTexts(_:prefix:)``.
    private let errorTexts: PhraseTable
    /// At least the longest error line ``writeLine`` writes: four pieces of ``errorTexts``, two offsets, the byte.
    private let errorLineBound: Int
    private var sysexStart = 0
    private var offsetDigits = OffsetDigits()

    /// `errorPrefix` starts every text-mode error line ("backbeat decode: ").
    public init(format: Format, middleC: MiddleC = .c4, hex: Bool = false, errorPrefix: String = "",
                sysexLimit: Int = MIDIParser.defaultSysexLimit) {
        self.format = format
        parser = MIDIParser(sysexLimit: sysexLimit)
        writer = MessageLineWriter(middleC: middleC)
        hexReader = hex ? HexReader() : nil
        errorTexts = Self.errorTexts(format, prefix: errorPrefix)
        errorLineBound = 4 * errorTexts.maxCount + 2 * 20 + 2
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
        if !parser.isIdle { reportEndOfInput() }
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

    /// Appends the summary: `N messages, E errors` (`1 message, 1 error`), or the JSON summary object.
    public mutating func writeSummary() {
        switch format {
        case .text:
            output.appendDecimal(messageCount); output.append(messageCount == 1 ? " message, " : " messages, ")
            output.appendDecimal(errorCount); output.append(errorCount == 1 ? " error\n" : " errors\n")
        case .json:
            output.append(JSONText.summary(messages: messageCount, errors: errorCount) + "\n")
        }
    }

    // MARK: The loop

    /// Byte by byte through the parser's step, so that every error is seen where it happens.
    private mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let p = bytes.baseAddress else { return }
        for i in 0..<bytes.count {
            let b = p[i]
            let errorsBefore = parser.errors
            let offset = bytesDecoded &+ i
            if b < 0x80 {
                // Half of random input: a data byte completes a message or waits for the next, and the one
                // error it can be is a data byte with no status before it; no state to keep for a report.
                if case .message(let m) = parser.step(b) { emit(m) }
                if parser.errors != errorsBefore { writeFixed(Problem.strayData.fixedIndex!, byte: b, at: offset) }
                continue
            }
            let before = ParserState(parser)
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
                reportProblems(b, at: offset, before: before, count: parser.errors &- errorsBefore)
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

    /// One error.
    private enum Problem {
        case strayData, undefinedRealtime, strayEndOfExclusive, undefinedStatus
        case sysexInterrupted(start: Int), sysexAtEnd(start: Int)
        /// A message `status` missing data bytes, cut short by a status byte or by the end of the input.
        case incomplete(status: UInt8, missing: Int, atEnd: Bool)

        var message: String {
            switch self {
            case .strayData: "data byte with no status byte before it (no running status): expected a status byte"
            case .undefinedRealtime: "undefined real-time status byte: skipped"
            case .strayEndOfExclusive: "F7 (end of exclusive) with no sysex to end: skipped"
            case .undefinedStatus: "undefined status byte: skipped, and running status cancelled"
            case .sysexInterrupted(let start): "the sysex from offset \(start) ended without F7: expected data bytes or F7 (end of exclusive)"
            case .sysexAtEnd(let start): "the input ended inside the sysex from offset \(start): expected F7 (end of exclusive)"
            case .incomplete(let status, let missing, let atEnd):
                (atEnd ? "the input ended inside a message: " : "") + MIDIDecodeStream.typeName(status)
                    + " (\(hexString([status]))) incomplete: expected \(missing) more data byte\(missing == 1 ? "" : "s")"
                    + (atEnd ? "" : ", got a status byte")
            }
        }

        /// Where the interrupted-sysex line's ending is in ``errorTexts(_:prefix:)``: before and after its start offset.
        static let sysexInterruptedTexts = 5 + 256 * 2
        /// Where the text between the offset and the byte is in ``errorTexts(_:prefix:)``.
        static let byteText = sysexInterruptedTexts + 2

        /// Where the problem's line ending is in ``errorTexts(_:prefix:)`` when it is one of the frequent, fixed ones.
        @inline(__always) var fixedIndex: Int? {
            switch self {
            case .strayData: 1
            case .undefinedRealtime: 2
            case .strayEndOfExclusive: 3
            case .undefinedStatus: 4
            case .incomplete(let status, let missing, false) where missing == 1 || missing == 2: 5 + Int(status) * 2 + missing - 1
            default: nil
            }
        }
    }

    /// The lines of frequent errors rendered once (random input has an error every three bytes): index 0 is
    /// the start of a line up to the offset, then the ends of the lines after the byte, by
    /// ``Problem/fixedIndex``.
    private static func errorTexts(_ format: Format, prefix: String) -> PhraseTable {
        func ending(_ problem: Problem) -> String {
            format == .text ? ": " + problem.message + "\n" : "\",\"message\":" + JSONText.quote(problem.message) + "}\n"
        }
        var texts = [format == .text ? prefix + "offset " : "{\"type\":\"error\",\"offset\":"]
        texts += [Problem.strayData, .undefinedRealtime, .strayEndOfExclusive, .undefinedStatus].map(ending)
        for status in 0...255 {
            for missing in 1...2 { texts.append(ending(.incomplete(status: UInt8(status), missing: missing, atEnd: false))) }
        }
        // An interrupted sysex (one in 256 random bytes starts one) around its start offset: the line's ending
        // split at the number, so that no String is built per error.
        let marker = -1
        let interrupted = ending(.sysexInterrupted(start: marker))
        let number = interrupted.firstRange(of: String(marker))!
        texts += [String(interrupted[..<number.lowerBound]), String(interrupted[number.upperBound...])]
        texts.append(format == .text ? ", byte " : ",\"byte\":\"")
        return PhraseTable(texts)
    }

    /// Reports the errors one byte caused, in the parser's order (a status byte can end a message and be
    /// bad itself); `count` is how many the parser counted.
    private mutating func reportProblems(_ b: UInt8, at offset: Int, before: ParserState, count: Int) {
        var reported = 0
        func report(_ problem: Problem) {
            guard reported < count else { return }
            reported += 1
            write(problem, byte: b, at: offset)
        }
        if b < 0x80 {
            report(.strayData)
        } else if b == 0xF9 || b == 0xFD {
            report(.undefinedRealtime)
        } else {
            if before.inSysex {
                report(.sysexInterrupted(start: sysexStart))
            } else if before.partial {
                report(.incomplete(status: before.status, missing: Int(before.needed) - Int(before.count), atEnd: false))
            }
            if b == 0xF7 && !before.inSysex { report(.strayEndOfExclusive) }
            if b == 0xF4 || b == 0xF5 { report(.undefinedStatus) }
        }
        while reported < count { report(.strayData) }  // not reached: every counted error has a case above
    }

    private mutating func reportEndOfInput() {
        let state = ParserState(parser)
        let problem: Problem = state.inSysex ? .sysexAtEnd(start: sysexStart)
            : .incomplete(status: state.status, missing: Int(state.needed) - Int(state.count), atEnd: true)
        write(problem, byte: nil, at: bytesDecoded)
    }

    /// Text: `<prefix>offset 12, byte F9: <message>`; JSON: `{"type":"error","offset":12,"byte":"F9","message":"..."}`.
    @inline(__always)  // at each call site the problem is known, and its line found without a switch
    private mutating func write(_ problem: Problem, byte: UInt8?, at offset: Int) {
        if let byte {
            if let fixed = problem.fixedIndex {
                writeFixed(fixed, byte: byte, at: offset)
                return
            }
            if case .sysexInterrupted(let start) = problem {
                switch format {
                case .text: Self.writeLine(errorTexts, byte: byte, at: offset, sysexStart: start, bound: errorLineBound, into: &errorOutput)
                case .json: Self.writeLine(errorTexts, byte: byte, at: offset, sysexStart: start, bound: errorLineBound, into: &output)
                }
                return
            }
        }
        writeRare(problem, byte: byte, at: offset)
    }

    /// The line of an error at the end of the input, built from the problem's message.
    @inline(never)
    private mutating func writeRare(_ problem: Problem, byte: UInt8?, at offset: Int) {
        switch format {  // not reached with a byte: every error a byte causes has a line in `write`
        case .text:
            errorOutput.append(errorTexts[0]); errorOutput.appendDecimal(offset)
            if let byte { errorOutput.append(", byte "); errorOutput.appendHex(byte) } else { errorOutput.append(", end of input") }
            errorOutput.append(": " + problem.message + "\n")
        case .json:
            output.append(errorTexts[0]); output.appendDecimal(offset)
            if let byte { output.append(",\"byte\":\""); output.appendHex(byte) }
            output.append((byte == nil ? "," : "\",") + "\"message\":" + JSONText.quote(problem.message) + "}\n")
        }
    }

    /// The line of an error whose message is fixed (see ``Problem/fixedIndex``).
    @inline(__always)
    private mutating func writeFixed(_ fixed: Int, byte: UInt8, at offset: Int) {
        switch format {
        case .text: Self.writeLine(errorTexts, byte: byte, at: offset, ending: fixed, bound: errorLineBound,
                                   digits: &offsetDigits, into: &errorOutput)
        case .json: Self.writeLine(errorTexts, byte: byte, at: offset, ending: fixed, bound: errorLineBound,
                                   digits: &offsetDigits, into: &output)
        }
    }

    /// The line of a frequent error: its start, the offset, the byte, the rest from ``errorTexts(_:prefix:)``
    /// (`ending`). One capacity check for the whole line (`bound` bytes at most), then unchecked stores.
    @inline(__always)
    private static func writeLine(_ texts: borrowing PhraseTable, byte: UInt8, at offset: Int, ending: Int, bound: Int,
                                  digits: inout OffsetDigits, into out: inout OutputBytes) {
        var c = out.cursor(reserving: bound)
        c.put(texts[0]); digits.put(offset, into: &c)
        c.put(texts[Problem.byteText]); c.putHex(byte)
        c.put(texts[ending])
        out.advance(to: c)
    }

    /// The line of an interrupted sysex, whose message has the sysex's start offset in it.
    private static func writeLine(_ texts: borrowing PhraseTable, byte: UInt8, at offset: Int, sysexStart: Int, bound: Int,
                                  into out: inout OutputBytes) {
        var c = out.cursor(reserving: bound)
        c.put(texts[0]); c.putDecimal(UInt(bitPattern: offset))
        c.put(texts[Problem.byteText]); c.putHex(byte)
        c.put(texts[Problem.sysexInterruptedTexts]); c.putDecimal(UInt(bitPattern: sysexStart))
        c.put(texts[Problem.sysexInterruptedTexts + 1])
        out.advance(to: c)
    }

    static func typeName(_ status: UInt8) -> String {
        switch status {
        case SystemStatus.timeCodeQuarterFrame: "MTC Quarter Frame"
        case SystemStatus.songPosition: "Song Position"
        case SystemStatus.songSelect: "Song Select"
        default: ShortMessage(status: status).isChannelMessage ? MessageKind(status: status).description : "message"
        }
    }
}
