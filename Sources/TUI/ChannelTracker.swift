import DSP
import MIDI

/// What the screen names of each channel, as the monitor saw it delivered: the bank (CC0), for naming a
/// program change as the current synth plays it, and the sound controllers the synth panel edits.
public struct ChannelTracker: Equatable, Sendable {
    /// controller value per channel * 128 + number
    private var controllers = ChannelTracker.powerOn

    /// Bank 0, every sound controller (CC70-79) centred at 64, as the synth starts.
    static let powerOn: [UInt8] = (0..<16 * 128).map { (70...79).contains($0 % 128) ? 64 : 0 }

    public init() {}

    public mutating func apply(_ message: MIDIMessage) {
        switch message {
        case .controlChange(let m) where m.controller < 120:
            controllers[Int(m.channel & 15) * 128 + Int(m.controller)] = m.value & 0x7F
        case .systemReset: controllers = Self.powerOn
        default: break
        }
    }

    public func value(_ controller: Int, channel: UInt8) -> UInt8 { controllers[Int(channel & 15) * 128 + (controller & 127)] }
    public func bank(channel: UInt8) -> Int { Int(value(0, channel: channel)) }

    /// The sound controllers the synth panel shows for `channel`.
    public func soundControllers(channel: UInt8) -> [Int: UInt8] {
        Dictionary(uniqueKeysWithValues: SoundControllerRow.allCases.map { ($0.controller, value($0.controller, channel: channel)) })
    }
}
