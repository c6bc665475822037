import MIDI

/// Notes held right now, from every source, as the monitor saw them (note on/off, all notes off).
public struct HeldNotes: Equatable, Sendable {
    /// velocity (0: off) per channel * 128 + note
    private var velocities = [UInt8](repeating: 0, count: 16 * 128)

    public init() {}

    public mutating func apply(_ message: MIDIMessage) {
        switch message {
        case .noteOn(let m): velocities[Int(m.channel & 15) * 128 + Int(m.note & 127)] = m.velocity
        case .noteOff(let m): velocities[Int(m.channel & 15) * 128 + Int(m.note & 127)] = 0
        case .controlChange(let m) where m.named == .allSoundOff || m.named == .allNotesOff:
            let base = Int(m.channel & 15) * 128
            for i in base..<base + 128 { velocities[i] = 0 }
        case .systemReset: velocities = [UInt8](repeating: 0, count: 16 * 128)
        default: break
        }
    }

    /// The loudest velocity `note` is held with on any channel (0 when not held).
    public func velocity(of note: Int) -> UInt8 {
        guard (0...127).contains(note) else { return 0 }
        var v: UInt8 = 0
        for channel in 0..<16 { v = max(v, velocities[channel * 128 + note]) }
        return v
    }

    public var heldCount: Int { (0..<128).reduce(0) { $0 + (velocity(of: $1) > 0 ? 1 : 0) } }
}
