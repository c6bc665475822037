// What an SFZ region asks of a note beyond SF2's key and velocity ranges, checked at note-on (and note-off,
// for release triggers) on the rendering thread from tables made at load (Synth+SampleZoneRules.swift). An
// SF2 font has none: every zone plays as its ranges say.

/// One zone's note-on conditions (an SFZ region's `seq_length`/`seq_position`, `lorand`/`hirand`,
/// `sw_last`/`sw_default`, `sw_down`/`sw_up`, one `loccN`/`hiccN`, its `trigger`) and the level its note
/// gives it. The default holds always and leaves the level alone.
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
    /// With `onRelease`: a note-off while the sustain pedal is down starts the zone when the pedal comes up
    /// (SFZ's `trigger=release`); without, at the note-off whatever the pedal (`trigger=release_key`).
    public var waitsForPedal = false
    /// With `onRelease`: dB per second of the note's holding time the zone starts below its level (`rt_decay`).
    public var releaseDecay: Float = 0
    /// Which note-ons start it, by the channel's other keys held: `SampleZoneRule.anyNote`, `.firstNote`
    /// (no other key down: SFZ's `trigger=first`) or `.legatoNote` (another key down: `trigger=legato`).
    public var notes: UInt8 = SampleZoneRule.anyNote
    /// The zone plays while key `switchDown` is held (`sw_down`), and while `switchUp` is not (`sw_up`);
    /// -1: no such condition.
    public var switchDown: Int8 = -1
    public var switchUp: Int8 = -1
    /// The zone plays when the channel's note-on before this one was on key `previousKey` (`sw_previous`);
    /// -1: no such condition.
    public var previousKey: Int8 = -1
    /// The level the note's key and velocity give it (SFZ crossfades and key tracking; Synth+SampleZoneLevels.swift).
    public var level = SampleZoneLevel()
    /// What the note's velocity adds to the volume envelope (`ampeg_vel2*`; Synth+SampleZoneEnvelopes.swift).
    public var envelope = SampleZoneEnvelope()
    /// The voice's LFOs that are sines rather than triangles (`sineModulationLFO`, `sineVibratoLFO`).
    public var sineLFOs: UInt8 = 0
    /// How the zone's voice ends when its exclusive class cuts it (SFZ's `off_mode`): `SampleZoneRule.offFast`
    /// (the synth's 3 ms steal fade), `.offNormal` (its own release) or `.offTime` (the release, `offTime` s long).
    public var offMode: UInt8 = SampleZoneRule.offFast
    public var offTime: Float = 0.006
    /// The voices this zone's notes limit and end (SFZ's `group`, `off_by`, `polyphony`, `note_polyphony`;
    /// Synth+SampleZoneLimits.swift).
    public var limits = SampleZoneLimits()

    public init() {}

    @inlinable public static var anyNote: UInt8 { @_noLocks get { 0 } }
    @inlinable public static var firstNote: UInt8 { @_noLocks get { 1 } }
    @inlinable public static var legatoNote: UInt8 { @_noLocks get { 2 } }
    @inlinable public static var offFast: UInt8 { @_noLocks get { 0 } }
    @inlinable public static var offNormal: UInt8 { @_noLocks get { 1 } }
    @inlinable public static var offTime: UInt8 { @_noLocks get { 2 } }
    @inlinable public static var sineModulationLFO: UInt8 { @_noLocks get { 1 } }
    @inlinable public static var sineVibratoLFO: UInt8 { @_noLocks get { 2 } }
}

/// Which voices a zone's note ends before it starts, as sfizz ends them (each as its own zone's `offMode`
/// says): those of the zones whose `offBy` is this zone's `group` (numbered from 0 within the instrument at load;
/// -1: none), and the oldest sounding voice over a limit: of this region (`regionPolyphony`), of its group
/// (`groupPolyphony`, the same for every zone of the group), of the `<group>` header it came from (`set`,
/// `setPolyphony`), and the quietest-velocity ones of its group on its key over `notePolyphony`.
/// `UInt16.max`: no limit. The second zone of a stereo region (`sister`) leaves all of it to the first.
public struct SampleZoneLimits: BitwiseCopyable, Equatable {
    public var group: Int32 = 0, offBy: Int32 = -1
    public var region: Int32 = -1, set: Int32 = -1
    public var regionPolyphony = UInt16.max, groupPolyphony = UInt16.max, setPolyphony = UInt16.max
    public var notePolyphony = UInt16.max
    public var sister = false
    /// Some zone of the instrument has this zone's group as its `offBy`.
    public var cuts = false

    public init() {}

    /// Whether any voice can be ended by this zone's notes.
    public var endsVoices: Bool {
        @_noLocks get {
            if cuts { return true }
            return min(min(regionPolyphony, groupPolyphony), min(setPolyphony, notePolyphony)) != UInt16.max
        }
    }
}

/// A fade in and a fade out over a key or velocity range (SFZ's `xfin_lo*`/`xfin_hi*`, `xfout_lo*`/`xfout_hi*`):
/// silent below `inLow`, rising to full at `inHigh`, full to `outLow`, falling to silent at `outHigh`; the
/// defaults (0, 0, 127, 127) are full everywhere. `power` curves rise as the square root (equal power), else
/// linearly (equal gain), as sfizz's.
public struct SampleZoneFade: BitwiseCopyable, Equatable {
    public var inLow: UInt8 = 0, inHigh: UInt8 = 0, outLow: UInt8 = 127, outHigh: UInt8 = 127
    public var power = true

    public init() {}
}

/// The level factors a zone takes at its note-on from the note: crossfades over key and velocity, and key
/// tracking (`amp_keytrack` dB per key from `amp_keycenter`). The defaults leave the level as it is.
public struct SampleZoneLevel: BitwiseCopyable, Equatable {
    public var key = SampleZoneFade(), velocity = SampleZoneFade()
    public var keytrackDecibels: Float = 0
    public var keycenter: UInt8 = 60
    /// Crossfades over controllers' values (SFZ's `xfin_loccN`...), followed while the note sounds.
    public var controllerFades = SampleZoneControllerFades()
    /// Controllers' effects on the volume, amplitude and pan (SFZ's `volume_onccN`...), followed likewise.
    public var controllerLevels = SampleZoneControllerLevels()
    /// A velocity-to-gain curve (`amp_velcurve_N`) in place of the velocity modulator, scaled by `velocityTrack`
    /// (`amp_veltrack` as a fraction, -1...1) as sfizz scales it; no points: none.
    public var velocityCurve = SampleZoneCurve()
    public var velocityTrack: Float = 1
    /// sfizz's own velocity curve (velocity / 127, squared) in place of the velocity modulator, scaled by
    /// `velocityTrack` as a `velocityCurve` is (SFZ's `amp_veltrack` below 0 without `amp_velcurve_N`).
    public var squaredVelocity = false

    public init() {}
}

/// Up to `capacity` crossfades, each over one controller's value (0 to 127): the voice's level is their gains'
/// product (as sfizz multiplies them), worked out at the note-on and again whenever the channel's controllers
/// change. None: the level stays.
public struct SampleZoneControllerFades: BitwiseCopyable, Equatable {
    public static var capacity: Int { @_noLocks get { 4 } }
    public private(set) var count: UInt8 = 0
    private var controllers = InlineArray<4, UInt8>(repeating: 0)
    private var fades = InlineArray<4, SampleZoneFade>(repeating: SampleZoneFade())

    public init() {}

    /// Adds a crossfade over `controller`'s value; false, nothing added, when `capacity` are there.
    public mutating func add(controller: UInt8, _ fade: SampleZoneFade) -> Bool {
        guard Int(count) < Self.capacity else { return false }
        controllers[Int(count)] = controller & 0x7F
        fades[Int(count)] = fade
        count += 1
        return true
    }

    /// The product of the fades' gains at the values `controllers` (a channel's 128) holds.
    @_noLocks
    public func gain(_ values: UnsafePointer<UInt8>) -> Float {
        var gain: Float = 1
        for i in 0..<Int(count) { gain *= fades[i].gain(at: values[Int(controllers[i])]) }
        return gain
    }

    public static func == (a: SampleZoneControllerFades, b: SampleZoneControllerFades) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<Int(a.count) where a.controllers[i] != b.controllers[i] || a.fades[i] != b.fades[i] { return false }
        return true
    }
}

/// A piecewise-linear curve over 0...127 through up to `SampleZoneCurve.capacity` points (x rising), flat
/// outside them; no points is no curve.
public struct SampleZoneCurve: BitwiseCopyable, Equatable {
    public static var capacity: Int { @_noLocks get { 10 } }
    public private(set) var count: UInt8 = 0
    private var xs = InlineArray<10, UInt8>(repeating: 0)
    private var ys = InlineArray<10, Float>(repeating: 0)

    public init() {}

    /// The curve through `points` (x 0...127 rising, the first `capacity` taken).
    public init(_ points: [(x: UInt8, y: Float)]) {
        for (x, y) in points.prefix(Self.capacity) {
            xs[Int(count)] = x
            ys[Int(count)] = y
            count += 1
        }
    }

    /// The curve's value at `x`.
    @_noLocks
    public func value(at x: UInt8) -> Float {
        let n = Int(count)
        if n == 0 { return 1 }
        if x <= xs[0] { return ys[0] }
        for i in 1..<n where x <= xs[i] {
            let span = Float(xs[i] - xs[i - 1])
            return span > 0 ? ys[i - 1] + (ys[i] - ys[i - 1]) * Float(x - xs[i - 1]) / span : ys[i]
        }
        return ys[n - 1]
    }

    public static func == (a: SampleZoneCurve, b: SampleZoneCurve) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<Int(a.count) where a.xs[i] != b.xs[i] || a.ys[i] != b.ys[i] { return false }
        return true
    }
}

/// The per-synth state the rules read and move: each zone's round-robin count, each channel's last switch
/// key, each channel and key's note-on velocity (for release triggers), the zones a note-on chose, and the
/// random numbers' state. Made with the synth's font tables; rendering thread only.
struct SampleZoneRuleState: ~Copyable {
    let sequenceCounters: FixedArray<UInt16>
    let chosen: FixedArray<UInt8>
    let switchKey: FixedArray<Int8>
    let noteVelocity: FixedArray<UInt8>
    /// Each channel's keys down (note-ons with no note-off yet), for `trigger=first`/`legato`.
    let keysDown: FixedArray<UInt8>
    /// Each channel's last note-on key (-1 before the first), for `sw_previous`.
    let lastKey: FixedArray<Int8>
    /// Each channel and key's note-on velocity when its note-off came while the pedal held its release
    /// zones back (0: none waiting).
    let pedalVelocity: FixedArray<UInt8>
    /// [0]: frames rendered since the synth was made; then each channel and key's frame of its last note-on.
    let clock: FixedArray<Int64>

    /// Each slot's note event (`event` when it started: the voices of one note-on or note-off, ended
    /// together as sfizz's sister voices) and whether it was ended by a limit or an off group (1: sfizz's
    /// "offed", no longer counted).
    let voiceEvent: FixedArray<UInt32>
    let offed: FixedArray<UInt8>
    /// [0]: the serial of the note event starting voices now.
    let event: FixedArray<UInt32>

    init(zones: Int, slots: Int = 1) {
        voiceEvent = FixedArray(max(slots, 1), 0 as UInt32)
        offed = FixedArray(max(slots, 1), 0 as UInt8)
        event = FixedArray(1, 0 as UInt32)
        sequenceCounters = FixedArray(max(zones, 1), 0 as UInt16)
        chosen = FixedArray(max(zones, 1), 1 as UInt8)
        switchKey = FixedArray(16, -1 as Int8)
        lastKey = FixedArray(16, -1 as Int8)
        noteVelocity = FixedArray(16 * 128, 0 as UInt8)
        keysDown = FixedArray(16, 0 as UInt8)
        pedalVelocity = FixedArray(16 * 128, 0 as UInt8)
        clock = FixedArray(1 + 16 * 128, 0 as Int64)
    }
}
