// What an SFZ region asks of a note beyond SF2's key and velocity ranges, checked at note-on (and note-off,
// for release triggers) on the rendering thread from tables made at load (Synth+SampleZoneRules.swift). An
// SF2 font has none: every zone plays as its ranges say.

/// One zone's note-on conditions (an SFZ region's `seq_length`/`seq_position`, `lorand`/`hirand`,
/// `sw_last`/`sw_default`, one `loccN`/`hiccN` and `trigger=release`). The default holds always.
public struct SampleZoneRule: BitwiseCopyable, Equatable {
    /// Round robins: of every `sequenceLength` notes that reach the zone, it plays the `sequencePosition`th
    /// (1-based); length 1 plays each.
    public var sequenceLength: UInt8 = 1
    public var sequencePosition: UInt8 = 1
    /// The zone plays when the note's random number (0 <= r < 1, one per note) is in randomLow..<randomHigh
    /// (randomHigh 1 includes 1).
    public var randomLow: Float = 0
    public var randomHigh: Float = 1
    /// Key switch: the zone plays while the channel's last switch key (else `switchDefault`) is `switchKey`;
    /// -1: no key switch.
    public var switchKey: Int8 = -1
    public var switchDefault: Int8 = -1
    /// The zone plays while controller `controller` (0...127) is in controllerLow...controllerHigh; -1: none.
    public var controller: Int16 = -1
    public var controllerLow: UInt8 = 0
    public var controllerHigh: UInt8 = 127
    /// The zone starts at the note-off (with the note-on's velocity), not at the note-on.
    public var onRelease = false

    public init() {}
}

/// The per-synth state the rules read and move: each zone's round-robin count, each channel's last switch
/// key, each channel and key's note-on velocity (for release triggers), the zones a note-on chose, and the
/// random numbers' state. Made with the synth's font tables; rendering thread only.
struct SampleZoneRuleState: ~Copyable {
    let sequenceCounters: FixedArray<UInt16>
    let chosen: FixedArray<UInt8>
    let switchKey: FixedArray<Int8>
    let noteVelocity: FixedArray<UInt8>

    init(zones: Int) {
        sequenceCounters = FixedArray(max(zones, 1), 0 as UInt16)
        chosen = FixedArray(max(zones, 1), 1 as UInt8)
        switchKey = FixedArray(16, -1 as Int8)
        noteVelocity = FixedArray(16 * 128, 0 as UInt8)
    }
}
