/// A 14-bit parameter change decoded from RPN or NRPN control changes.
public struct ParameterChange: Hashable, Sendable {
    /// Registered (CC 101/100) or non-registered (CC 99/98) parameter number.
    public enum Kind: Hashable, Sendable { case registered, nonRegistered }
    /// What produced the change.
    public enum Source: Hashable, Sendable {
        /// Data entry MSB (CC 6); the LSB part of `value` is 0 until CC 38 arrives.
        case dataEntryMSB
        /// Data entry LSB (CC 38).
        case dataEntryLSB
        /// Data increment (CC 96): `value` is one more than before (at most 16383).
        case increment
        /// Data decrement (CC 97): `value` is one less than before (at least 0).
        case decrement
    }

    public var channel: UInt8
    public var kind: Kind
    /// The 14-bit parameter number, MSB << 7 | LSB (e.g. RPN 0 is pitch bend sensitivity).
    public var parameter: UInt16
    /// The 14-bit value, MSB << 7 | LSB.
    public var value: UInt16
    public var source: Source

    public init(channel: UInt8, kind: Kind, parameter: UInt16, value: UInt16, source: Source) {
        self.channel = channel; self.kind = kind; self.parameter = parameter; self.value = value; self.source = source
    }
}

/// A stateful RPN/NRPN decoder: feed it every control change of a stream; it tracks, per channel, the
/// selected parameter (CC 101/100 registered, 99/98 non-registered) and yields a ``ParameterChange`` for data
/// entry (CC 6 MSB, 38 LSB) and data increment/decrement (CC 96/97). Selecting the null parameter 127/127
/// deselects: data entry is then ignored until a parameter is selected again.
public struct ParameterNumberDecoder: Sendable {
    struct ChannelState: Sendable {
        var kind: ParameterChange.Kind?
        var msb: UInt8 = 127
        var lsb: UInt8 = 127
        var value: UInt16 = 0

        var parameter: UInt16 { UInt16(msb) << 7 | UInt16(lsb) }
        var isNull: Bool { kind == nil || (msb == 127 && lsb == 127) }
    }

    var channels = [ChannelState](repeating: ChannelState(), count: 16)

    public init() {}

    /// Feeds one message; returns the parameter change it completes, if any. Non-CC messages are ignored.
    public mutating func process(_ message: MIDIMessage) -> ParameterChange? {
        guard case .controlChange(let cc) = message else { return nil }
        return process(cc)
    }

    /// Feeds one control change; returns the parameter change it completes, if any.
    public mutating func process(_ cc: ControlChange) -> ParameterChange? {
        let ch = Int(cc.channel & 0x0F)
        var state = channels[ch]
        defer { channels[ch] = state }
        let value = cc.value & 0x7F
        func select(_ kind: ParameterChange.Kind, msb: UInt8?, lsb: UInt8?) {
            if state.kind != kind {
                // Switching between RPN and NRPN: the half not sent yet starts at 0.
                state.kind = kind
                state.msb = 0
                state.lsb = 0
            }
            if let msb { state.msb = msb }
            if let lsb { state.lsb = lsb }
            state.value = 0
        }
        switch cc.controller {
        case 101: select(.registered, msb: value, lsb: nil)
        case 100: select(.registered, msb: nil, lsb: value)
        case 99: select(.nonRegistered, msb: value, lsb: nil)
        case 98: select(.nonRegistered, msb: nil, lsb: value)
        case 6, 38, 96, 97:
            guard !state.isNull, let kind = state.kind else { return nil }
            let source: ParameterChange.Source
            switch cc.controller {
            case 6:
                state.value = UInt16(value) << 7
                source = .dataEntryMSB
            case 38:
                state.value = state.value & 0x3F80 | UInt16(value)
                source = .dataEntryLSB
            case 96:
                state.value = min(state.value + 1, 0x3FFF)
                source = .increment
            default:
                state.value = state.value == 0 ? 0 : state.value - 1
                source = .decrement
            }
            return ParameterChange(channel: cc.channel & 0x0F, kind: kind, parameter: state.parameter,
                                   value: state.value, source: source)
        default: break
        }
        return nil
    }
}
