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
        case .controlChange(let m) where m.controller == 120 || m.controller == 123:
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

/// The computer keyboard as a two-octave instrument in the tracker layout. Terminals report no key release,
/// so a note ends `gate` seconds after its key was last pressed (auto-repeat keeps it going), or in hold
/// mode a second press ends it.
public struct ComputerKeyboard: Sendable {
    public static let lowerRow: [Character] = ["z", "s", "x", "d", "c", "v", "g", "b", "h", "n", "j", "m"]
    public static let upperRow: [Character] = ["q", "2", "w", "3", "e", "r", "5", "t", "6", "y", "7", "u"]

    /// Octave of the lower row's C (with C4 = note 60): 0...8.
    public var octave: Int
    public var velocity: Int
    public var gate: Double
    public var hold: Bool
    public var channel: UInt8
    /// Sounding notes played from here and when each ends (infinity in hold mode).
    public private(set) var sounding: [UInt8: Double] = [:]

    public init(octave: Int = 4, velocity: Int = 100, gate: Double = 0.3, hold: Bool = false, channel: UInt8 = 0) {
        self.octave = min(max(octave, 0), 8); self.velocity = min(max(velocity, 1), 127)
        self.gate = gate; self.hold = hold; self.channel = channel & 15
    }

    /// The note a key plays at the current octave, if it is a note key.
    public func note(for key: Character) -> UInt8? {
        let base = (octave + 1) * 12
        if let i = Self.lowerRow.firstIndex(of: key) { return base + i <= 127 ? UInt8(base + i) : nil }
        if let i = Self.upperRow.firstIndex(of: key) { return base + 12 + i <= 127 ? UInt8(base + 12 + i) : nil }
        return nil
    }

    /// Plays (or in hold mode toggles) `note`; returns the messages to send.
    public mutating func press(note: UInt8, now: Double) -> [ShortMessage] {
        if let _ = sounding[note] {
            if hold {
                sounding[note] = nil
                return [ShortMessage(status: 0x80 | channel, data1: note, data2: 0)]
            }
            sounding[note] = now + gate
            return []
        }
        sounding[note] = hold ? .infinity : now + gate
        return [ShortMessage(status: 0x90 | channel, data1: note, data2: UInt8(velocity))]
    }

    /// Note offs for notes whose gate ran out.
    public mutating func expire(now: Double) -> [ShortMessage] {
        var out: [ShortMessage] = []
        for (note, end) in sounding where end <= now {
            sounding[note] = nil
            out.append(ShortMessage(status: 0x80 | channel, data1: note, data2: 0))
        }
        return out.sorted { $0.data1 < $1.data1 }
    }

    /// Note offs for everything sounding from here.
    public mutating func releaseAll() -> [ShortMessage] {
        defer { sounding.removeAll() }
        return sounding.keys.sorted().map { ShortMessage(status: 0x80 | channel, data1: $0, data2: 0) }
    }

    /// The earliest pending note end (for the UI loop's wake-up), nil if none.
    public var nextExpiry: Double? { sounding.values.filter { $0.isFinite }.min() }
}
