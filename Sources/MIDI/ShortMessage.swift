/// A MIDI message of at most three bytes (every channel message, system common and real-time):
/// trivially copyable, so it can cross the real-time rings and reach the synth without ARC traffic.
///
/// Where a sysex travels beside short messages (the monitor's events, the offline renderer's), it is a
/// short message with status F0 (`isSystemExclusive`) whose bytes wait elsewhere.
@frozen
public struct ShortMessage: Hashable, Sendable, BitwiseCopyable {
    /// The status byte (0x80...0xFF).
    public var status: UInt8
    public var data1: UInt8
    public var data2: UInt8

    @inlinable @_noLocks
    public init(status: UInt8, data1: UInt8 = 0, data2: UInt8 = 0) {
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }

    /// A channel message of `kind` on `channel` (low 4 bits used); data bytes as given.
    @inlinable @_noLocks
    public init(_ kind: MessageKind, channel: UInt8, data1: UInt8 = 0, data2: UInt8 = 0) {
        self.init(status: kind.status(channel: channel), data1: data1, data2: data2)
    }

    /// Note-on of `note` at `velocity` on `channel`.
    @inlinable @_noLocks
    public static func noteOn(_ note: UInt8, velocity: UInt8, channel: UInt8 = 0) -> ShortMessage {
        ShortMessage(.noteOn, channel: channel, data1: note, data2: velocity)
    }

    /// Note-off of `note` (release velocity `velocity`) on `channel`.
    @inlinable @_noLocks
    public static func noteOff(_ note: UInt8, velocity: UInt8 = 0, channel: UInt8 = 0) -> ShortMessage {
        ShortMessage(.noteOff, channel: channel, data1: note, data2: velocity)
    }

    /// Control change of `controller` to `value` on `channel`.
    @inlinable @_noLocks
    public static func controlChange(_ controller: Controller, value: UInt8, channel: UInt8 = 0) -> ShortMessage {
        ShortMessage(.controlChange, channel: channel, data1: controller.rawValue, data2: value)
    }

    /// Program change to `program` on `channel`.
    @inlinable @_noLocks
    public static func programChange(_ program: UInt8, channel: UInt8 = 0) -> ShortMessage {
        ShortMessage(.programChange, channel: channel, data1: program)
    }

    /// Pitch bend on `channel`, `bend` relative to centre (-8192...8191, clamped).
    @inlinable @_noLocks
    public static func pitchBend(_ bend: Int, channel: UInt8 = 0) -> ShortMessage {
        let raw = UInt16(min(max(bend, -8192), 8191) + 8192)
        return ShortMessage(.pitchBend, channel: channel, data1: UInt8(raw & 0x7F), data2: UInt8(raw >> 7))
    }

    /// What kind of message this is (the status's high nibble): `.noteOn`, `.controlChange`... `.system`.
    @inlinable public var kind: MessageKind { @_noLocks get { MessageKind(status: status) } }
    /// Zero-based channel (0...15) of a channel message.
    @inlinable public var channel: UInt8 { @_noLocks get { status & 0x0F } }
    /// The controller of a control change (data1).
    @inlinable public var controller: Controller { @_noLocks get { Controller(data1) } }
    /// True for 0x80...0xEF.
    @inlinable public var isChannelMessage: Bool { @_noLocks get { status >= MessageKind.noteOff.rawValue && status < MessageKind.system.rawValue } }
    /// True for the F0 that stands for a system exclusive message (its bytes travel apart).
    @inlinable public var isSystemExclusive: Bool { @_noLocks get { status == SystemStatus.exclusive } }
}
