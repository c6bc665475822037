/// A MIDI message of at most three bytes (every channel message, system common and real-time):
/// trivially copyable, so it can cross the real-time rings and reach the synth without ARC traffic.
@frozen
public struct ShortMessage: Hashable, Sendable, BitwiseCopyable {
    /// The status byte (0x80...0xFF).
    public var status: UInt8
    public var data1: UInt8
    public var data2: UInt8

    @inlinable
    public init(status: UInt8, data1: UInt8 = 0, data2: UInt8 = 0) {
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }

    /// High nibble of a channel message's status (0x80 note-off ... 0xE0 pitch bend); 0xF0 for system messages.
    @inlinable public var kind: UInt8 { status & 0xF0 }
    /// Zero-based channel (0...15) of a channel message.
    @inlinable public var channel: UInt8 { status & 0x0F }
    /// True for 0x80...0xEF.
    @inlinable public var isChannelMessage: Bool { status >= 0x80 && status < 0xF0 }
}
