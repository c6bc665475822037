/// What a region plays: a sample file or one of SFZ's generators.
public enum SFZSample: Sendable, Hashable {
    /// A file, its path resolved (the root file's folder, then `default_path`, backslashes read as `/`).
    case file(String)
    /// `*sine`, `*silence`, `*noise`: sound made by the player, no file.
    case generator(SFZGenerator)
}

/// SFZ's generators, and the waves sfizz adds (`*tri` is read as `*triangle`; `*gnoise` is Gaussian noise).
public enum SFZGenerator: String, Sendable, CaseIterable {
    case sine = "*sine", silence = "*silence", noise = "*noise"
    case triangle = "*triangle", square = "*square", saw = "*saw", gaussianNoise = "*gnoise"
}

/// A low and high bound, both included (`lokey`/`hikey`, `loccN`/`hiccN`...).
public struct SFZRange<Bound: Comparable & Sendable & Hashable>: Sendable, Hashable {
    public var low: Bound
    public var high: Bound

    public init(_ low: Bound, _ high: Bound) { (self.low, self.high) = (low, high) }
}

/// A crossfade's fade-in and fade-out bounds (`xfin_lo*`, `xfin_hi*`, `xfout_lo*`, `xfout_hi*`).
public struct SFZCrossfade: Sendable, Hashable {
    public var inLow = 0, inHigh = 0, outLow = 127, outHigh = 127

    public init() {}
}

public enum SFZTrigger: String, Sendable, CaseIterable {
    case attack, release, first, legato
    case releaseKey = "release_key"
}

public enum SFZLoopMode: String, Sendable, CaseIterable {
    case noLoop = "no_loop", oneShot = "one_shot", loopContinuous = "loop_continuous", loopSustain = "loop_sustain"
}

public enum SFZOffMode: String, Sendable, CaseIterable {
    case fast, normal, time
}

public enum SFZCurveShape: String, Sendable, CaseIterable {
    case gain, power
}

/// `fil_type`: the SFZ v1 types and sfizz's additions.
public enum SFZFilterType: String, Sendable, CaseIterable {
    case lpf1p = "lpf_1p", lpf2p = "lpf_2p", lpf4p = "lpf_4p", lpf6p = "lpf_6p"
    case hpf1p = "hpf_1p", hpf2p = "hpf_2p", hpf4p = "hpf_4p", hpf6p = "hpf_6p"
    case bpf1p = "bpf_1p", bpf2p = "bpf_2p", bpf4p = "bpf_4p", bpf6p = "bpf_6p"
    case brf1p = "brf_1p", brf2p = "brf_2p", apf1p = "apf_1p"
    case lpf2pSV = "lpf_2p_sv", hpf2pSV = "hpf_2p_sv", bpf2pSV = "bpf_2p_sv", brf2pSV = "brf_2p_sv"
    case lsh, hsh, peq, pink
}

/// An envelope generator (`ampeg_`, `fileg_`, `pitcheg_`): times in seconds, `start` and `sustain` in percent,
/// `depth` in cents (filter and pitch only); `vel2*` add per velocity unit; `*_onccN` add per CC value.
public struct SFZEnvelope: Sendable, Hashable {
    public enum Stage: String, Sendable, CaseIterable {
        case delay, start, attack, hold, decay, sustain, release, depth
    }

    public var delay = 0.0, start = 0.0, attack = 0.0, hold = 0.0, decay = 0.0, sustain = 100.0, release = 0.001, depth = 0.0
    /// `vel2delay`, `vel2attack`... by stage.
    public var velocity: [Stage: Double] = [:]
    /// `attack_oncc1=0.5`: by stage, then CC.
    public var onCC: [Stage: [Int: Double]] = [:]

    public init() {}

    public subscript(stage: Stage) -> Double {
        get {
            switch stage {
            case .delay: delay
            case .start: start
            case .attack: attack
            case .hold: hold
            case .decay: decay
            case .sustain: sustain
            case .release: release
            case .depth: depth
            }
        }
        set {
            switch stage {
            case .delay: delay = newValue
            case .start: start = newValue
            case .attack: attack = newValue
            case .hold: hold = newValue
            case .decay: decay = newValue
            case .sustain: sustain = newValue
            case .release: release = newValue
            case .depth: depth = newValue
            }
        }
    }
}

/// An SFZ v1 LFO (`amplfo_`, `fillfo_`, `pitchlfo_`): delay and fade in seconds, frequency in Hz, depth in dB
/// (amplitude) or cents.
public struct SFZLFO: Sendable, Hashable {
    public var delay = 0.0, fade = 0.0, frequency = 0.0, depth = 0.0

    public init() {}
}

/// An SFZ v2 LFO (`lfoN_`): frequency in Hz, wave by number (sfizz's: 0 triangle, the default, 1 sine,
/// 2 pulse 75 %, 3 square, 4 pulse 25 %, 5 pulse 12.5 %, 6 ramp up, 7 ramp down), and its targets' depths:
/// amplitude and pan in percent, volume in dB, pitch and cutoff in cents; `onCC` adds to a target's depth
/// the CC's value (0...1) times its amount (`lfoN_volume_onccN`...).
public struct SFZLFOv2: Sendable, Hashable {
    public enum Target: String, Sendable, Hashable, CaseIterable { case amplitude, volume, pan, pitch, cutoff }

    public var frequency = 0.0, wave = 0, delay = 0.0, fade = 0.0, phase = 0.0
    public var amplitude = 0.0, volume = 0.0, pan = 0.0, pitch = 0.0, cutoff = 0.0
    public var onCC: [Target: [Int: Double]] = [:]

    public init() {}

    /// The depth a target has at rest, and whether it moves the target at all (a depth or a CC's).
    public func depth(_ target: Target) -> Double {
        switch target {
        case .amplitude: amplitude
        case .volume: volume
        case .pan: pan
        case .pitch: pitch
        case .cutoff: cutoff
        }
    }
    public func moves(_ target: Target) -> Bool { depth(target) != 0 || !(onCC[target] ?? [:]).isEmpty }
}

/// One region with everything it inherits applied (`<global>`, then `<master>`, then `<group>`, then its own
/// opcodes; the later one wins). Defaults and ranges are the SFZ opcode reference's (docs/sfz.md).
public struct SFZRegion: Sendable, Hashable {
    /// Where its `<region>` header is.
    public var location: SFZLocation
    /// What it plays; nil when no `sample=` reached it.
    public var sample: SFZSample?
    /// Where the `sample=` it got is written (a missing file names this line).
    public var sampleLocation: SFZLocation?

    // Mapping
    /// `lokey`/`hikey` (`key` sets both and `pitch_keycenter`); -1 is played by no key.
    public var keys = SFZRange(0, 127)
    public var pitchKeycenter = 60
    /// `pitch_keycenter=sample`: the root key of the sample file's `smpl` chunk.
    public var pitchKeycenterFromSample = false
    public var velocities = SFZRange(1, 127)
    public var channels = SFZRange(1, 16)
    /// `loccN`/`hiccN`: the region plays only while CC N is within the range.
    public var ccRanges: [Int: SFZRange<Int>] = [:]
    public var bend = SFZRange(-8192, 8192)
    public var random = SFZRange(0.0, 1.0)
    public var seqLength = 1, seqPosition = 1
    public var trigger = SFZTrigger.attack
    /// `rt_decay`: dB per second a release region loses for the time its note was held.
    public var rtDecay = 0.0
    public var switchKeys = SFZRange(0, 127)
    public var switchLast: Int?, switchDown: Int?, switchUp: Int?, switchPrevious: Int?, switchDefault: Int?
    public var switchLabel: String?
    /// `on_loccN`/`on_hiccN`: the region starts when CC N enters the range.
    public var ccTriggers: [Int: SFZRange<Int>] = [:]

    // Playback
    public var offset = 0
    public var end: Int?
    public var count: Int?
    /// nil: from the sample (looped if its file has loop points).
    public var loopMode: SFZLoopMode?
    public var loopStart: Int?, loopEnd: Int?
    public var delay = 0.0
    public var group = 0
    public var offBy: Int?
    public var offMode = SFZOffMode.fast
    public var offTime = 0.006
    public var polyphony: Int?, notePolyphony: Int?
    /// A `polyphony` given in the region's `<group>` or `<master>` with no `group=` there: the limit of the
    /// regions under that header (numbered `polyphonySet`) together, as sfizz's region sets.
    public var setPolyphony: Int?, polyphonySet = 0
    public var transpose = 0
    /// `tune`, cents.
    public var tune = 0
    public var pitchKeytrack = 100, pitchVeltrack = 0
    public var bendUp = 200, bendDown = -200

    // Level and pan
    public var volume = 0.0, amplitude = 100.0, pan = 0.0, width = 100.0, position = 0.0
    public var ampVeltrack = 100.0, ampKeytrack = 0.0
    public var ampKeycenter = 60
    /// `amp_velcurve_N`: the gain (0 to 1) at velocity N.
    public var ampVelcurve: [Int: Double] = [:]
    public var keyCrossfade = SFZCrossfade(), velocityCrossfade = SFZCrossfade()
    public var ccCrossfades: [Int: SFZCrossfade] = [:]
    public var keyCrossfadeCurve = SFZCurveShape.power, velocityCrossfadeCurve = SFZCurveShape.power, ccCrossfadeCurve = SFZCurveShape.power
    /// `volume_onccN` (dB), `amplitude_onccN` (percent), `pan_onccN` (percent), by CC.
    public var volumeOnCC: [Int: Double] = [:], amplitudeOnCC: [Int: Double] = [:], panOnCC: [Int: Double] = [:]
    /// `volume_curveccN`, `amplitude_curveccN`, `pan_curveccN`: the `<curve>` index each CC goes through.
    public var volumeCurveCC: [Int: Int] = [:], amplitudeCurveCC: [Int: Int] = [:], panCurveCC: [Int: Int] = [:]

    // Envelopes and LFOs
    public var ampEG = SFZEnvelope(), filterEG = SFZEnvelope(), pitchEG = SFZEnvelope()
    public var ampLFO = SFZLFO(), filterLFO = SFZLFO(), pitchLFO = SFZLFO()
    /// `lfoN_*`, by N.
    public var lfos: [Int: SFZLFOv2] = [:]

    // Filter
    public var filterType = SFZFilterType.lpf2p
    /// `cutoff` in Hz; nil: no filter.
    public var cutoff: Double?
    public var resonance = 0.0
    public var filterKeytrack = 0, filterKeycenter = 60, filterVeltrack = 0
    /// `cutoff_onccN` (cents), `resonance_onccN` (dB), by CC.
    public var cutoffOnCC: [Int: Double] = [:], resonanceOnCC: [Int: Double] = [:]

    public init(location: SFZLocation) { self.location = location }

    /// Moves every key the region names by `semitones` (`note_offset`, `octave_offset`), kept within 0 to 127.
    mutating func offsetKeys(by semitones: Int) {
        guard semitones != 0 else { return }
        func moved(_ key: Int) -> Int { key < 0 ? key : min(max(key + semitones, 0), 127) }
        if keys != SFZRange(0, 127) { keys = SFZRange(moved(keys.low), moved(keys.high)) }
        pitchKeycenter = moved(pitchKeycenter)
        switchLast = switchLast.map(moved)
        switchDown = switchDown.map(moved)
        switchUp = switchUp.map(moved)
        switchPrevious = switchPrevious.map(moved)
        switchDefault = switchDefault.map(moved)
    }
}
