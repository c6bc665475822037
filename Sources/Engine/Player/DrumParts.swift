import MIDI

/// Which channels are drum parts at a point of a song, by the rule the synth plays them by (`Synth.isDrumPart`,
/// Synth+Drums.swift): channel 10 unless GS Use For Rhythm Part says otherwise, any channel that message makes
/// one, any channel whose bank MSB (CC 0) is 120 (GM2 rhythm) or 127 (XG drum kit); bank MSB 121 (GM2 melodic)
/// makes a channel melodic. GM, GM2, GS and XG resets forget the rhythm parts and set every bank to 0. Fed the
/// song's messages in order, as the synth is, so a transposition spares exactly the channels that play drums.
struct DrumParts {
    private var bank = [UInt8](repeating: 0, count: 16)
    /// GS Use For Rhythm Part: -1 not set, 0 normal, 1 drum part.
    private var rhythm = [Int8](repeating: -1, count: 16)

    func isDrumPart(_ channel: UInt8) -> Bool {
        let ch = Int(channel & 0x0F)
        if bank[ch] == 120 || bank[ch] == 127 { return true }
        if bank[ch] == 121 { return false }
        return rhythm[ch] >= 0 ? rhythm[ch] != 0 : ch == 9
    }

    /// Takes in what a message changes: a bank select, or a sysex (`sysex`: its bytes, F0 through F7).
    mutating func update(_ message: ShortMessage, sysex: [UInt8]) {
        if message.kind == .controlChange && message.data1 == Controller.bankSelect.rawValue {
            bank[Int(message.channel)] = message.data2
        } else if message.isSystemExclusive {
            let parsed = sysex.withUnsafeBufferPointer { UniversalSystemExclusive($0) }
            switch parsed {
            case .generalMIDIOn?, .generalMIDI2On?, .gsReset?, .xgSystemOn?:
                bank = [UInt8](repeating: 0, count: 16)
                rhythm = [Int8](repeating: -1, count: 16)
            case .gsRhythmPart(let channel, let map)?:
                rhythm[Int(channel & 0x0F)] = map != 0 ? 1 : 0
            default:
                break
            }
        }
    }
}
