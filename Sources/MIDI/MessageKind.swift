/// The kind of a channel message: the high nibble of its status byte (0x80 note-off ... 0xE0 pitch bend),
/// `system` (0xF0) for every system message (their status bytes are named in ``SystemStatus``).
///
/// What code that reads status bytes switches on: `switch message.kind { case .noteOn: ... }`. A struct over
/// the nibble, like ``Controller``.
@frozen
public struct MessageKind: RawRepresentable, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The status byte with the channel bits cleared: 0x80, 0x90 ... 0xF0.
    public var rawValue: UInt8

    @inlinable @_noLocks public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The kind of a status byte (its high nibble).
    @inlinable @_noLocks public init(status: UInt8) { rawValue = status & 0xF0 }

    @inlinable @_noLocks public static func == (a: MessageKind, b: MessageKind) -> Bool { a.rawValue == b.rawValue }
    @inlinable @_noLocks public static func ~= (pattern: MessageKind, value: MessageKind) -> Bool { pattern.rawValue == value.rawValue }
    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Note-off (8n): key, release velocity.
    @inlinable public static var noteOff: MessageKind { @_noLocks get { MessageKind(rawValue: 0x80) } }
    /// Note-on (9n): key, velocity (0 means note-off).
    @inlinable public static var noteOn: MessageKind { @_noLocks get { MessageKind(rawValue: 0x90) } }
    /// Polyphonic key pressure (An): key, pressure.
    @inlinable public static var polyPressure: MessageKind { @_noLocks get { MessageKind(rawValue: 0xA0) } }
    /// Control change (Bn): controller (``Controller``), value.
    @inlinable public static var controlChange: MessageKind { @_noLocks get { MessageKind(rawValue: 0xB0) } }
    /// Program change (Cn): program.
    @inlinable public static var programChange: MessageKind { @_noLocks get { MessageKind(rawValue: 0xC0) } }
    /// Channel pressure (Dn): pressure.
    @inlinable public static var channelPressure: MessageKind { @_noLocks get { MessageKind(rawValue: 0xD0) } }
    /// Pitch bend (En): LSB, MSB of a 14-bit value centred on 8192.
    @inlinable public static var pitchBend: MessageKind { @_noLocks get { MessageKind(rawValue: 0xE0) } }
    /// Every system message (F0...FF).
    @inlinable public static var system: MessageKind { @_noLocks get { MessageKind(rawValue: 0xF0) } }

    /// The status byte of this kind of message on `channel` (low 4 bits used).
    @inlinable @_noLocks public func status(channel: UInt8) -> UInt8 { rawValue | channel & 0x0F }

    /// Data bytes after the status: 2, or 1 for program change and channel pressure (0 for `system`, whose
    /// statuses differ: ``ShortMessage/dataLength(status:)``).
    @inlinable public var dataLength: Int {
        @_noLocks get {
            switch self {
            case .programChange, .channelPressure: 1
            case .system: 0
            default: 2
            }
        }
    }

    /// "Note On", "Control Change"...; "System" for `system` (and for a data byte's nibble, which is no kind).
    public var description: String {
        switch self {
        case .noteOff: "Note Off"
        case .noteOn: "Note On"
        case .polyPressure: "Poly Pressure"
        case .controlChange: "Control Change"
        case .programChange: "Program Change"
        case .channelPressure: "Channel Pressure"
        case .pitchBend: "Pitch Bend"
        default: "System"
        }
    }
}

/// The status bytes of the system messages (MIDI 1.0): common (F0...F7) and real-time (F8...FF).
public enum SystemStatus {
    /// System exclusive start (F0): manufacturer or universal ID, data, then ``endOfExclusive``.
    @inlinable public static var exclusive: UInt8 { @_noLocks get { 0xF0 } }
    /// MIDI time code quarter frame (F1).
    @inlinable public static var timeCodeQuarterFrame: UInt8 { @_noLocks get { 0xF1 } }
    /// Song position pointer (F2).
    @inlinable public static var songPosition: UInt8 { @_noLocks get { 0xF2 } }
    /// Song select (F3).
    @inlinable public static var songSelect: UInt8 { @_noLocks get { 0xF3 } }
    /// Tune request (F6).
    @inlinable public static var tuneRequest: UInt8 { @_noLocks get { 0xF6 } }
    /// End of exclusive (F7).
    @inlinable public static var endOfExclusive: UInt8 { @_noLocks get { 0xF7 } }
    /// Timing clock (F8), 24 per quarter note.
    @inlinable public static var timingClock: UInt8 { @_noLocks get { 0xF8 } }
    /// Start (FA).
    @inlinable public static var start: UInt8 { @_noLocks get { 0xFA } }
    /// Continue (FB).
    @inlinable public static var `continue`: UInt8 { @_noLocks get { 0xFB } }
    /// Stop (FC).
    @inlinable public static var stop: UInt8 { @_noLocks get { 0xFC } }
    /// Active sensing (FE).
    @inlinable public static var activeSensing: UInt8 { @_noLocks get { 0xFE } }
    /// System reset (FF).
    @inlinable public static var systemReset: UInt8 { @_noLocks get { 0xFF } }
}
