/// The system exclusive messages Backbeat names: the universal ones (MIDI 1.0, General MIDI 1 and 2, the MIDI
/// Tuning Standard) and the Roland GS and Yamaha XG messages a General MIDI player must obey. Parsed from the
/// whole message, F0 through F7, without allocating, so the real-time thread can read a sysex where it
/// arrived (JACK's buffer, a pre-allocated scratch). Messages with a variable payload (the tunings) name where
/// it is; ``UniversalSystemExclusive/tuningCents(_:at:)`` and its kin read it in place.
///
/// The device ID (the byte after 7E or 7F, GS's after 41, XG's low nibble) is not checked: Backbeat has no
/// device ID of its own, so it answers every ID as it answers "all call" (7F). GS checksums are not checked
/// either (as FluidSynth does not): a file with a wrong one still plays.
public enum UniversalSystemExclusive: Hashable, Sendable, BitwiseCopyable {
    /// GM System On (F0 7E dev 09 01 F7): every channel to its General MIDI power-on state.
    case generalMIDIOn
    /// GM System Off (F0 7E dev 09 02 F7).
    case generalMIDIOff
    /// GM2 System On (F0 7E dev 09 03 F7).
    case generalMIDI2On
    /// Master volume (F0 7F dev 04 01 ll mm F7): 14 bits, 0 silent ... 16383 full, LSB first on the wire.
    case masterVolume(UInt16)
    /// Master balance (F0 7F dev 04 02 ll mm F7): 14 bits, 0 left, 8192 centre, 16383 right.
    case masterBalance(UInt16)
    /// Master fine tuning (F0 7F dev 04 03 ll mm F7): 14 bits, 8192 = A440, 0 = -100 cents, 16383 = +100.
    case masterFineTuning(UInt16)
    /// Master coarse tuning (F0 7F dev 04 04 ll mm F7): mm 64 = 0, semitones -64...+63 (ll ignored).
    case masterCoarseTuning(UInt8)
    /// Roland GS Reset (F0 41 dev 42 12 40 00 7F 00 cs F7).
    case gsReset
    /// Yamaha XG System On (F0 43 1n 4C 00 00 7E 00 F7).
    case xgSystemOn
    /// MTS scale/octave tuning (F0 7E/7F dev 08 08|09 ff gg hh data F7): 12 offsets, one per pitch class, of
    /// `bytesPerClass` 1 (cents 00-7F = -64...+63) or 2 (14 bits, 8192 = 0, +-100 cents); the channel mask
    /// at byte 5, the data from byte 8. `realTime` (7F): sounding notes change at once.
    case scaleOctaveTuning(realTime: Bool, bytesPerClass: Int)
    /// MTS single note tuning change (F0 7F dev 08 02 tt ll ... F7, or with a bank F0 7E/7F dev 08 07 bb tt
    /// ll ... F7): `count` entries of four bytes (key, semitone, 14-bit fraction) from byte `dataStart`.
    case singleNoteTuning(realTime: Bool, bank: UInt8, program: UInt8, count: Int, dataStart: Int)
    /// MTS bulk tuning dump (F0 7E dev 08 01 tt name(16) data(128 x 3) [cs] F7, bank 0), or with a bank
    /// (F0 7E dev 08 04 bb tt name(16) data(128 x 3) cs F7): every key of tuning program `program` of tuning
    /// bank `bank`, the data from byte `dataStart` (22, or 23 with a bank).
    case bulkTuningDump(bank: UInt8, program: UInt8, dataStart: Int)
    /// GS scale tuning (F0 41 dev 42 12 40 1x 40+first data cs F7) of the part on `channel` (0...15): `count`
    /// pitch classes from `first` (0 = C), cents 00-7F = -64...+63, the data from byte 8.
    case gsScaleTuning(channel: UInt8, first: Int, count: Int)
    /// GS Use For Rhythm Part (F0 41 dev 42 12 40 1x 15 mm cs F7) of the part on `channel` (0...15): `map`
    /// 0 plays it as a normal (melodic) part, 1 or 2 as a drum part (drum map 1 or 2).
    case gsRhythmPart(channel: UInt8, map: UInt8)

    /// The universal non-real-time sysex ID (7E).
    @inlinable public static var nonRealTimeID: UInt8 { @_noLocks get { 0x7E } }
    /// The universal real-time sysex ID (7F).
    @inlinable public static var realTimeID: UInt8 { @_noLocks get { 0x7F } }
    /// The device ID that addresses every device (7F).
    @inlinable public static var allCall: UInt8 { @_noLocks get { 0x7F } }
    /// Sub-ID #1 of the General MIDI messages (non-real-time 09) and of device control (real-time 04).
    @inlinable static var generalMIDI: UInt8 { @_noLocks get { 0x09 } }
    @inlinable static var deviceControl: UInt8 { @_noLocks get { 0x04 } }
    /// Sub-ID #1 of the MIDI Tuning Standard.
    @inlinable static var tuningStandard: UInt8 { @_noLocks get { 0x08 } }
    /// Sub-ID #2 of master volume under device control.
    @inlinable static var masterVolumeSubID: UInt8 { @_noLocks get { 0x01 } }

    /// The message `bytes` hold: F0, the ID, the sub-IDs or address, the data, F7, nothing more or less. Nil for
    /// anything else (another manufacturer or message, an unterminated or malformed one, a data byte above 7F).
    @inlinable @_noLocks
    public init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n >= 6, bytes[0] == SystemStatus.exclusive, bytes[n - 1] == SystemStatus.endOfExclusive else { return nil }
        for i in 1..<(n - 1) where bytes[i] >= 0x80 { return nil }
        let id = bytes[1], sub1 = bytes[3], sub2 = bytes[4]
        if id == Self.nonRealTimeID && sub1 == Self.generalMIDI && n == 6 {
            switch sub2 {
            case 0x01: self = .generalMIDIOn
            case 0x02: self = .generalMIDIOff
            case 0x03: self = .generalMIDI2On
            default: return nil
            }
        } else if id == Self.realTimeID && sub1 == Self.deviceControl && n == 8 {
            let lsb = bytes[5], msb = bytes[6]
            let value = UInt16(msb) << 7 | UInt16(lsb)
            switch sub2 {
            case Self.masterVolumeSubID: self = .masterVolume(value)
            case 0x02: self = .masterBalance(value)
            case 0x03: self = .masterFineTuning(value)
            case 0x04: self = .masterCoarseTuning(msb)
            default: return nil
            }
        } else if (id == Self.nonRealTimeID || id == Self.realTimeID) && sub1 == Self.tuningStandard {
            let realTime = id == Self.realTimeID
            switch sub2 {
            case 0x08 where n == 9 + 12: self = .scaleOctaveTuning(realTime: realTime, bytesPerClass: 1)
            case 0x09 where n == 9 + 24: self = .scaleOctaveTuning(realTime: realTime, bytesPerClass: 2)
            case 0x02 where realTime && n >= 8 && n == 8 + 4 * Int(bytes[6]):
                self = .singleNoteTuning(realTime: true, bank: 0, program: bytes[5], count: Int(bytes[6]), dataStart: 7)
            case 0x07 where n >= 9 && n == 9 + 4 * Int(bytes[7]):
                self = .singleNoteTuning(realTime: realTime, bank: bytes[5], program: bytes[6], count: Int(bytes[7]), dataStart: 8)
            case 0x01 where !realTime && (n == 408 || n == 407):
                self = .bulkTuningDump(bank: 0, program: bytes[5], dataStart: 22)
            case 0x04 where !realTime && (n == 409 || n == 408):
                self = .bulkTuningDump(bank: bytes[5], program: bytes[6], dataStart: 23)
            default: return nil
            }
        } else if id == 0x41 && bytes[3] == 0x42 && bytes[4] == 0x12 && n >= 11 && bytes[5] == 0x40 {
            // Roland GS data set: address bytes 5...7, data from 8, checksum at n - 2.
            let block = bytes[6], low = bytes[7], dataCount = n - 10
            if block == 0x00 && low == 0x7F && dataCount == 1 && bytes[8] == 0x00 {
                self = .gsReset
            } else if block & 0xF0 == 0x10 && low >= 0x40 && low <= 0x4B && dataCount >= 1
                        && Int(low - 0x40) + dataCount <= 12 {
                let part = block & 0x0F  // block 0 is part 10, 1...9 parts 1...9, A...F parts 11...16
                let channel: UInt8 = part == 0 ? 9 : part <= 9 ? part - 1 : part
                self = .gsScaleTuning(channel: channel, first: Int(low - 0x40), count: dataCount)
            } else if block & 0xF0 == 0x10 && low == 0x15 && dataCount == 1 {
                let part = block & 0x0F
                self = .gsRhythmPart(channel: part == 0 ? 9 : part <= 9 ? part - 1 : part, map: bytes[8] & 0x7F)
            } else {
                return nil
            }
        } else if id == 0x43 && bytes[2] & 0xF0 == 0x10 && n == 9 && bytes[3] == 0x4C && bytes[4] == 0x00
                    && bytes[5] == 0x00 && bytes[6] == 0x7E && bytes[7] == 0x00 {
            self = .xgSystemOn
        } else {
            return nil
        }
    }

    /// The offset in cents of 14-bit `value` (8192 = 0; 0 = -100 cents, 16383 = +100 cents, approximately):
    /// the 2-byte scale/octave tuning, master fine tuning and RPN 1.
    @inlinable @_noLocks
    public static func cents(fourteenBit value: UInt16) -> Float {
        Float(Int(value & 0x3FFF) - 8192) * (100.0 / 8192)
    }

    /// The pitch an MTS frequency word gives, in cents above key 0 (C-1), or nil for 7F 7F 7F (no change):
    /// semitone `xx` plus `yy zz` (14 bits) x 100 / 16384 cents.
    @inlinable @_noLocks
    public static func absoluteCents(_ xx: UInt8, _ yy: UInt8, _ zz: UInt8) -> Float? {
        if xx == 0x7F && yy == 0x7F && zz == 0x7F { return nil }
        return Float(xx & 0x7F) * 100 + Float(UInt16(yy & 0x7F) << 7 | UInt16(zz & 0x7F)) * (100.0 / 16384)
    }

    /// The 16 channels a scale/octave tuning's mask (bytes 5...7: ff gg hh) addresses, bit n for channel n.
    @inlinable @_noLocks
    public static func channelMask(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt16 {
        guard bytes.count > 7 else { return 0 }
        return UInt16(bytes[5] & 0x03) << 14 | UInt16(bytes[6] & 0x7F) << 7 | UInt16(bytes[7] & 0x7F)
    }

    /// The message on the wire, F0 through F7, addressed to `device` (all call by default). The tuning
    /// messages, whose payload the enum does not hold, come out with neutral data (no change).
    public func bytes(device: UInt8 = UniversalSystemExclusive.allCall) -> [UInt8] {
        let dev = device & 0x7F
        func control(_ sub: UInt8, _ value: UInt16) -> [UInt8] {
            [Self.realTimeID, dev, Self.deviceControl, sub, UInt8(value & 0x7F), UInt8(value >> 7 & 0x7F)]
        }
        let body: [UInt8] = switch self {
        case .generalMIDIOn: [Self.nonRealTimeID, dev, Self.generalMIDI, 0x01]
        case .generalMIDIOff: [Self.nonRealTimeID, dev, Self.generalMIDI, 0x02]
        case .generalMIDI2On: [Self.nonRealTimeID, dev, Self.generalMIDI, 0x03]
        case .masterVolume(let value): control(Self.masterVolumeSubID, value)
        case .masterBalance(let value): control(0x02, value)
        case .masterFineTuning(let value): control(0x03, value)
        case .masterCoarseTuning(let value): control(0x04, UInt16(value & 0x7F) << 7)
        case .gsReset: [0x41, dev == 0x7F ? 0x10 : dev, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41]
        case .xgSystemOn: [0x43, 0x10 | (dev & 0x0F), 0x4C, 0x00, 0x00, 0x7E, 0x00]
        case .scaleOctaveTuning(let realTime, let width):
            [realTime ? Self.realTimeID : Self.nonRealTimeID, dev, Self.tuningStandard, width == 2 ? 0x09 : 0x08, 0x03, 0x7F, 0x7F]
                + (width == 2 ? Array(repeating: [0x40, 0x00], count: 12).flatMap { $0 } : Array(repeating: 0x40, count: 12))
        case .singleNoteTuning(let realTime, let bank, let program, _, _):
            [realTime ? Self.realTimeID : Self.nonRealTimeID, dev, Self.tuningStandard, 0x07, bank & 0x7F, program & 0x7F, 0x00]
        case .bulkTuningDump(let bank, let program, _):
            [Self.nonRealTimeID, dev, Self.tuningStandard] + (bank == 0 ? [0x01] : [0x04, bank & 0x7F]) + [program & 0x7F]
                + Array(repeating: 0x20, count: 16) + (0..<128).flatMap { [UInt8($0), 0x00, 0x00] } + [0x00]
        case .gsScaleTuning(let channel, let first, let count):
            Self.gsDataSet(device: dev, address: [0x40, 0x10 | Self.gsPart(channel), 0x40 + UInt8(first & 0x0F)],
                           data: Array(repeating: 0x40, count: count))
        case .gsRhythmPart(let channel, let map):
            Self.gsDataSet(device: dev, address: [0x40, 0x10 | Self.gsPart(channel), 0x15], data: [map & 0x7F])
        }
        return [SystemStatus.exclusive] + body + [SystemStatus.endOfExclusive]
    }

    /// A Roland GS data set (without F0 and F7): 41 dev 42 12, the address and data, their checksum.
    public static func gsDataSet(device: UInt8 = 0x10, address: [UInt8], data: [UInt8]) -> [UInt8] {
        let sum = (address + data).reduce(0) { $0 + Int($1 & 0x7F) }
        return [0x41, device == 0x7F ? 0x10 : device & 0x7F, 0x42, 0x12] + address + data + [UInt8((128 - sum % 128) % 128)]
    }

    /// The GS address block of MIDI channel `channel` (0...15): channel 10 is block 0.
    static func gsPart(_ channel: UInt8) -> UInt8 {
        let c = channel & 0x0F
        return c == 9 ? 0 : c < 9 ? c + 1 : c
    }
}
