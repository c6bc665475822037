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

    @inlinable
    public init(channel: UInt8, kind: Kind, parameter: UInt16, value: UInt16, source: Source) {
        self.channel = channel; self.kind = kind; self.parameter = parameter; self.value = value; self.source = source
    }
}

/// A stateful RPN/NRPN decoder: feed it every control change of a stream; it tracks, per channel, the
/// selected parameter (CC 101/100 registered, 99/98 non-registered) and yields a ``ParameterChange`` for data
/// entry (CC 6 MSB, 38 LSB) and data increment/decrement (CC 96/97). Selecting the null parameter 127/127
/// deselects: data entry is then ignored until a parameter is selected again.
///
/// A value of fixed size (no allocation) whose controller entry points are `@_noLocks`: the synth decodes
/// its parameter numbers with it on the real-time thread.
public struct ParameterNumberDecoder: Sendable {
    @usableFromInline
    struct ChannelState: Sendable, BitwiseCopyable {
        /// 0 before any selection and after `deselect`, else 1 registered, 2 non-registered (plain bytes:
        /// comparing optionals would go through generic code on the real-time path).
        @usableFromInline var selection: UInt8 = 0
        @usableFromInline var msb: UInt8 = 127
        @usableFromInline var lsb: UInt8 = 127
        @usableFromInline var value: UInt16 = 0

        @inlinable init() {}

        @inlinable var parameter: UInt16 { UInt16(msb) << 7 | UInt16(lsb) }
        @inlinable var isNull: Bool { selection == 0 || (msb == 127 && lsb == 127) }

        /// Selects one half of a parameter number (`selection` 1 registered, 2 non-registered).
        @inlinable
        mutating func select(_ selection: UInt8, msb: UInt8?, lsb: UInt8?) {
            if self.selection != selection {
                // Switching between RPN and NRPN: the half not sent yet starts at 0.
                self.selection = selection
                self.msb = 0
                self.lsb = 0
            }
            if let msb { self.msb = msb }
            if let lsb { self.lsb = lsb }
            value = 0
        }
    }

    @usableFromInline var channels: InlineArray<16, ChannelState>

    @inlinable @_noLocks
    public init() { channels = InlineArray(repeating: ChannelState()) }

    /// Feeds one message; returns the parameter change it completes, if any. Non-CC messages are ignored.
    public mutating func process(_ message: MIDIMessage) -> ParameterChange? {
        guard case .controlChange(let cc) = message else { return nil }
        return process(cc)
    }

    /// Feeds one control change; returns the parameter change it completes, if any.
    @inlinable @_noLocks
    public mutating func process(_ cc: ControlChange) -> ParameterChange? {
        process(channel: cc.channel, controller: cc.controller, value: cc.value)
    }

    /// Feeds one control change given as its channel (low 4 bits used), controller and value (low 7 bits
    /// used); returns the parameter change it completes, if any.
    @inlinable @_noLocks
    public mutating func process(channel: UInt8, controller: UInt8, value rawValue: UInt8) -> ParameterChange? {
        let c = channel & 0x0F
        let ch = Int(c)
        var state = channels[ch]
        defer { channels[ch] = state }
        let value = rawValue & 0x7F
        let named = Controller(rawValue: controller)
        switch named {
        case .rpnMSB: state.select(1, msb: value, lsb: nil)
        case .rpnLSB: state.select(1, msb: nil, lsb: value)
        case .nrpnMSB: state.select(2, msb: value, lsb: nil)
        case .nrpnLSB: state.select(2, msb: nil, lsb: value)
        case .dataEntry, .dataEntryLSB, .dataIncrement, .dataDecrement:
            guard !state.isNull else { return nil }
            let kind: ParameterChange.Kind = state.selection == 1 ? .registered : .nonRegistered
            let source: ParameterChange.Source
            switch named {
            case .dataEntry:
                state.value = UInt16(value) << 7
                source = .dataEntryMSB
            case .dataEntryLSB:
                state.value = state.value & 0x3F80 | UInt16(value)
                source = .dataEntryLSB
            case .dataIncrement:
                state.value = min(state.value + 1, 0x3FFF)
                source = .increment
            default:
                state.value = state.value == 0 ? 0 : state.value - 1
                source = .decrement
            }
            return ParameterChange(channel: c, kind: kind, parameter: state.parameter, value: state.value,
                                   source: source)
        default: break
        }
        return nil
    }

    /// Selects the null parameter on `channel` (low 4 bits used): data entry is ignored until a parameter is
    /// selected again. What reset all controllers (CC 121) does to the selection (RP-015).
    @inlinable @_noLocks
    public mutating func deselect(channel: UInt8) {
        channels[Int(channel & 0x0F)] = ChannelState()
    }
}

/// The registered parameter numbers of MIDI 1.0 (CC 101/100) and their names; ``ParameterChange/parameter``
/// holds the number (`rawValue`).
public enum RegisteredParameter: UInt16, Sendable {
    /// RPN 0: pitch bend sensitivity, semitones (data entry MSB) and cents (LSB).
    case pitchBendSensitivity = 0
    /// RPN 1: channel fine tuning.
    case fineTuning = 1
    /// RPN 2: channel coarse tuning.
    case coarseTuning = 2
    /// RPN 3: tuning program change.
    case tuningProgram = 3
    /// RPN 4: tuning bank select.
    case tuningBank = 4
    /// RPN 5: modulation depth range.
    case modulationDepthRange = 5
    /// RPN 127/127: no parameter selected (data entry is ignored).
    case null = 0x3FFF

    /// The parameter's name in MIDI 1.0: "Pitch Bend Sensitivity".
    public var name: String {
        switch self {
        case .pitchBendSensitivity: "Pitch Bend Sensitivity"
        case .fineTuning: "Channel Fine Tuning"
        case .coarseTuning: "Channel Coarse Tuning"
        case .tuningProgram: "Tuning Program Change"
        case .tuningBank: "Tuning Bank Select"
        case .modulationDepthRange: "Modulation Depth Range"
        case .null: "Null"
        }
    }
}
