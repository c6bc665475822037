import TextOutput
// How messages are shown: one JSON object per message (a contract other tools read) and one monitor line.
// Shared by `backbeat decode` and `backbeat monitor`.

extension JSONText {
    /// The closing line of a decode: `{"type":"summary","messages":N,"errors":E}`.
    public static func summary(messages: Int, errors: Int) -> String {
        object([("type", .string("summary")), ("messages", .int(messages)), ("errors", .int(errors))])
    }
}

/// A count and its noun in the form the count takes: "1 note", "3 notes", "0 notes" (`plural` for a noun whose
/// plural is not the noun and "s"). Every summary line says counts so.
public func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}

/// Uppercase hex pairs separated by spaces: "F0 7E 7F".
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789ABCDEF")
    var out = ""
    for byte in bytes {
        if !out.isEmpty { out.append(" ") }
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return out
}

extension MIDIMessage {
    /// The `type` of the JSON output: note-on, note-off, poly-pressure, control-change, program-change,
    /// channel-pressure, pitch-bend, sysex, mtc-quarter-frame, song-position, song-select, tune-request,
    /// clock, start, continue, stop, active-sensing, reset.
    public var jsonType: String {
        switch self {
        case .noteOff: "note-off"
        case .noteOn: "note-on"
        case .polyPressure: "poly-pressure"
        case .controlChange: "control-change"
        case .programChange: "program-change"
        case .channelPressure: "channel-pressure"
        case .pitchBend: "pitch-bend"
        case .systemExclusive: "sysex"
        case .mtcQuarterFrame: "mtc-quarter-frame"
        case .songPosition: "song-position"
        case .songSelect: "song-select"
        case .tuneRequest: "tune-request"
        case .timingClock: "clock"
        case .start: "start"
        case .continue: "continue"
        case .stop: "stop"
        case .activeSensing: "active-sensing"
        case .systemReset: "reset"
        }
    }

    /// The ordered fields of this message's JSON object: `type`, then `channel` (1...16) for channel messages,
    /// then `note`, `velocity`, `controller`, `value`, `program`, `pressure`, `bend` (-8192...8191),
    /// `position`, `song`, `frame` (the MTC data byte), `data` (sysex payload as hex, without F0/F7),
    /// `terminated` and `truncated` (sysex), as they apply. A monitor appends its own fields (time...).
    public var jsonFields: [(key: String, value: JSONValue)] {
        var fields: [(key: String, value: JSONValue)] = [("type", .string(jsonType))]
        if let channel { fields.append(("channel", .int(Int(channel & 0x0F) + 1))) }
        switch self {
        case .noteOff(let m):
            fields += [("note", .int(Int(m.note))), ("velocity", .int(Int(m.velocity)))]
        case .noteOn(let m):
            fields += [("note", .int(Int(m.note))), ("velocity", .int(Int(m.velocity)))]
        case .polyPressure(let m):
            fields += [("note", .int(Int(m.note))), ("pressure", .int(Int(m.pressure)))]
        case .controlChange(let m):
            fields += [("controller", .int(Int(m.controller))), ("value", .int(Int(m.value)))]
        case .programChange(let m): fields.append(("program", .int(Int(m.program))))
        case .channelPressure(let m): fields.append(("pressure", .int(Int(m.pressure))))
        case .pitchBend(let m): fields.append(("bend", .int(m.bend)))
        case .systemExclusive(let m):
            fields += [("data", .string(hexString(m.data).filter { $0 != " " })),
                       ("terminated", .bool(m.isTerminated)), ("truncated", .bool(m.isTruncated))]
        case .mtcQuarterFrame(let m): fields.append(("frame", .int(Int(m.dataByte))))
        case .songPosition(let m): fields.append(("position", .int(Int(m.position))))
        case .songSelect(let m): fields.append(("song", .int(Int(m.song))))
        case .tuneRequest, .timingClock, .start, .continue, .stop, .activeSensing, .systemReset: break
        }
        return fields
    }

    /// This message as one line of JSON (see ``jsonFields``).
    public var json: String { JSONText.object(jsonFields) }
}

/// The human-readable line of a MIDI monitor, in columns: index, type, channel, description, raw bytes.
///
///     "     1  Note On           ch 1   C4 (60) velocity 100                     90 3C 64"
public struct MonitorFormatter: Sendable {
    /// Octave numbering of note names.
    public var middleC: MiddleC
    /// Raw bytes shown at most (longer sysex end in "..."); nil shows all.
    public var maxRawBytes: Int?

    public init(middleC: MiddleC = .c4, maxRawBytes: Int? = nil) {
        self.middleC = middleC
        self.maxRawBytes = maxRawBytes
    }

    /// Name of the message type: "Note On", "Control Change", "SysEx", "Clock"...
    public func typeName(_ message: MIDIMessage) -> String {
        switch message {
        case .noteOff: "Note Off"
        case .noteOn: "Note On"
        case .polyPressure: "Poly Pressure"
        case .controlChange(let m): m.mode == nil ? "Control Change" : "Channel Mode"
        case .programChange: "Program Change"
        case .channelPressure: "Channel Pressure"
        case .pitchBend: "Pitch Bend"
        case .systemExclusive: "SysEx"
        case .mtcQuarterFrame: "MTC Quarter Frame"
        case .songPosition: "Song Position"
        case .songSelect: "Song Select"
        case .tuneRequest: "Tune Request"
        case .timingClock: "Clock"
        case .start: "Start"
        case .continue: "Continue"
        case .stop: "Stop"
        case .activeSensing: "Active Sensing"
        case .systemReset: "Reset"
        }
    }

    /// "ch 1" ... "ch 16", or "" for system messages.
    public func channelText(_ message: MIDIMessage) -> String {
        message.channel.map { "ch \(Int($0 & 0x0F) + 1)" } ?? ""
    }

    /// The values with names: "C4 (60) velocity 100", "7 Channel Volume = 100", "0 Acoustic Grand Piano"...
    public func details(_ message: MIDIMessage) -> String {
        func note(_ n: UInt8) -> String { "\(NoteName.name(of: n, middleC: middleC)) (\(n))" }
        switch message {
        case .noteOff(let m): return "\(note(m.note)) velocity \(m.velocity)"
        case .noteOn(let m): return "\(note(m.note)) velocity \(m.velocity)" + (m.velocity == 0 ? " (off)" : "")
        case .polyPressure(let m): return "\(note(m.note)) pressure \(m.pressure)"
        case .controlChange(let m):
            let name = GeneralMIDI.controllerName(m.controller).map { " " + $0 } ?? ""
            return "\(m.controller)\(name) = \(m.value)"
        case .programChange(let m): return "\(m.program) \(GeneralMIDI.programName(m.program))"
        case .channelPressure(let m): return "pressure \(m.pressure)"
        case .pitchBend(let m): return "bend \(m.bend)"
        case .systemExclusive(let m):
            var text = counted(m.data.count, "byte")
            if !m.isTerminated { text += ", unterminated" }
            if m.isTruncated { text += ", truncated" }
            return text
        case .mtcQuarterFrame(let m): return "piece \(m.pieceType) value \(m.value)"
        case .songPosition(let m): return "position \(m.position)"
        case .songSelect(let m): return "song \(m.song)"
        default: return ""
        }
    }

    /// The bytes of the message as hex, limited by ``maxRawBytes``.
    public func rawHex(_ message: MIDIMessage) -> String {
        let bytes = message.bytes
        if let maxRawBytes, bytes.count > maxRawBytes {
            return hexString(bytes.prefix(maxRawBytes)) + " ..."
        }
        return hexString(bytes)
    }

    /// One monitor line: index (if given), type, channel, details, raw hex, in padded columns.
    public func line(_ message: MIDIMessage, index: Int? = nil) -> String {
        func pad(_ s: String, _ width: Int) -> String {
            s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
        }
        var out = ""
        if let index {
            let number = String(index)
            out += String(repeating: " ", count: max(0, 6 - number.count)) + number + "  "
        }
        out += pad(typeName(message), 18) + pad(channelText(message), 6) + pad(details(message), 40)
        return out + rawHex(message)
    }
}
