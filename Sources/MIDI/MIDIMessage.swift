/// One MIDI 1.0 message: the seven channel voice messages (channel mode messages are control changes
/// 120...127, see ``ControlChange/mode``), system exclusive, system common and system real-time.
///
/// Channels are zero-based (0...15) in the model; formatters show them as 1...16.
/// Data values are 7-bit; the encoder masks anything above 0x7F so it never emits a status byte by mistake.
public enum MIDIMessage: Hashable, Sendable {
    case noteOff(NoteOff)
    /// A note-on with velocity 0 stays a note-on here; consumers treat it as a note-off.
    case noteOn(NoteOn)
    case polyPressure(PolyPressure)
    case controlChange(ControlChange)
    case programChange(ProgramChange)
    case channelPressure(ChannelPressure)
    case pitchBend(PitchBend)
    case systemExclusive(SystemExclusive)
    /// MIDI Time Code quarter frame (F1): the whole data byte (message type in bits 4-6, value in bits 0-3).
    case mtcQuarterFrame(MTCQuarterFrame)
    /// Song position pointer (F2), in MIDI beats (sixteenth notes).
    case songPosition(SongPosition)
    /// Song select (F3).
    case songSelect(SongSelect)
    /// Tune request (F6).
    case tuneRequest
    /// Timing clock (F8).
    case timingClock
    /// Start (FA).
    case start
    /// Continue (FB).
    case `continue`
    /// Stop (FC).
    case stop
    /// Active sensing (FE).
    case activeSensing
    /// System reset (FF).
    case systemReset
}

/// Note-off (8n).
public struct NoteOff: Hashable, Sendable {
    /// Zero-based channel, 0...15 (shown as 1...16).
    public var channel: UInt8
    /// Note number, 0...127 (60 is middle C).
    public var note: UInt8
    /// Velocity, 0...127.
    public var velocity: UInt8
    public init(channel: UInt8, note: UInt8, velocity: UInt8) {
        self.channel = channel; self.note = note; self.velocity = velocity
    }
}

/// Note-on (9n). Velocity 0 means note-off by convention but is kept as is.
public struct NoteOn: Hashable, Sendable {
    /// Zero-based channel, 0...15 (shown as 1...16).
    public var channel: UInt8
    /// Note number, 0...127 (60 is middle C).
    public var note: UInt8
    /// Velocity, 0...127.
    public var velocity: UInt8
    public init(channel: UInt8, note: UInt8, velocity: UInt8) {
        self.channel = channel; self.note = note; self.velocity = velocity
    }
}

/// Polyphonic key pressure (An).
public struct PolyPressure: Hashable, Sendable {
    /// Zero-based channel, 0...15 (shown as 1...16).
    public var channel: UInt8
    /// Note number, 0...127 (60 is middle C).
    public var note: UInt8
    /// Pressure (aftertouch), 0...127.
    public var pressure: UInt8
    public init(channel: UInt8, note: UInt8, pressure: UInt8) {
        self.channel = channel; self.note = note; self.pressure = pressure
    }
}

/// Control change (Bn). Controllers 120...127 are the channel mode messages: see ``mode``.
public struct ControlChange: Hashable, Sendable {
    /// Zero-based channel, 0...15 (shown as 1...16).
    public var channel: UInt8
    /// Controller number, 0...127 (120...127 are channel mode messages).
    public var controller: UInt8
    /// Controller value, 0...127.
    public var value: UInt8
    public init(channel: UInt8, controller: UInt8, value: UInt8) {
        self.channel = channel; self.controller = controller; self.value = value
    }

    /// The channel mode message this control change is (controllers 120...127), or nil.
    public var mode: ChannelMode? { ChannelMode(controller: controller, value: value) }
}

/// The channel mode messages of MIDI 1.0: control changes 120...127.
public enum ChannelMode: Hashable, Sendable {
    /// CC 120.
    case allSoundOff
    /// CC 121.
    case resetAllControllers
    /// CC 122: 0 off, 127 on.
    case localControl(on: Bool)
    /// CC 123.
    case allNotesOff
    /// CC 124.
    case omniOff
    /// CC 125.
    case omniOn
    /// CC 126: number of channels (0 = as many as voices).
    case monoOn(channels: UInt8)
    /// CC 127.
    case polyOn

    /// Interprets a control change; nil below controller 120.
    public init?(controller: UInt8, value: UInt8) {
        switch Controller(rawValue: controller) {
        case .allSoundOff: self = .allSoundOff
        case .resetAllControllers: self = .resetAllControllers
        case .localControl: self = .localControl(on: value >= 64)
        case .allNotesOff: self = .allNotesOff
        case .omniOff: self = .omniOff
        case .omniOn: self = .omniOn
        case .monoOn: self = .monoOn(channels: value)
        case .polyOn: self = .polyOn
        default: return nil
        }
    }

    /// The controller number (120...127).
    public var controller: UInt8 { named.rawValue }

    /// The controller, by name (``Controller/allSoundOff`` ... ``Controller/polyOn``).
    public var named: Controller {
        switch self {
        case .allSoundOff: .allSoundOff
        case .resetAllControllers: .resetAllControllers
        case .localControl: .localControl
        case .allNotesOff: .allNotesOff
        case .omniOff: .omniOff
        case .omniOn: .omniOn
        case .monoOn: .monoOn
        case .polyOn: .polyOn
        }
    }

    /// The control change carrying this mode message on `channel`.
    public func controlChange(channel: UInt8) -> ControlChange {
        let value: UInt8
        switch self {
        case .localControl(let on): value = on ? 127 : 0
        case .monoOn(let channels): value = channels
        default: value = 0
        }
        return ControlChange(channel: channel, controller: controller, value: value)
    }
}

/// Program change (Cn).
public struct ProgramChange: Hashable, Sendable {
    /// Zero-based channel, 0...15 (shown as 1...16).
    public var channel: UInt8
    /// Program number, 0...127 (General MIDI names: ``GeneralMIDI/programName(_:)``).
    public var program: UInt8
    public init(channel: UInt8, program: UInt8) { self.channel = channel; self.program = program }
}

/// Channel pressure (Dn).
public struct ChannelPressure: Hashable, Sendable {
    /// Zero-based channel, 0...15 (shown as 1...16).
    public var channel: UInt8
    /// Pressure (aftertouch), 0...127.
    public var pressure: UInt8
    public init(channel: UInt8, pressure: UInt8) { self.channel = channel; self.pressure = pressure }
}

/// Pitch bend (En), 14-bit.
public struct PitchBend: Hashable, Sendable {
    /// Zero-based channel, 0...15 (shown as 1...16).
    public var channel: UInt8
    /// Raw 14-bit value, 0...16383, centre 8192.
    public var value: UInt16
    public init(channel: UInt8, value: UInt16) { self.channel = channel; self.value = value }
    /// Creates a bend from a signed amount, -8192...8191 (clamped).
    public init(channel: UInt8, bend: Int) {
        self.channel = channel
        self.value = UInt16(min(max(bend, -8192), 8191) + 8192)
    }
    /// The bend relative to centre, -8192...8191.
    public var bend: Int { Int(value & 0x3FFF) - 8192 }
}

/// A system exclusive message: the payload between F0 and F7 (both excluded).
public struct SystemExclusive: Hashable, Sendable {
    /// The data bytes, without F0 and F7.
    public var data: [UInt8]
    /// False when the message was cut short by another status byte (or the end of the input) before F7.
    public var isTerminated: Bool
    /// True when the payload was longer than the parser's limit and only its start is kept.
    public var isTruncated: Bool
    public init(data: [UInt8], isTerminated: Bool = true, isTruncated: Bool = false) {
        self.data = data; self.isTerminated = isTerminated; self.isTruncated = isTruncated
    }
}

/// MTC quarter frame (F1): the data byte as sent.
public struct MTCQuarterFrame: Hashable, Sendable {
    /// The whole data byte, 0...127.
    public var dataByte: UInt8
    public init(dataByte: UInt8) { self.dataByte = dataByte }
    /// Which piece of the time code this is (0 frames LSB ... 7 hours MSB and rate).
    public var pieceType: UInt8 { (dataByte >> 4) & 0x07 }
    /// The 4-bit value of the piece.
    public var value: UInt8 { dataByte & 0x0F }
}

/// Song position pointer (F2).
public struct SongPosition: Hashable, Sendable {
    /// MIDI beats (sixteenth notes) since the start of the song, 0...16383.
    public var position: UInt16
    public init(position: UInt16) { self.position = position }
}

/// Song select (F3).
public struct SongSelect: Hashable, Sendable {
    /// Song number, 0...127.
    public var song: UInt8
    public init(song: UInt8) { self.song = song }
}

// MARK: - Conversions to and from ShortMessage

extension MIDIMessage {
    /// Builds the message a ``ShortMessage`` encodes; nil for a status that is not a complete message on its
    /// own (F0 sysex start, F7, undefined F4/F5/F9/FD, or a data byte in `status`).
    /// Data bytes are masked to 7 bits.
    @inlinable
    public init?(_ short: ShortMessage) {
        let d1 = short.data1 & 0x7F, d2 = short.data2 & 0x7F, ch = short.status & 0x0F
        switch short.kind {
        case .noteOff: self = .noteOff(NoteOff(channel: ch, note: d1, velocity: d2))
        case .noteOn: self = .noteOn(NoteOn(channel: ch, note: d1, velocity: d2))
        case .polyPressure: self = .polyPressure(PolyPressure(channel: ch, note: d1, pressure: d2))
        case .controlChange: self = .controlChange(ControlChange(channel: ch, controller: d1, value: d2))
        case .programChange: self = .programChange(ProgramChange(channel: ch, program: d1))
        case .channelPressure: self = .channelPressure(ChannelPressure(channel: ch, pressure: d1))
        case .pitchBend: self = .pitchBend(PitchBend(channel: ch, value: UInt16(d2) << 7 | UInt16(d1)))
        case .system:
            switch short.status {
            case SystemStatus.timeCodeQuarterFrame: self = .mtcQuarterFrame(MTCQuarterFrame(dataByte: d1))
            case SystemStatus.songPosition: self = .songPosition(SongPosition(position: UInt16(d2) << 7 | UInt16(d1)))
            case SystemStatus.songSelect: self = .songSelect(SongSelect(song: d1))
            case SystemStatus.tuneRequest: self = .tuneRequest
            case SystemStatus.timingClock: self = .timingClock
            case SystemStatus.start: self = .start
            case SystemStatus.continue: self = .continue
            case SystemStatus.stop: self = .stop
            case SystemStatus.activeSensing: self = .activeSensing
            case SystemStatus.systemReset: self = .systemReset
            default: return nil
            }
        default: return nil
        }
    }

    /// The three-byte form of this message (unused data bytes are 0); nil for system exclusive.
    @inlinable
    public var shortMessage: ShortMessage? {
        switch self {
        case .noteOff(let m): ShortMessage(.noteOff, channel: m.channel, data1: m.note & 0x7F, data2: m.velocity & 0x7F)
        case .noteOn(let m): ShortMessage(.noteOn, channel: m.channel, data1: m.note & 0x7F, data2: m.velocity & 0x7F)
        case .polyPressure(let m):
            ShortMessage(.polyPressure, channel: m.channel, data1: m.note & 0x7F, data2: m.pressure & 0x7F)
        case .controlChange(let m):
            ShortMessage(.controlChange, channel: m.channel, data1: m.controller & 0x7F, data2: m.value & 0x7F)
        case .programChange(let m): ShortMessage(.programChange, channel: m.channel, data1: m.program & 0x7F)
        case .channelPressure(let m): ShortMessage(.channelPressure, channel: m.channel, data1: m.pressure & 0x7F)
        case .pitchBend(let m):
            ShortMessage(.pitchBend, channel: m.channel, data1: UInt8(m.value & 0x7F), data2: UInt8((m.value >> 7) & 0x7F))
        case .systemExclusive: nil
        case .mtcQuarterFrame(let m): ShortMessage(status: SystemStatus.timeCodeQuarterFrame, data1: m.dataByte & 0x7F)
        case .songPosition(let m):
            ShortMessage(status: SystemStatus.songPosition, data1: UInt8(m.position & 0x7F), data2: UInt8((m.position >> 7) & 0x7F))
        case .songSelect(let m): ShortMessage(status: SystemStatus.songSelect, data1: m.song & 0x7F)
        case .tuneRequest: ShortMessage(status: SystemStatus.tuneRequest)
        case .timingClock: ShortMessage(status: SystemStatus.timingClock)
        case .start: ShortMessage(status: SystemStatus.start)
        case .continue: ShortMessage(status: SystemStatus.continue)
        case .stop: ShortMessage(status: SystemStatus.stop)
        case .activeSensing: ShortMessage(status: SystemStatus.activeSensing)
        case .systemReset: ShortMessage(status: SystemStatus.systemReset)
        }
    }

    /// Zero-based channel of a channel message; nil for system messages.
    public var channel: UInt8? {
        switch self {
        case .noteOff(let m): m.channel
        case .noteOn(let m): m.channel
        case .polyPressure(let m): m.channel
        case .controlChange(let m): m.channel
        case .programChange(let m): m.channel
        case .channelPressure(let m): m.channel
        case .pitchBend(let m): m.channel
        default: nil
        }
    }

    /// True for the system real-time messages (F8...FF).
    public var isRealTime: Bool {
        switch self {
        case .timingClock, .start, .continue, .stop, .activeSensing, .systemReset: true
        default: false
        }
    }
}

extension ShortMessage {
    /// The message model of this short message; nil if the status is not a complete message on its own.
    @inlinable public var message: MIDIMessage? { MIDIMessage(self) }

    /// Number of data bytes that follow `status` on the wire (0, 1 or 2; 0 for undefined statuses).
    @inlinable public var dataByteCount: Int { ShortMessage.dataLength(status: status) }

    /// Number of data bytes that follow a status byte (0 for real-time, F6, F0, F7 and undefined statuses).
    @inlinable
    public static func dataLength(status: UInt8) -> Int {
        guard status >= MessageKind.noteOff.rawValue else { return 0 }
        let kind = MessageKind(status: status)
        guard kind == .system else { return kind.dataLength }
        switch status {
        case SystemStatus.songPosition: return 2
        case SystemStatus.timeCodeQuarterFrame, SystemStatus.songSelect: return 1
        default: return 0
        }
    }
}
