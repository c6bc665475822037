/// The universal system exclusive messages (MIDI 1.0, General MIDI) that Backbeat names: what a synth may
/// answer of the sysex it receives. Parsed from the whole message, F0 through F7, without allocating, so the
/// real-time thread can read a sysex where it arrived (JACK's buffer, a pre-allocated scratch).
///
/// The device ID (the byte after 7E or 7F) is not checked: Backbeat has no device ID of its own, so it
/// answers every ID as it answers "all call" (7F).
public enum UniversalSystemExclusive: Hashable, Sendable, BitwiseCopyable {
    /// GM System On (F0 7E dev 09 01 F7): every channel to its General MIDI power-on state.
    case generalMIDIOn
    /// GM System Off (F0 7E dev 09 02 F7).
    case generalMIDIOff
    /// GM2 System On (F0 7E dev 09 03 F7).
    case generalMIDI2On
    /// Master volume (F0 7F dev 04 01 ll mm F7): 14 bits, 0 silent ... 16383 full, LSB first on the wire.
    case masterVolume(UInt16)

    /// The universal non-real-time sysex ID (7E).
    @inlinable public static var nonRealTimeID: UInt8 { @_noLocks get { 0x7E } }
    /// The universal real-time sysex ID (7F).
    @inlinable public static var realTimeID: UInt8 { @_noLocks get { 0x7F } }
    /// The device ID that addresses every device (7F).
    @inlinable public static var allCall: UInt8 { @_noLocks get { 0x7F } }
    /// Sub-ID #1 of the General MIDI messages (non-real-time 09) and of device control (real-time 04).
    @inlinable static var generalMIDI: UInt8 { @_noLocks get { 0x09 } }
    @inlinable static var deviceControl: UInt8 { @_noLocks get { 0x04 } }
    /// Sub-ID #2 of master volume under device control.
    @inlinable static var masterVolumeSubID: UInt8 { @_noLocks get { 0x01 } }

    /// The message `bytes` hold: F0, the universal ID, the device ID, the sub-IDs, the data, F7, nothing
    /// more or less. Nil for anything else (another manufacturer, an unterminated or malformed message).
    @inlinable @_noLocks
    public init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n >= 6, bytes[0] == SystemStatus.exclusive, bytes[n - 1] == SystemStatus.endOfExclusive else { return nil }
        let id = bytes[1], sub1 = bytes[3], sub2 = bytes[4]
        if id == Self.nonRealTimeID && sub1 == Self.generalMIDI && n == 6 {
            switch sub2 {
            case 0x01: self = .generalMIDIOn
            case 0x02: self = .generalMIDIOff
            case 0x03: self = .generalMIDI2On
            default: return nil
            }
        } else if id == Self.realTimeID && sub1 == Self.deviceControl && sub2 == Self.masterVolumeSubID && n == 8 {
            let lsb = bytes[5], msb = bytes[6]
            guard lsb < 0x80, msb < 0x80 else { return nil }
            self = .masterVolume(UInt16(msb) << 7 | UInt16(lsb))
        } else {
            return nil
        }
    }

    /// The message on the wire, F0 through F7, addressed to `device` (all call by default).
    public func bytes(device: UInt8 = UniversalSystemExclusive.allCall) -> [UInt8] {
        let dev = device & 0x7F
        let body: [UInt8] = switch self {
        case .generalMIDIOn: [Self.nonRealTimeID, dev, Self.generalMIDI, 0x01]
        case .generalMIDIOff: [Self.nonRealTimeID, dev, Self.generalMIDI, 0x02]
        case .generalMIDI2On: [Self.nonRealTimeID, dev, Self.generalMIDI, 0x03]
        case .masterVolume(let value):
            [Self.realTimeID, dev, Self.deviceControl, Self.masterVolumeSubID,
             UInt8(value & 0x7F), UInt8(value >> 7 & 0x7F)]
        }
        return [SystemStatus.exclusive] + body + [SystemStatus.endOfExclusive]
    }
}
