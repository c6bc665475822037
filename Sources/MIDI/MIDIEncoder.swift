/// Turns messages into MIDI 1.0 bytes, optionally with running status (a channel status is left out when
/// it equals the previous one; system common and sysex cancel it, real-time messages leave it alone).
///
/// Data values are masked to 7 bits. An unterminated sysex is written without F7, as it was received.
public struct MIDIEncoder: Sendable {
    /// Leave out repeated channel status bytes.
    public var usesRunningStatus: Bool
    /// The running status of the bytes written so far (0 for none).
    public private(set) var runningStatus: UInt8 = 0

    public init(runningStatus: Bool = false) { usesRunningStatus = runningStatus }

    /// Appends the bytes of `message` to `bytes`.
    public mutating func encode(_ message: MIDIMessage, into bytes: inout [UInt8]) {
        if case .systemExclusive(let sysex) = message {
            bytes.append(SystemStatus.exclusive)
            for byte in sysex.data { bytes.append(byte & 0x7F) }
            if sysex.isTerminated { bytes.append(SystemStatus.endOfExclusive) }
            runningStatus = 0
            return
        }
        guard let short = message.shortMessage else { return }
        let status = short.status
        if short.isChannelMessage {
            if !usesRunningStatus || status != runningStatus { bytes.append(status) }
            runningStatus = status
        } else {
            bytes.append(status)
            if status < SystemStatus.timingClock { runningStatus = 0 }  // system common, not real-time
        }
        let length = short.dataByteCount
        if length >= 1 { bytes.append(short.data1) }
        if length == 2 { bytes.append(short.data2) }
    }

    /// The bytes of `messages`.
    public mutating func encode(_ messages: some Sequence<MIDIMessage>) -> [UInt8] {
        var bytes: [UInt8] = []
        for message in messages { encode(message, into: &bytes) }
        return bytes
    }

    /// The bytes of `messages`, with or without running status.
    public static func encode(_ messages: some Sequence<MIDIMessage>, runningStatus: Bool = false) -> [UInt8] {
        var encoder = MIDIEncoder(runningStatus: runningStatus)
        return encoder.encode(messages)
    }
}

extension MIDIMessage {
    /// The bytes of this message on the wire (full status byte).
    public var bytes: [UInt8] { MIDIEncoder.encode([self]) }
}
