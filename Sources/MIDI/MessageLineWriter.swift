import Realtime
import TextOutput

/// Writes the lines of `backbeat decode` straight into bytes: the same text as ``MonitorFormatter/line(_:index:)``
/// and the same JSON as ``MIDIMessage/json``, without building a `MIDIMessage` or a `String` per message.
/// Every name (types, notes, controllers, programs) is rendered once, at init, by the formatters above, so
/// the two cannot drift apart; the tests compare them message by message.
public struct MessageLineWriter: ~Copyable {
    /// Width of the columns of ``MonitorFormatter/line(_:index:)``.
    static let indexWidth = 6, typeWidth = 18, channelWidth = 6, detailsWidth = 40

    /// Padded type and channel columns together, by status byte; 256 + channel: a "Channel Mode" line
    /// (control changes 120...127).
    private let heads: PhraseTable
    /// Padded channel column: "ch 1  " ... "ch 16 ", and 6 spaces (index 16) for system messages.
    private let channelFields: PhraseTable
    /// "C4 (60) velocity " ... and "C4 (60) pressure " for notes 0...127: a note line's details but its value.
    private let noteVelocities: PhraseTable
    private let notePressures: PhraseTable
    /// "7 Channel Volume = " ... for controllers 0...127.
    private let controllers: PhraseTable
    /// "0 Acoustic Grand Piano" ... for programs 0...127.
    private let programs: PhraseTable
    /// `{"type":"note-on","channel":` ... by status byte: the JSON object up to its first value.
    private let jsonHeads: PhraseTable
    /// 0 ... 255 (every data value is one of these) as digits in the low bytes of a word, the number of
    /// digits in its top byte: one 8-byte store writes a value.
    private let numberWords: FixedArray<UInt64>
    /// The last index written, as digits right-aligned in 20 bytes, then two spaces, counted up in place
    /// (indexes go 1, 2, 3...); 48 bytes so that a cursor may copy 32 from the field's start (at 14 or before).
    private let indexDigits: FixedArray<UInt8>
    private var lastIndex = 0
    /// The width of the index column for `lastIndex` (at least ``indexWidth``).
    private var indexFieldWidth = MessageLineWriter.indexWidth
    /// Upper bounds of a short message's text line and JSON object, for ``OutputBytes/cursor(reserving:)``.
    private let textLineBound: Int, jsonLineBound: Int
    /// The fixed pieces, by ``Phrase``.
    private let phrases = PhraseTable(Phrase.allCases.map(\.text))

    @inline(__always) private func phrase(_ p: Phrase) -> UnsafeBufferPointer<UInt8> { phrases[p.rawValue] }

    public init(middleC: MiddleC) {
        let formatter = MonitorFormatter(middleC: middleC)
        func pad(_ s: String, _ width: Int) -> String {
            s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
        }
        let channels = (1...16).map { pad("ch \($0)", Self.channelWidth) } + [pad("", Self.channelWidth)]
        var types: [String] = []
        var jsonHeads: [String] = []
        for status in 0...255 {
            let short = ShortMessage(status: UInt8(status), data1: 0, data2: 0)
            let channel = channels[status < 0xF0 ? status & 0x0F : 16]
            if let message = MIDIMessage(short) {
                types.append(pad(formatter.typeName(message), Self.typeWidth) + channel)
                var head = "{\"type\":" + JSONText.quote(message.jsonType)
                if let channel = message.channel { head += ",\"channel\":\(Int(channel & 0x0F) + 1)" }
                jsonHeads.append(head)
            } else {
                types.append(pad("", Self.typeWidth) + channel)
                jsonHeads.append("{\"type\":\"sysex\"")
            }
        }
        types += channels.prefix(16).map { pad("Channel Mode", Self.typeWidth) + $0 }
        heads = PhraseTable(types)
        self.jsonHeads = PhraseTable(jsonHeads)
        channelFields = PhraseTable(channels)
        let notes = (0...127).map { "\(NoteName.name(of: UInt8($0), middleC: middleC)) (\($0))" }
        noteVelocities = PhraseTable(notes.map { $0 + " velocity " })
        notePressures = PhraseTable(notes.map { $0 + " pressure " })
        controllers = PhraseTable((0...127).map { c in
            "\(c)\(GeneralMIDI.controllerName(UInt8(c)).map { " " + $0 } ?? "") = "
        })
        programs = PhraseTable((0...127).map { "\($0) \(GeneralMIDI.programName(UInt8($0)))" })
        // Index (20 digits and 2 spaces), the columns, the longest details (a note-on's with " (off)"; the
        // other kinds are at most 30 bytes) and a space, three bytes of hex and the newline.
        let details = max(Self.detailsWidth, noteVelocities.maxCount + 9, notePressures.maxCount + 3,
                          controllers.maxCount + 3, programs.maxCount, 30)
        textLineBound = 22 + heads.maxCount + details + 1 + 9
        jsonLineBound = self.jsonHeads.maxCount + 2 * 20 + 2 * 21 + 2
        numberWords = FixedArray(count: 256) { v in
            let digits = Array(String(v).utf8)
            var word = UInt64(digits.count) << 56
            for (i, d) in digits.enumerated() { word |= UInt64(d) << (8 * i) }
            return word
        }
        indexDigits = FixedArray(48, 0x20)
    }

    // MARK: Text

    /// One monitor line of a short message, with its 1-based index, and a newline.
    public mutating func writeText(_ m: ShortMessage, index: Int, into out: inout OutputBytes) {
        var c = out.cursor(reserving: textLineBound)
        writeIndex(index, into: &c)
        let status = m.status
        let isModeMessage = m.kind == .controlChange && Controller(rawValue: m.data1).isChannelMode
        c.put(heads[isModeMessage ? 256 + Int(status & 0x0F) : Int(status)])
        let detailsEnd = c.p + Self.detailsWidth
        switch m.kind {
        case .noteOff:
            c.put(noteVelocities[Int(m.data1)]); putNumber(m.data2, &c)
        case .noteOn:
            c.put(noteVelocities[Int(m.data1)]); putNumber(m.data2, &c)
            if m.data2 == 0 { c.put(phrase(.off)) }
        case .polyPressure:
            c.put(notePressures[Int(m.data1)]); putNumber(m.data2, &c)
        case .controlChange:
            c.put(controllers[Int(m.data1)]); putNumber(m.data2, &c)
        case .programChange:
            c.put(programs[Int(m.data1)])
        case .channelPressure:
            c.put(phrase(.pressure)); putNumber(m.data1, &c)
        case .pitchBend:
            c.put(phrase(.bend)); c.putDecimal((Int(m.data2) << 7 | Int(m.data1)) - 8192)
        default:
            switch status {
            case SystemStatus.timeCodeQuarterFrame:
                c.put(phrase(.piece)); putNumber((m.data1 >> 4) & 0x07, &c)
                c.put(phrase(.value)); putNumber(m.data1 & 0x0F, &c)
            case SystemStatus.songPosition: c.put(phrase(.position)); c.putDecimal(Int(m.data2) << 7 | Int(m.data1))
            case SystemStatus.songSelect: c.put(phrase(.song)); putNumber(m.data1, &c)
            default: break
            }
        }
        c.pad(to: detailsEnd)
        // "SS D1 D2" in one word; the line ends after the status and its data bytes.
        let dataBytes = m.dataByteCount
        let spaceHex1 = UInt64(0x20 | UInt32(ByteCursor.hexPair(m.data1)) << 8)
        let spaceHex2 = UInt64(0x20 | UInt32(ByteCursor.hexPair(m.data2)) << 8)
        c.put(word: UInt64(ByteCursor.hexPair(status)) | spaceHex1 << 16 | spaceHex2 << 40, count: 2 &+ 3 &* dataBytes)
        c.put(0x0A)
        out.advance(to: c)
    }

    /// A data value (0...255) in decimal.
    @inline(__always) private func putNumber(_ v: UInt8, _ c: inout ByteCursor) {
        let word = numberWords[Int(v)]
        c.put(word: word, count: Int(truncatingIfNeeded: word >> 56))
    }

    /// One monitor line of a sysex, all of its bytes in hex, and a newline.
    public mutating func writeText(_ sysex: SysexView, index: Int, into out: inout OutputBytes) {
        var c = out.cursor(reserving: 22 + phrase(.sysexType).count + Self.channelWidth + 21
                                      + phrase(.bytes).count + phrase(.unterminated).count + phrase(.truncated).count
                                      + Self.detailsWidth + 1)
        writeIndex(index, into: &c)
        c.put(phrase(.sysexType))
        c.put(channelFields[16])
        let detailsEnd = c.p + Self.detailsWidth
        c.putDecimal(sysex.bytes.count); c.put(phrase(sysex.bytes.count == 1 ? .byte : .bytes))
        if !sysex.isTerminated { c.put(phrase(.unterminated)) }
        if sysex.isTruncated { c.put(phrase(.truncated)) }
        c.pad(to: detailsEnd)
        out.advance(to: c)
        out.reserve(3 &* (sysex.bytes.count &+ 2))
        out.appendHex(0xF0)
        for byte in sysex.bytes { out.append(0x20); out.appendHex(byte & 0x7F) }
        if sysex.isTerminated { out.append(0x20); out.appendHex(0xF7) }
        out.append(0x0A)
    }

    /// The index right-aligned in its column, then two spaces.
    ///
    /// The field is copied before it is counted up, and the new last digit stored into the line: a
    /// 16-byte load of bytes just stored one by one waits for those stores (no store forwarding), which
    /// made this copy the most expensive instruction of the line. Only a carry copies the field again.
    @inline(__always)
    private mutating func writeIndex(_ index: Int, into c: inout ByteCursor) {
        if index == lastIndex &+ 1 && index > 0 {
            let field = c.p
            c.put(UnsafeBufferPointer(start: indexDigits.baseAddress + 20 - indexFieldWidth, count: indexFieldWidth + 2))
            lastIndex = index
            let last = indexDigits[19]
            if last != 0x39 && last != 0x20 {
                indexDigits[19] = last &+ 1
                (field + indexFieldWidth - 1).pointee = last &+ 1
                return
            }
            var i = 19  // count up: "9" carries into the digit before it
            while true {
                let d = indexDigits[i]
                if d == 0x39 { indexDigits[i] = 0x30; i -= 1; continue }
                indexDigits[i] = d == 0x20 ? 0x31 : d &+ 1
                if d == 0x20 && 20 - i > indexFieldWidth { indexFieldWidth = 20 - i }  // one digit more
                break
            }
            c.p = field
        } else {
            writeIndexDigits(index)
            lastIndex = index
        }
        c.put(UnsafeBufferPointer(start: indexDigits.baseAddress + 20 - indexFieldWidth, count: indexFieldWidth + 2))
    }

    /// An index that does not follow the last one: its digits from scratch.
    private mutating func writeIndexDigits(_ index: Int) {
        let digits = Array(String(index).utf8).suffix(20)
        indexDigits.baseAddress.update(repeating: 0x20, count: 20)
        (indexDigits.baseAddress + 20 - digits.count).update(from: Array(digits), count: digits.count)
        indexFieldWidth = min(20, max(Self.indexWidth, OutputBytes.decimalWidth(index) + (index < 0 ? 1 : 0)))
    }

    // MARK: JSON

    /// One JSON object of a short message, and a newline. (Mutating only so that a call borrows the writer
    /// in place: called as non-mutating on a stored writer, the compiler copied all of it per message.)
    public mutating func writeJSON(_ m: ShortMessage, into out: inout OutputBytes) {
        var c = out.cursor(reserving: jsonLineBound)
        let status = m.status
        c.put(jsonHeads[Int(status)])
        switch m.kind {
        case .noteOff, .noteOn:
            c.put(phrase(.jsonNote)); putNumber(m.data1, &c)
            c.put(phrase(.jsonVelocity)); putNumber(m.data2, &c)
        case .polyPressure:
            c.put(phrase(.jsonNote)); putNumber(m.data1, &c)
            c.put(phrase(.jsonPressure)); putNumber(m.data2, &c)
        case .controlChange:
            c.put(phrase(.jsonController)); putNumber(m.data1, &c)
            c.put(phrase(.jsonValue)); putNumber(m.data2, &c)
        case .programChange: c.put(phrase(.jsonProgram)); putNumber(m.data1, &c)
        case .channelPressure: c.put(phrase(.jsonPressure)); putNumber(m.data1, &c)
        case .pitchBend: c.put(phrase(.jsonBend)); c.putDecimal((Int(m.data2) << 7 | Int(m.data1)) - 8192)
        default:
            switch status {
            case SystemStatus.timeCodeQuarterFrame: c.put(phrase(.jsonFrame)); putNumber(m.data1, &c)
            case SystemStatus.songPosition: c.put(phrase(.jsonPosition)); c.putDecimal(Int(m.data2) << 7 | Int(m.data1))
            case SystemStatus.songSelect: c.put(phrase(.jsonSong)); putNumber(m.data1, &c)
            default: break
            }
        }
        c.put(word: 0x0A7D, count: 2)  // "}\n"
        out.advance(to: c)
    }

    /// One JSON object of a sysex (payload as contiguous uppercase hex), and a newline.
    public mutating func writeJSON(_ sysex: SysexView, into out: inout OutputBytes) {
        out.append(phrase(.jsonSysex))
        out.reserve(2 &* sysex.bytes.count)
        for byte in sysex.bytes { out.appendHex(byte) }
        out.append(sysex.isTerminated ? phrase(.jsonTerminatedTrue) : phrase(.jsonTerminatedFalse))
        out.append(sysex.isTruncated ? phrase(.jsonTruncatedTrue) : phrase(.jsonTruncatedFalse))
    }
}

/// Fixed pieces of the lines (their text: ``Phrase/text``), looked up in the writer's ``PhraseTable``.
enum Phrase: Int, CaseIterable {
    case velocity, off, spacePressure, pressure, bend, piece, value, position, song, sysexType, bytes, unterminated, truncated, jsonNote, jsonVelocity, jsonPressure, jsonController, jsonValue, jsonProgram, jsonBend, jsonFrame, jsonPosition, jsonSong, jsonSysex, jsonTerminatedTrue, jsonTerminatedFalse, jsonTruncatedTrue, jsonTruncatedFalse, byte

    var text: String {
        switch self {
        case .velocity: " velocity "
        case .off: " (off)"
        case .spacePressure: " pressure "
        case .pressure: "pressure "
        case .bend: "bend "
        case .piece: "piece "
        case .value: " value "
        case .position: "position "
        case .song: "song "
        case .sysexType: "SysEx" + String(repeating: " ", count: MessageLineWriter.typeWidth - 5)
        case .bytes: " bytes"
        case .unterminated: ", unterminated"
        case .truncated: ", truncated"
        case .jsonNote: ",\"note\":"
        case .jsonVelocity: ",\"velocity\":"
        case .jsonPressure: ",\"pressure\":"
        case .jsonController: ",\"controller\":"
        case .jsonValue: ",\"value\":"
        case .jsonProgram: ",\"program\":"
        case .jsonBend: ",\"bend\":"
        case .jsonFrame: ",\"frame\":"
        case .jsonPosition: ",\"position\":"
        case .jsonSong: ",\"song\":"
        case .jsonSysex: "{\"type\":\"sysex\",\"data\":\""
        case .jsonTerminatedTrue: "\",\"terminated\":true"
        case .jsonTerminatedFalse: "\",\"terminated\":false"
        case .jsonTruncatedTrue: ",\"truncated\":true}\n"
        case .jsonTruncatedFalse: ",\"truncated\":false}\n"
        case .byte: " byte"
        }
    }
}
