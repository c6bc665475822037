import MIDI

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
                return [ShortMessage.noteOff(note, channel: channel)]
            }
            sounding[note] = now + gate
            return []
        }
        sounding[note] = hold ? .infinity : now + gate
        return [ShortMessage.noteOn(note, velocity: UInt8(velocity), channel: channel)]
    }

    /// Note offs for notes whose gate ran out.
    public mutating func expire(now: Double) -> [ShortMessage] {
        var out: [ShortMessage] = []
        for (note, end) in sounding where end <= now {
            sounding[note] = nil
            out.append(ShortMessage.noteOff(note, channel: channel))
        }
        return out.sorted { $0.data1 < $1.data1 }
    }

    /// Note offs for everything sounding from here.
    public mutating func releaseAll() -> [ShortMessage] {
        defer { sounding.removeAll() }
        return sounding.keys.sorted().map { ShortMessage.noteOff($0, channel: channel) }
    }

    /// The earliest pending note end (for the UI loop's wake-up), nil if none.
    public var nextExpiry: Double? { sounding.values.filter { $0.isFinite }.min() }
}
