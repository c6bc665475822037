// The reverb's settings in their user units, and the characters a GS reverb macro or character selects
// (FeedbackDelayReverb.swift runs them).

/// The reverb's settings in their user units.
public struct ReverbSettings: Sendable, Equatable {
    /// 0...1: the decay time at low and middle frequencies, RT60 = 0.3 s + 5 s x room size.
    public var roomSize: Float = 0.2
    /// 0...1: how much faster high frequencies die than low ones. At 0 the tail's RT60 at 8 kHz is still about
    /// two thirds of its RT60 at 500 Hz (a room's air and walls absorb the highs); at 1 about a fifth.
    public var damping: Float = 0
    /// 0...1: the left/right correlation of the tail is (1 - width)^3: 0 the same tail in both channels,
    /// 0.5 an eighth correlated, 1 fully decorrelated.
    public var width: Float = 0.5
    /// 0...1: the reverb's output gain (FluidSynth's default 0.9).
    public var level: Float = 0.9
    /// GS reverb character 0...7 (`ReverbCharacter`): the default is Hall 2, GS's own default.
    public var character: Int = ReverbCharacter.hall2.rawValue
    /// GS pre-LPF 0...7: 0 the input unfiltered, 7 its highs cut above about 650 Hz.
    public var preLowPass: Int = 0
    /// 0...127 ms between the dry sound and its reverb (GS's predelay).
    public var predelay: Float = 0
    /// 0...1: the share of each echo that comes back, for the Delay and Panning Delay characters.
    public var delayFeedback: Float = 0

    @_noLocks public init() {}

    /// RT60 in seconds for a room size.
    @_noLocks
    public static func decayTime(roomSize: Float) -> Float { 0.3 + 5 * min(max(roomSize, 0), 1) }

    /// The echo time of the Delay and Panning Delay characters for a room size: 20 ms + 430 ms x room size.
    @_noLocks
    public static func echoTime(roomSize: Float) -> Float { 0.02 + 0.43 * min(max(roomSize, 0), 1) }

    /// The longest predelay and echo, seconds (the delay memory made for them).
    static var longestPredelay: Double { @_noLocks get { 0.128 } }
    static var longestEcho: Double { @_noLocks get { 0.45 } }
}

/// GS's reverb characters (Roland SC-55/88: reverb macro or character 0...7).
public enum ReverbCharacter: Int, Sendable, CaseIterable {
    case room1 = 0, room2, room3, hall1, hall2, plate, delay, panningDelay

    /// The lines' lengths against Hall 2's (a smaller room has its echoes closer together), the input
    /// diffusers' gains against Hall 2's (a plate is denser at once), and the damping it adds (rooms are
    /// duller than halls, a plate brighter).
    var shape: (length: Float, diffusion: Float, damping: Float) {
        @_noLocks get {
            switch self {
            case .room1: (0.45, 0.8, 0.25)
            case .room2: (0.6, 0.85, 0.2)
            case .room3: (0.75, 0.9, 0.15)
            case .hall1: (0.85, 1, 0.05)
            case .hall2, .delay, .panningDelay: (1, 1, 0)
            case .plate: (0.5, 1.15, -0.15)
            }
        }
    }

    /// The character numbered `value`, Hall 2 for a number past 0...7.
    @_noLocks
    static func at(_ value: Int) -> ReverbCharacter {
        switch value {
        case 0: .room1
        case 1: .room2
        case 2: .room3
        case 3: .hall1
        case 5: .plate
        case 6: .delay
        case 7: .panningDelay
        default: .hall2
        }
    }

    /// Delay and Panning Delay are echoes, not a room.
    var isEcho: Bool {
        @_noLocks get {
            switch self {
            case .delay, .panningDelay: true
            default: false
            }
        }
    }
}
