/// Writes the lines of `backbeat decode` straight into bytes: the same text as ``MonitorFormatter/line(_:index:)``
/// and the same JSON as ``MIDIMessage/json``, without building a `MIDIMessage` or a `String` per message.
/// Every name (types, notes, controllers, programs) is rendered once, at init, by the formatters above, so
/// the two cannot drift apart; the tests compare them message by message.
public struct MessageLineWriter: ~Copyable {
    /// Width of the columns of ``MonitorFormatter/line(_:index:)``.
    static let indexWidth = 6, typeWidth = 18, channelWidth = 6, detailsWidth = 40

    /// Padded type column, by status byte (index 256: "Channel Mode", control changes 120...127).
    private let typeFields: PhraseTable
    /// Padded channel column: "ch 1  " ... "ch 16 ", and 6 spaces (index 16) for system messages.
    private let channelFields: PhraseTable
    /// "C4 (60)" ... for notes 0...127.
    private let notes: PhraseTable
    /// "7 Channel Volume = " ... for controllers 0...127.
    private let controllers: PhraseTable
    /// "0 Acoustic Grand Piano" ... for programs 0...127.
    private let programs: PhraseTable
    /// `{"type":"note-on","channel":` ... by status byte: the JSON object up to its first value.
    private let jsonHeads: PhraseTable
    /// "0" ... "255": every data value is one of these (appending them beats dividing by ten).
    private let numbers = PhraseTable((0...255).map { String($0) })
    /// The last index written, as digits, counted up in place (indexes go 1, 2, 3...).
    private let indexDigits: UnsafeMutablePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 20)
        p.initialize(repeating: 0x20, count: 20)
        return p
    }()
    private var lastIndex = 0

    deinit { indexDigits.deallocate() }
    /// The fixed pieces, by ``Phrase``.
    private let phrases = PhraseTable(Phrase.allCases.map(\.text))

    @inline(__always) private func phrase(_ p: Phrase) -> UnsafeBufferPointer<UInt8> { phrases[p.rawValue] }

    public init(middleC: MiddleC) {
        let formatter = MonitorFormatter(middleC: middleC)
        func pad(_ s: String, _ width: Int) -> String {
            s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
        }
        var types: [String] = []
        var heads: [String] = []
        for status in 0...255 {
            let short = ShortMessage(status: UInt8(status), data1: 0, data2: 0)
            if status >= 0x80, let message = MIDIMessage(short) {
                types.append(pad(formatter.typeName(message), Self.typeWidth))
                var head = "{\"type\":" + MIDIJSON.quote(message.jsonType)
                if let channel = message.channel { head += ",\"channel\":\(Int(channel & 0x0F) + 1)" }
                heads.append(head)
            } else {
                types.append(pad("", Self.typeWidth))
                heads.append("{\"type\":\"sysex\"")
            }
        }
        types.append(pad("Channel Mode", Self.typeWidth))
        typeFields = PhraseTable(types)
        jsonHeads = PhraseTable(heads)
        channelFields = PhraseTable((1...16).map { pad("ch \($0)", Self.channelWidth) } + [pad("", Self.channelWidth)])
        notes = PhraseTable((0...127).map { "\(NoteName.name(of: UInt8($0), middleC: middleC)) (\($0))" })
        controllers = PhraseTable((0...127).map { c in
            "\(c)\(GeneralMIDI.controllerName(UInt8(c)).map { " " + $0 } ?? "") = "
        })
        programs = PhraseTable((0...127).map { "\($0) \(GeneralMIDI.programName(UInt8($0)))" })
    }

    // MARK: Text

    /// One monitor line of a short message, with its 1-based index, and a newline.
    public mutating func writeText(_ m: ShortMessage, index: Int, into out: inout OutputBytes) {
        writeIndex(index, into: &out)
        let status = m.status
        let isModeMessage = status & 0xF0 == 0xB0 && m.data1 >= 120
        out.append(typeFields[isModeMessage ? 256 : Int(status)])
        out.append(channelFields[status < 0xF0 ? Int(status & 0x0F) : 16])
        let detailsStart = out.count
        switch status & 0xF0 {
        case 0x80:
            out.append(notes[Int(m.data1)]); out.append(phrase(.velocity)); out.append(numbers[Int(m.data2)])
        case 0x90:
            out.append(notes[Int(m.data1)]); out.append(phrase(.velocity)); out.append(numbers[Int(m.data2)])
            if m.data2 == 0 { out.append(phrase(.off)) }
        case 0xA0:
            out.append(notes[Int(m.data1)]); out.append(phrase(.spacePressure)); out.append(numbers[Int(m.data2)])
        case 0xB0:
            out.append(controllers[Int(m.data1)]); out.append(numbers[Int(m.data2)])
        case 0xC0:
            out.append(programs[Int(m.data1)])
        case 0xD0:
            out.append(phrase(.pressure)); out.append(numbers[Int(m.data1)])
        case 0xE0:
            out.append(phrase(.bend)); out.appendDecimal((Int(m.data2) << 7 | Int(m.data1)) - 8192)
        default:
            switch status {
            case 0xF1:
                out.append(phrase(.piece)); out.append(numbers[Int((m.data1 >> 4) & 0x07)])
                out.append(phrase(.value)); out.append(numbers[Int(m.data1 & 0x0F)])
            case 0xF2: out.append(phrase(.position)); out.appendDecimal(Int(m.data2) << 7 | Int(m.data1))
            case 0xF3: out.append(phrase(.song)); out.append(numbers[Int(m.data1)])
            default: break
            }
        }
        padDetails(from: detailsStart, into: &out)
        out.appendHex(status)
        let dataBytes = status < 0xF0 ? ((status & 0xE0) == 0xC0 ? 1 : 2) : (status == 0xF2 ? 2 : status == 0xF1 || status == 0xF3 ? 1 : 0)
        if dataBytes >= 1 { out.append(0x20); out.appendHex(m.data1) }
        if dataBytes == 2 { out.append(0x20); out.appendHex(m.data2) }
        out.append(0x0A)
    }

    /// One monitor line of a sysex, all of its bytes in hex, and a newline.
    public mutating func writeText(_ sysex: SysexView, index: Int, into out: inout OutputBytes) {
        writeIndex(index, into: &out)
        out.append(phrase(.sysexType))
        out.append(channelFields[16])
        let detailsStart = out.count
        out.appendDecimal(sysex.bytes.count); out.append(phrase(.bytes))
        if !sysex.isTerminated { out.append(phrase(.unterminated)) }
        if sysex.isTruncated { out.append(phrase(.truncated)) }
        padDetails(from: detailsStart, into: &out)
        out.reserve(3 &* (sysex.bytes.count &+ 2))
        out.appendHex(0xF0)
        for byte in sysex.bytes { out.append(0x20); out.appendHex(byte & 0x7F) }
        if sysex.isTerminated { out.append(0x20); out.appendHex(0xF7) }
        out.append(0x0A)
    }

    /// The index right-aligned in its column, then two spaces.
    private mutating func writeIndex(_ index: Int, into out: inout OutputBytes) {
        if index == lastIndex &+ 1 && index > 0 {
            var i = 19  // count up: "9" carries into the digit before it
            while i >= 0 {
                let d = indexDigits[i]
                if d == 0x39 { indexDigits[i] = 0x30; i -= 1; continue }
                indexDigits[i] = d == 0x20 ? 0x31 : d &+ 1
                break
            }
        } else {
            let digits = Array(String(index).utf8).suffix(20)
            indexDigits.update(repeating: 0x20, count: 20)
            (indexDigits + 20 - digits.count).update(from: Array(digits), count: digits.count)
        }
        lastIndex = index
        let width = min(20, max(Self.indexWidth, OutputBytes.decimalWidth(index) + (index < 0 ? 1 : 0)))
        out.append(UnsafeBufferPointer(start: indexDigits + 20 - width, count: width))
        out.append(repeating: 0x20, count: 2)
    }

    /// Pads the details column to its width, or adds one space when it is full (as `MonitorFormatter`).
    private func padDetails(from start: Int, into out: inout OutputBytes) {
        let written = out.count - start
        out.append(repeating: 0x20, count: written >= Self.detailsWidth ? 1 : Self.detailsWidth - written)
    }

    // MARK: JSON

    /// One JSON object of a short message, and a newline.
    public func writeJSON(_ m: ShortMessage, into out: inout OutputBytes) {
        let status = m.status
        out.append(jsonHeads[Int(status)])
        switch status & 0xF0 {
        case 0x80, 0x90:
            out.append(phrase(.jsonNote)); out.append(numbers[Int(m.data1)])
            out.append(phrase(.jsonVelocity)); out.append(numbers[Int(m.data2)])
        case 0xA0:
            out.append(phrase(.jsonNote)); out.append(numbers[Int(m.data1)])
            out.append(phrase(.jsonPressure)); out.append(numbers[Int(m.data2)])
        case 0xB0:
            out.append(phrase(.jsonController)); out.append(numbers[Int(m.data1)])
            out.append(phrase(.jsonValue)); out.append(numbers[Int(m.data2)])
        case 0xC0: out.append(phrase(.jsonProgram)); out.append(numbers[Int(m.data1)])
        case 0xD0: out.append(phrase(.jsonPressure)); out.append(numbers[Int(m.data1)])
        case 0xE0: out.append(phrase(.jsonBend)); out.appendDecimal((Int(m.data2) << 7 | Int(m.data1)) - 8192)
        default:
            switch status {
            case 0xF1: out.append(phrase(.jsonFrame)); out.append(numbers[Int(m.data1)])
            case 0xF2: out.append(phrase(.jsonPosition)); out.appendDecimal(Int(m.data2) << 7 | Int(m.data1))
            case 0xF3: out.append(phrase(.jsonSong)); out.append(numbers[Int(m.data1)])
            default: break
            }
        }
        out.append(0x7D); out.append(0x0A)
    }

    /// One JSON object of a sysex (payload as contiguous uppercase hex), and a newline.
    public func writeJSON(_ sysex: SysexView, into out: inout OutputBytes) {
        out.append(phrase(.jsonSysex))
        out.reserve(2 &* sysex.bytes.count)
        for byte in sysex.bytes { out.appendHex(byte) }
        out.append(sysex.isTerminated ? phrase(.jsonTerminatedTrue) : phrase(.jsonTerminatedFalse))
        out.append(sysex.isTruncated ? phrase(.jsonTruncatedTrue) : phrase(.jsonTruncatedFalse))
    }
}

/// Fixed pieces of the lines (their text: ``Phrase/text``), looked up in the writer's ``PhraseTable``.
enum Phrase: Int, CaseIterable {
    case velocity, off, spacePressure, pressure, bend, piece, value, position, song, sysexType, bytes, unterminated, truncated, jsonNote, jsonVelocity, jsonPressure, jsonController, jsonValue, jsonProgram, jsonBend, jsonFrame, jsonPosition, jsonSong, jsonSysex, jsonTerminatedTrue, jsonTerminatedFalse, jsonTruncatedTrue, jsonTruncatedFalse

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
        }
    }
}

/// Strings rendered once into one block of UTF-8, looked up by number.
struct PhraseTable: ~Copyable {
    private let storage: UnsafeMutablePointer<UInt8>
    private let starts: UnsafeMutablePointer<Int>
    private let total: Int

    init(_ strings: [String]) {
        let utf8 = strings.map { Array($0.utf8) }
        total = utf8.count
        starts = .allocate(capacity: utf8.count + 1)
        storage = .allocate(capacity: max(1, utf8.reduce(0) { $0 + $1.count }))
        var offset = 0
        for (i, bytes) in utf8.enumerated() {
            starts[i] = offset
            (storage + offset).initialize(from: bytes, count: bytes.count)
            offset += bytes.count
        }
        starts[utf8.count] = offset
    }

    deinit {
        storage.deallocate()
        starts.deallocate()
    }

    subscript(i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage + starts[i], count: starts[i + 1] - starts[i])
    }
}
