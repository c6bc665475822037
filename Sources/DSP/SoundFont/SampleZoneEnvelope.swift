// What a note's velocity and the channel's controllers at its note-on do to an SFZ zone's volume and
// modulation envelopes (Synth+SampleZoneEnvelopes.swift applies them). An SF2 zone's is empty.

/// What a note's velocity (0...1, velocity / 127) adds to the volume envelope at its start, per unit of it:
/// seconds to the delay, attack, hold, decay and release, percent to the sustain level (SFZ's `ampeg_vel2*`,
/// as sfizz adds them); the level (0...1) the attack starts from (`ampeg_start`); what controllers add to both
/// at the note-on (`ampeg_*_onccN`); and the same for the modulation envelope (`fileg_`/`pitcheg_` `vel2*` and
/// `*_onccN`). All 0: the envelopes are the zone's.
public struct SampleZoneEnvelope: BitwiseCopyable, Equatable {
    public var delay: Float = 0, attack: Float = 0, hold: Float = 0, decay: Float = 0, sustain: Float = 0, release: Float = 0
    public var start: Float = 0
    /// Per unit of controllers' values at the note-on (value / 127; SFZ's `ampeg_*_onccN` and
    /// `ampeg_start_onccN`, as sfizz takes them when the note starts), summed over the controllers as sfizz sums them.
    public var controllers = SampleZoneEnvelopeControllers()
    /// The modulation envelope's shifts per unit of velocity and of controllers' values.
    public var modulationVelocity = SampleZoneEnvelopeShift()
    public var modulationControllers = SampleZoneEnvelopeControllers()

    public init() {}

    var isEmpty: Bool {
        @_noLocks get {
            if delay != 0 || attack != 0 || hold != 0 || decay != 0 || sustain != 0 || release != 0 { return false }
            if controllers.count != 0 || modulationControllers.count != 0 { return false }
            return modulationVelocity.isEmpty
        }
    }
}

/// Seconds added to an envelope's delay, attack, hold, decay and release, percent to its sustain level and
/// to its start level, per unit of a source (0...1).
public struct SampleZoneEnvelopeShift: BitwiseCopyable, Equatable {
    public var delay: Float = 0, attack: Float = 0, hold: Float = 0, decay: Float = 0, sustain: Float = 0, release: Float = 0
    public var start: Float = 0

    @_noLocks public init() {}

    var isEmpty: Bool {
        @_noLocks get {
            if delay != 0 || attack != 0 || hold != 0 || decay != 0 { return false }
            if sustain != 0 || release != 0 { return false }
            return start == 0
        }
    }

    /// This shift `scale` times added to `other`.
    @_noLocks @inline(__always)
    func added(to other: SampleZoneEnvelopeShift, times scale: Float) -> SampleZoneEnvelopeShift {
        var sum = other
        sum.delay += delay * scale
        sum.attack += attack * scale
        sum.hold += hold * scale
        sum.decay += decay * scale
        sum.sustain += sustain * scale
        sum.release += release * scale
        sum.start += start * scale
        return sum
    }
}

/// Up to `capacity` controllers (0...127), each with the shift it adds to an envelope at its top (value / 127
/// of it at the note-on).
public struct SampleZoneEnvelopeControllers: BitwiseCopyable, Equatable {
    /// A controller and its shift.
    public struct Entry: BitwiseCopyable, Equatable {
        public var controller: UInt8
        public var shift: SampleZoneEnvelopeShift

        public init(controller: UInt8, shift: SampleZoneEnvelopeShift) { (self.controller, self.shift) = (controller & 0x7F, shift) }
    }

    public static var capacity: Int { @_noLocks get { 4 } }
    public private(set) var count: UInt8 = 0
    private var entries = InlineArray<4, Entry>(repeating: Entry(controller: 0, shift: SampleZoneEnvelopeShift()))

    public init() {}

    /// Adds `entry`; false, nothing added, when `capacity` are there.
    public mutating func add(_ entry: Entry) -> Bool {
        if Int(count) >= Self.capacity { return false }
        entries[Int(count)] = entry
        count += 1
        return true
    }

    /// The `i`th entry (i < count).
    public func entry(_ i: Int) -> Entry { entries[i] }

    /// The shifts' sum at the values `values` (a channel's 128 controllers) holds, each value / 127 of its shift.
    @_noLocks
    func shift(_ values: UnsafePointer<UInt8>) -> SampleZoneEnvelopeShift {
        var sum = SampleZoneEnvelopeShift()
        for i in 0..<Int(count) {
            let entry = entries[i]
            sum = entry.shift.added(to: sum, times: Float(values[Int(entry.controller)]) / 127)
        }
        return sum
    }

    public static func == (a: SampleZoneEnvelopeControllers, b: SampleZoneEnvelopeControllers) -> Bool {
        a.count == b.count && (0..<Int(a.count)).allSatisfy { a.entries[$0] == b.entries[$0] }
    }
}
