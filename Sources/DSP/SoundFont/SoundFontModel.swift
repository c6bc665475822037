// The SoundFont 2 model shared by the loader (SoundFont.swift and its parser files) and the sample voices
// (the SoundFont voice renderer): what a loaded font is, flattened for the real-time thread.
//
// A font's presets, preset zones, instruments and instrument zones are resolved when the font is loaded into
// one flat list of `SoundFontZone`s per preset: one entry per (preset zone, instrument zone) pair whose key
// and velocity ranges intersect, with every generator already resolved as the SoundFont 2.04 specification
// says (instrument-level values are absolute, a local zone's value replacing the global zone's, which
// replaces the default; preset-level values are offsets added to them) and the modulator list merged (the
// default modulators, replaced by identical instrument-level ones, then the preset-level ones added). A
// note-on only scans its preset's zones for the key and velocity: no allocation, no lookup structure.

/// SoundFont 2.04 generator numbers (section 8.1.2), the index into `SoundFontZone.generators`.
public enum SoundFontGenerator {
    public static var startAddressOffset: Int { 0 }
    public static var endAddressOffset: Int { 1 }
    public static var startLoopAddressOffset: Int { 2 }
    public static var endLoopAddressOffset: Int { 3 }
    public static var startAddressCoarseOffset: Int { 4 }
    public static var modLFOToPitch: Int { 5 }
    public static var vibLFOToPitch: Int { 6 }
    public static var modEnvToPitch: Int { 7 }
    public static var initialFilterFc: Int { 8 }
    public static var initialFilterQ: Int { 9 }
    public static var modLFOToFilterFc: Int { 10 }
    public static var modEnvToFilterFc: Int { 11 }
    public static var endAddressCoarseOffset: Int { 12 }
    public static var modLFOToVolume: Int { 13 }
    public static var chorusEffectsSend: Int { 15 }
    public static var reverbEffectsSend: Int { 16 }
    public static var pan: Int { 17 }
    public static var delayModLFO: Int { 21 }
    public static var freqModLFO: Int { 22 }
    public static var delayVibLFO: Int { 23 }
    public static var freqVibLFO: Int { 24 }
    public static var delayModEnv: Int { 25 }
    public static var attackModEnv: Int { 26 }
    public static var holdModEnv: Int { 27 }
    public static var decayModEnv: Int { 28 }
    public static var sustainModEnv: Int { 29 }
    public static var releaseModEnv: Int { 30 }
    public static var keynumToModEnvHold: Int { 31 }
    public static var keynumToModEnvDecay: Int { 32 }
    public static var delayVolEnv: Int { 33 }
    public static var attackVolEnv: Int { 34 }
    public static var holdVolEnv: Int { 35 }
    public static var decayVolEnv: Int { 36 }
    public static var sustainVolEnv: Int { 37 }
    public static var releaseVolEnv: Int { 38 }
    public static var keynumToVolEnvHold: Int { 39 }
    public static var keynumToVolEnvDecay: Int { 40 }
    public static var instrument: Int { 41 }
    public static var keyRange: Int { 43 }
    public static var velRange: Int { 44 }
    public static var startLoopAddressCoarseOffset: Int { 45 }
    public static var keynum: Int { 46 }
    public static var velocity: Int { 47 }
    public static var initialAttenuation: Int { 48 }
    public static var endLoopAddressCoarseOffset: Int { 50 }
    public static var coarseTune: Int { 51 }
    public static var fineTune: Int { 52 }
    public static var sampleID: Int { 53 }
    public static var sampleModes: Int { 54 }
    public static var scaleTuning: Int { 56 }
    public static var exclusiveClass: Int { 57 }
    public static var overridingRootKey: Int { 58 }
    /// Generators 0..<count exist (60, endOper, is the terminator).
    public static var count: Int { 61 }

    /// The specification's default value of each generator (section 8.1.3): -12000 timecents for envelope and
    /// LFO delays and times, 13500 cents for the filter cutoff, 100 for scale tuning, -1 for keynum, velocity
    /// and the overriding root key, 0 otherwise. Ranges are not generators here (see `SoundFontZone`).
    public static func defaultValue(_ generator: Int) -> Int32 {
        switch generator {
        case initialFilterFc: 13500
        case delayModLFO, delayVibLFO, delayModEnv, attackModEnv, holdModEnv, decayModEnv, releaseModEnv,
             delayVolEnv, attackVolEnv, holdVolEnv, decayVolEnv, releaseVolEnv: -12000
        case scaleTuning: 100
        case keynum, velocity, overridingRootKey: -1
        default: 0
        }
    }
}

/// One voice a note may start: a sample and every generator resolved (instrument value plus preset offset).
/// A note-on starts one voice for each zone of its preset whose ranges contain its key and velocity.
public struct SoundFontZone: BitwiseCopyable {
    public var keyLow: UInt8 = 0
    public var keyHigh: UInt8 = 127
    public var velocityLow: UInt8 = 0
    public var velocityHigh: UInt8 = 127
    /// Index into `SoundFont.samples`.
    public var sample: Int32 = 0
    /// The zone's modulators: `SoundFont.modulators[modulatorStart ..< modulatorStart + modulatorCount]`,
    /// the merged list (defaults, instrument level, preset level), amounts already summed where the
    /// specification says identical modulators add.
    public var modulatorStart: Int32 = 0
    public var modulatorCount: Int32 = 0
    /// Indexed by `SoundFontGenerator`: the resolved value (instrument-level absolute value, or its default,
    /// plus the preset-level offset), not yet clamped to the specification's ranges (the voice clamps).
    public var generators: InlineArray<61, Int32> = InlineArray { SoundFontGenerator.defaultValue($0) }

    public init() {}

    @inline(__always)
    public func contains(key: UInt8, velocity: UInt8) -> Bool {
        key >= keyLow && key <= keyHigh && velocity >= velocityLow && velocity <= velocityHigh
    }
}

/// A modulator (section 8.2): `amount * source(x) * amountSource(y)` added to the destination generator.
/// `source` and `amountSource` are SFModulator words (index, continuous-controller flag, direction,
/// polarity, type); `transform` 0 is linear, 2 absolute value.
public struct SoundFontModulator: BitwiseCopyable, Equatable {
    public var source: UInt16
    public var destination: UInt16
    public var amount: Int32
    public var amountSource: UInt16
    public var transform: UInt16

    public init(source: UInt16, destination: UInt16, amount: Int32, amountSource: UInt16, transform: UInt16) {
        self.source = source
        self.destination = destination
        self.amount = amount
        self.amountSource = amountSource
        self.transform = transform
    }

    /// Two modulators are identical (section 9.5.1) when all but the amount match.
    @inline(__always)
    public func isIdentical(to other: SoundFontModulator) -> Bool {
        source == other.source && destination == other.destination && amountSource == other.amountSource
            && transform == other.transform
    }
}

/// A sample header (shdr), with its points as frame indices into the font's sample data.
public struct SoundFontSample: BitwiseCopyable {
    public var start: UInt32
    public var end: UInt32
    public var loopStart: UInt32
    public var loopEnd: UInt32
    public var sampleRate: UInt32
    public var originalPitch: UInt8
    public var pitchCorrection: Int8
    public var link: UInt16
    /// 1 mono, 2 right, 4 left, 8 linked; 0x8000 set for ROM samples (not playable).
    public var type: UInt16

    public init(start: UInt32, end: UInt32, loopStart: UInt32, loopEnd: UInt32, sampleRate: UInt32,
                originalPitch: UInt8, pitchCorrection: Int8, link: UInt16, type: UInt16) {
        self.start = start
        self.end = end
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        self.sampleRate = sampleRate
        self.originalPitch = originalPitch
        self.pitchCorrection = pitchCorrection
        self.link = link
        self.type = type
    }
}

/// A preset header (phdr) and where its zones are in `SoundFont.zones`.
public struct SoundFontPreset: Sendable, Equatable {
    public var name: String
    public var bank: UInt16
    public var program: UInt8
    public var zoneStart: Int32
    public var zoneCount: Int32

    public init(name: String, bank: UInt16, program: UInt8, zoneStart: Int32, zoneCount: Int32) {
        self.name = name
        self.bank = bank
        self.program = program
        self.zoneStart = zoneStart
        self.zoneCount = zoneCount
    }
}

/// A font that cannot be loaded: the file, the chunk (e.g. "pdta/phdr") and the byte offset in the file.
public struct SoundFontError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var chunk: String
    public var offset: Int
    public var reason: String

    public init(path: String, chunk: String, offset: Int, reason: String) {
        self.path = path
        self.chunk = chunk
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        chunk.isEmpty ? "\(path): \(reason)" : "\(path): chunk '\(chunk)' at byte \(offset): \(reason)"
    }
}
