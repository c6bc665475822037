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
    /// The zone's level as a factor on top of what its generators say, read at the voice's start: SF2 has no
    /// level above 0 cB of attenuation, an SFZ region has (its `volume` above 0 dB, and sfizz's level, above
    /// FluidSynth's). 1, exactly no change, for every SF2 zone.
    public var gain: Float = 1
    /// The filter's response: low-pass for every SF2 zone; an SFZ region's `fil_type` may choose another.
    public var filterShape = SampleFilterShape.lowPass

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

    public init(start: UInt32, end: UInt32, loopStart: UInt32, loopEnd: UInt32, sampleRate: UInt32, originalPitch: UInt8,
                pitchCorrection: Int8, link: UInt16, type: UInt16) {
        (self.start, self.end, self.loopStart, self.loopEnd) = (start, end, loopStart, loopEnd)
        (self.sampleRate, self.originalPitch, self.pitchCorrection, self.link, self.type) = (sampleRate, originalPitch, pitchCorrection, link, type)
    }
}

/// A preset header (phdr) and where its zones are in `SoundFont.zones`.
public struct SoundFontPreset: Sendable, Equatable {
    public var name: String
    public var bank: UInt16
    public var program: UInt8
    public var zoneStart: Int32
    public var zoneCount: Int32
    /// Controller values (CC 0...127) a channel pinned to the preset starts with, and returns to at a reset
    /// (an SFZ instrument's `set_ccN`); empty for SF2 presets.
    public var controllers: [UInt8: UInt8] = [:]

    public init(name: String, bank: UInt16, program: UInt8, zoneStart: Int32, zoneCount: Int32) {
        (self.name, self.bank, self.program, self.zoneStart, self.zoneCount) = (name, bank, program, zoneStart, zoneCount)
    }
}

/// A font that cannot be loaded: the file, the chunk (e.g. "pdta/phdr") and the byte offset in the file.
public struct SoundFontError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var chunk: String
    public var offset: Int
    public var reason: String

    public var description: String {
        chunk.isEmpty ? "\(path): \(reason)" : "\(path): chunk '\(chunk)' at byte \(offset): \(reason)"
    }
}
