/// A control change's controller number, 0...127, with a name for every controller MIDI 1.0 and General MIDI
/// define (MIDIKit's `CC.Controller` is the model). Backbeat names a controller here and nowhere else: the
/// synths, the take writer and the parameter-number decoder switch on these names, never on bare numbers.
///
/// A struct over the number rather than an enum, so every number has a value (undefined ones too: a
/// SoundFont modulator may read any controller) and a switch costs what a switch on the byte costs.
@frozen
public struct Controller: RawRepresentable, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The controller number, 0...127.
    public var rawValue: UInt8

    @inlinable @_noLocks public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The controller with this number (low 7 bits used).
    @inlinable @_noLocks public init(_ number: UInt8) { rawValue = number & 0x7F }

    // Spelled out (not synthesized) so that they are inlinable: a `switch` on names uses `~=`, and the
    // real-time checker must see through it.
    @inlinable @_noLocks public static func == (a: Controller, b: Controller) -> Bool { a.rawValue == b.rawValue }
    @inlinable @_noLocks public static func ~= (pattern: Controller, value: Controller) -> Bool { pattern.rawValue == value.rawValue }
    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// "7 Channel Volume", or the number alone for an undefined controller.
    public var description: String { name.map { "\(rawValue) \($0)" } ?? "\(rawValue)" }

    // MARK: Controllers with an MSB/LSB pair (0...31, LSB at +32)

    /// Bank select MSB (CC 0); its LSB is CC 32 (`bankSelect.lsb`).
    @inlinable public static var bankSelect: Controller { @_noLocks get { Controller(rawValue: 0) } }
    /// Modulation wheel (CC 1): vibrato depth.
    @inlinable public static var modulationWheel: Controller { @_noLocks get { Controller(rawValue: 1) } }
    /// Breath controller (CC 2).
    @inlinable public static var breath: Controller { @_noLocks get { Controller(rawValue: 2) } }
    /// Foot controller (CC 4).
    @inlinable public static var foot: Controller { @_noLocks get { Controller(rawValue: 4) } }
    /// Portamento time (CC 5).
    @inlinable public static var portamentoTime: Controller { @_noLocks get { Controller(rawValue: 5) } }
    /// Data entry MSB (CC 6): the value of the selected RPN or NRPN; its LSB is CC 38.
    @inlinable public static var dataEntry: Controller { @_noLocks get { Controller(rawValue: 6) } }
    /// Channel volume (CC 7).
    @inlinable public static var volume: Controller { @_noLocks get { Controller(rawValue: 7) } }
    /// Balance (CC 8).
    @inlinable public static var balance: Controller { @_noLocks get { Controller(rawValue: 8) } }
    /// Pan (CC 10): 0 hard left, 64 centre, 127 hard right.
    @inlinable public static var pan: Controller { @_noLocks get { Controller(rawValue: 10) } }
    /// Expression (CC 11): a second volume, a fraction of CC 7.
    @inlinable public static var expression: Controller { @_noLocks get { Controller(rawValue: 11) } }
    /// Effect control 1 (CC 12).
    @inlinable public static var effectControl1: Controller { @_noLocks get { Controller(rawValue: 12) } }
    /// Effect control 2 (CC 13).
    @inlinable public static var effectControl2: Controller { @_noLocks get { Controller(rawValue: 13) } }
    /// General purpose controllers 1...4 (CC 16...19).
    @inlinable public static var generalPurpose1: Controller { @_noLocks get { Controller(rawValue: 16) } }
    @inlinable public static var generalPurpose2: Controller { @_noLocks get { Controller(rawValue: 17) } }
    @inlinable public static var generalPurpose3: Controller { @_noLocks get { Controller(rawValue: 18) } }
    @inlinable public static var generalPurpose4: Controller { @_noLocks get { Controller(rawValue: 19) } }
    /// Bank select LSB (CC 32).
    @inlinable public static var bankSelectLSB: Controller { @_noLocks get { Controller(rawValue: 32) } }
    /// Data entry LSB (CC 38).
    @inlinable public static var dataEntryLSB: Controller { @_noLocks get { Controller(rawValue: 38) } }

    /// The LSB of an MSB controller 0...31 (32...63); nil above 31.
    @inlinable public var lsb: Controller? { @_noLocks get { rawValue < 32 ? Controller(rawValue: rawValue + 32) : nil } }
    /// For an LSB controller 32...63, its MSB controller (0...31); nil otherwise.
    @inlinable public var msb: Controller? { @_noLocks get { (32...63).contains(rawValue) ? Controller(rawValue: rawValue - 32) : nil } }

    // MARK: Switches and sound controllers (64...95)

    /// Sustain (damper) pedal (CC 64): down at 64 and above.
    @inlinable public static var sustain: Controller { @_noLocks get { Controller(rawValue: 64) } }
    /// Portamento on/off (CC 65).
    @inlinable public static var portamento: Controller { @_noLocks get { Controller(rawValue: 65) } }
    /// Sostenuto pedal (CC 66).
    @inlinable public static var sostenuto: Controller { @_noLocks get { Controller(rawValue: 66) } }
    /// Soft pedal (CC 67).
    @inlinable public static var softPedal: Controller { @_noLocks get { Controller(rawValue: 67) } }
    /// Legato footswitch (CC 68).
    @inlinable public static var legato: Controller { @_noLocks get { Controller(rawValue: 68) } }
    /// Hold 2 (CC 69).
    @inlinable public static var hold2: Controller { @_noLocks get { Controller(rawValue: 69) } }
    /// Sound controllers 1...10 (CC 70...79) with their RP-021 defaults.
    @inlinable public static var soundVariation: Controller { @_noLocks get { Controller(rawValue: 70) } }
    @inlinable public static var timbre: Controller { @_noLocks get { Controller(rawValue: 71) } }
    @inlinable public static var releaseTime: Controller { @_noLocks get { Controller(rawValue: 72) } }
    @inlinable public static var attackTime: Controller { @_noLocks get { Controller(rawValue: 73) } }
    @inlinable public static var brightness: Controller { @_noLocks get { Controller(rawValue: 74) } }
    @inlinable public static var decayTime: Controller { @_noLocks get { Controller(rawValue: 75) } }
    @inlinable public static var vibratoRate: Controller { @_noLocks get { Controller(rawValue: 76) } }
    @inlinable public static var vibratoDepth: Controller { @_noLocks get { Controller(rawValue: 77) } }
    @inlinable public static var vibratoDelay: Controller { @_noLocks get { Controller(rawValue: 78) } }
    @inlinable public static var soundController10: Controller { @_noLocks get { Controller(rawValue: 79) } }
    /// General purpose controllers 5...8 (CC 80...83).
    @inlinable public static var generalPurpose5: Controller { @_noLocks get { Controller(rawValue: 80) } }
    @inlinable public static var generalPurpose6: Controller { @_noLocks get { Controller(rawValue: 81) } }
    @inlinable public static var generalPurpose7: Controller { @_noLocks get { Controller(rawValue: 82) } }
    @inlinable public static var generalPurpose8: Controller { @_noLocks get { Controller(rawValue: 83) } }
    /// Portamento control (CC 84): the note the next portamento starts from.
    @inlinable public static var portamentoControl: Controller { @_noLocks get { Controller(rawValue: 84) } }
    /// High resolution velocity prefix (CC 88, CA-031).
    @inlinable public static var highResolutionVelocity: Controller { @_noLocks get { Controller(rawValue: 88) } }
    /// Effects 1 depth, by default reverb send level (CC 91, RP-023).
    @inlinable public static var reverbSend: Controller { @_noLocks get { Controller(rawValue: 91) } }
    /// Effects 2 depth, formerly tremolo (CC 92).
    @inlinable public static var tremoloDepth: Controller { @_noLocks get { Controller(rawValue: 92) } }
    /// Effects 3 depth, by default chorus send level (CC 93, RP-023).
    @inlinable public static var chorusSend: Controller { @_noLocks get { Controller(rawValue: 93) } }
    /// Effects 4 depth, formerly celeste (CC 94).
    @inlinable public static var celesteDepth: Controller { @_noLocks get { Controller(rawValue: 94) } }
    /// Effects 5 depth, formerly phaser (CC 95).
    @inlinable public static var phaserDepth: Controller { @_noLocks get { Controller(rawValue: 95) } }

    // MARK: Parameter numbers (96...101)

    /// Data increment (CC 96): the selected parameter's value plus one.
    @inlinable public static var dataIncrement: Controller { @_noLocks get { Controller(rawValue: 96) } }
    /// Data decrement (CC 97).
    @inlinable public static var dataDecrement: Controller { @_noLocks get { Controller(rawValue: 97) } }
    /// Non-registered parameter number LSB (CC 98) and MSB (CC 99).
    @inlinable public static var nrpnLSB: Controller { @_noLocks get { Controller(rawValue: 98) } }
    @inlinable public static var nrpnMSB: Controller { @_noLocks get { Controller(rawValue: 99) } }
    /// Registered parameter number LSB (CC 100) and MSB (CC 101).
    @inlinable public static var rpnLSB: Controller { @_noLocks get { Controller(rawValue: 100) } }
    @inlinable public static var rpnMSB: Controller { @_noLocks get { Controller(rawValue: 101) } }

    // MARK: Channel mode messages (120...127, see `ChannelMode`)

    /// All sound off (CC 120): silence now, releases cut short.
    @inlinable public static var allSoundOff: Controller { @_noLocks get { Controller(rawValue: 120) } }
    /// Reset all controllers (CC 121, RP-015 says which).
    @inlinable public static var resetAllControllers: Controller { @_noLocks get { Controller(rawValue: 121) } }
    /// Local control (CC 122).
    @inlinable public static var localControl: Controller { @_noLocks get { Controller(rawValue: 122) } }
    /// All notes off (CC 123): every key up, the pedal still holds.
    @inlinable public static var allNotesOff: Controller { @_noLocks get { Controller(rawValue: 123) } }
    /// Omni off (CC 124), omni on (CC 125), mono on (CC 126), poly on (CC 127): each implies all notes off.
    @inlinable public static var omniOff: Controller { @_noLocks get { Controller(rawValue: 124) } }
    @inlinable public static var omniOn: Controller { @_noLocks get { Controller(rawValue: 125) } }
    @inlinable public static var monoOn: Controller { @_noLocks get { Controller(rawValue: 126) } }
    @inlinable public static var polyOn: Controller { @_noLocks get { Controller(rawValue: 127) } }

    /// True for the channel mode messages (120...127), which are not controller state.
    @inlinable public var isChannelMode: Bool { @_noLocks get { rawValue >= 120 } }

    /// The controller's name (MIDI 1.0 / GM), channel mode messages included; nil when undefined.
    public var name: String? {
        switch self {
        case .bankSelect: "Bank Select"
        case .modulationWheel: "Modulation Wheel"
        case .breath: "Breath Controller"
        case .foot: "Foot Controller"
        case .portamentoTime: "Portamento Time"
        case .dataEntry: "Data Entry"
        case .volume: "Channel Volume"
        case .balance: "Balance"
        case .pan: "Pan"
        case .expression: "Expression"
        case .effectControl1: "Effect Control 1"
        case .effectControl2: "Effect Control 2"
        case .generalPurpose1, .generalPurpose2, .generalPurpose3, .generalPurpose4:
            "General Purpose Controller \(rawValue - 15)"
        case let lsb where lsb.msb != nil:
            lsb.msb!.name.map { "\($0) LSB" } ?? "LSB for Controller \(rawValue - 32)"
        case .sustain: "Sustain Pedal"
        case .portamento: "Portamento On/Off"
        case .sostenuto: "Sostenuto"
        case .softPedal: "Soft Pedal"
        case .legato: "Legato Footswitch"
        case .hold2: "Hold 2"
        case .soundVariation: "Sound Variation"
        case .timbre: "Timbre/Harmonic Intensity"
        case .releaseTime: "Release Time"
        case .attackTime: "Attack Time"
        case .brightness: "Brightness"
        case .decayTime: "Decay Time"
        case .vibratoRate: "Vibrato Rate"
        case .vibratoDepth: "Vibrato Depth"
        case .vibratoDelay: "Vibrato Delay"
        case .soundController10: "Sound Controller 10"
        case .generalPurpose5, .generalPurpose6, .generalPurpose7, .generalPurpose8:
            "General Purpose Controller \(rawValue - 75)"
        case .portamentoControl: "Portamento Control"
        case .highResolutionVelocity: "High Resolution Velocity Prefix"
        case .reverbSend: "Reverb Send Level"
        case .tremoloDepth: "Tremolo Depth"
        case .chorusSend: "Chorus Send Level"
        case .celesteDepth: "Celeste Depth"
        case .phaserDepth: "Phaser Depth"
        case .dataIncrement: "Data Increment"
        case .dataDecrement: "Data Decrement"
        case .nrpnLSB: "NRPN LSB"
        case .nrpnMSB: "NRPN MSB"
        case .rpnLSB: "RPN LSB"
        case .rpnMSB: "RPN MSB"
        case .allSoundOff: "All Sound Off"
        case .resetAllControllers: "Reset All Controllers"
        case .localControl: "Local Control"
        case .allNotesOff: "All Notes Off"
        case .omniOff: "Omni Mode Off"
        case .omniOn: "Omni Mode On"
        case .monoOn: "Mono Mode On"
        case .polyOn: "Poly Mode On"
        default: nil
        }
    }
}

extension ControlChange {
    /// A control change of a named controller.
    public init(channel: UInt8, _ controller: Controller, value: UInt8) {
        self.init(channel: channel, controller: controller.rawValue, value: value)
    }

    /// The controller, by name.
    @inlinable public var named: Controller { @_noLocks get { Controller(rawValue: controller) } }
}
