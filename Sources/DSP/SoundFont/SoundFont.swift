/// A loaded SoundFont 2 font, flattened for the real-time thread (see SoundFontModel.swift).
///
/// The zones, modulators and sample headers live in raw arrays the real-time thread reads without reference
/// counting; the sample data is the font file's `smpl` chunk mapped into memory (read-only), so a large font
/// costs resident memory only for the samples that play. Immutable once made: any thread may read it.
public final class SoundFont: @unchecked Sendable {
    /// Where the font was loaded from ("" for a font built in memory).
    public let path: String
    /// The font's name (INAM), or "" when it has none.
    public let name: String
    /// Every preset, sorted by bank then program.
    public let presets: [SoundFontPreset]

    /// Real-time tables (valid as long as the font lives).
    public let zones: UnsafeBufferPointer<SoundFontZone>
    public let modulators: UnsafeBufferPointer<SoundFontModulator>
    public let samples: UnsafeBufferPointer<SoundFontSample>
    /// 16-bit sample frames (mono), indexed by the sample headers' points. A stack's is its top layer's: its
    /// sample headers index their own layer's data (`sampleLayers`).
    public let sampleData: UnsafeBufferPointer<Int16>
    /// The low bytes of 24-bit samples (`sm24`), parallel to `sampleData`, or nil.
    public let sampleLowBytes: UnsafeBufferPointer<UInt8>?
    /// The sample headers' names, in `samples` order ([] for a font built without them).
    public let sampleNames: [String]
    /// A SoundFont 3 font's decoded-sample cache (nil for SoundFont 2): `sampleData` is then its mapping,
    /// where a sample has frames only once decoded (`SoundFontSampleStore.decode`).
    public let sampleStore: SoundFontSampleStore?
    /// A streamed SFZ instrument's store (nil when its samples are all in memory): `sampleData` is then its
    /// mapping, where a sample has its head always and its rest once read (SampleStreamStore.swift).
    public let sampleStream: SampleStreamStore?
    /// (bank << 7 | program) of each preset, in `presets` order: what the real-time preset lookup searches.
    public let presetKeys: UnsafeBufferPointer<Int32>
    /// `presets.count`, stored so the real-time thread never touches the Swift array.
    public let presetCount: Int

    /// Channels pinned to one preset whatever their bank and program (an SFZ instrument given to a channel,
    /// SoundFont+Channels.swift): 16 preset keys (bank << 7 | program), -1 for a channel that selects as usual;
    /// empty when no channel is pinned.
    public let channelPresetKeys: [Int32]
    /// The channels whose notes this font plays, one bit each: all 16, or those an instrument is pinned to
    /// when no SoundFont plays the others (they keep the built-in synth).
    public let playedChannels: UInt16
    /// Whether this is an instrument let go by a live change of instrument, kept for its indices without its
    /// samples (`hollowed`, SoundFont+InstrumentChange.swift): its presets are not offered.
    public let isHollow: Bool
    /// Each zone's note-on conditions beyond its ranges (SFZ regions' round robins, key switches...), parallel
    /// to `zones`; empty when no zone has any (every SF2 font). Read by the real-time thread.
    public let zoneRules: UnsafeBufferPointer<SampleZoneRule>
    private let zoneRuleMemory: FixedArray<SampleZoneRule>

    /// A stack's fonts (`SoundFont.stacked`), bottom first, the last on top; empty for a font of one file.
    public let layers: [SoundFont]
    /// A stack's layer (index into `layers`) of each preset, in `presets` order; empty for one file.
    public let presetLayers: [Int]
    /// A stack's layer of each sample header (whose points index that layer's `sampleData`), or nil for one
    /// file. Read by the real-time thread.
    public let sampleLayers: UnsafeBufferPointer<UInt8>?

    /// The memory of the tables above (zones, modulators, samples, preset keys, sample layers), which are
    /// views of it for the font's life.
    private let zoneMemory: FixedArray<SoundFontZone>, modulatorMemory: FixedArray<SoundFontModulator>
    private let sampleMemory: FixedArray<SoundFontSample>, presetKeyMemory: FixedArray<Int32>
    private let sampleLayerMemory: FixedArray<UInt8>
    /// Lets go of the sample data when the font goes (unmaps the file, or drops the bytes it was loaded from).
    private let release: @Sendable () -> Void

    /// A font from tables already made: the loader's result, or a font a test builds in memory. The font copies
    /// the tables into memory it owns; `sampleData` must stay valid until `release` is called, when it goes.
    public init(path: String, name: String, presets: [SoundFontPreset], zones: [SoundFontZone],
                modulators: [SoundFontModulator], samples: [SoundFontSample],
                sampleData: UnsafeBufferPointer<Int16>, sampleLowBytes: UnsafeBufferPointer<UInt8>?,
                sampleNames: [String] = [], sampleStore: SoundFontSampleStore? = nil, sampleStream: SampleStreamStore? = nil,
                layers: [SoundFont] = [], presetLayers: [Int] = [], sampleLayers: [UInt8]? = nil,
                channelPresetKeys: [Int32] = [], playedChannels: UInt16 = 0xFFFF, zoneRules: [SampleZoneRule] = [],
                hollow: Bool = false, release: @escaping @Sendable () -> Void = {}) {
        self.path = path
        isHollow = hollow
        let rules = zoneRules.count == zones.count ? zoneRules : []
        let zoneRuleMemory = FixedArray(copying: rules)
        self.zoneRules = UnsafeBufferPointer(start: zoneRuleMemory.baseAddress, count: rules.count)
        self.zoneRuleMemory = zoneRuleMemory
        self.channelPresetKeys = channelPresetKeys.count == 16 ? channelPresetKeys : []
        self.playedChannels = playedChannels
        self.layers = layers
        self.presetLayers = presetLayers
        let sampleLayerMemory = FixedArray(copying: sampleLayers ?? [])
        self.sampleLayers = sampleLayers.map { UnsafeBufferPointer(start: sampleLayerMemory.baseAddress, count: $0.count) }
        self.sampleLayerMemory = sampleLayerMemory
        self.name = name
        let sorted = presets.sorted { ($0.bank, $0.program) < ($1.bank, $1.program) }
        self.presets = sorted
        let zoneMemory = FixedArray(copying: zones), modulatorMemory = FixedArray(copying: modulators)
        let sampleMemory = FixedArray(copying: samples)
        self.zones = UnsafeBufferPointer(start: zoneMemory.baseAddress, count: zones.count)
        self.modulators = UnsafeBufferPointer(start: modulatorMemory.baseAddress, count: modulators.count)
        self.samples = UnsafeBufferPointer(start: sampleMemory.baseAddress, count: samples.count)
        self.zoneMemory = zoneMemory
        self.modulatorMemory = modulatorMemory
        self.sampleMemory = sampleMemory
        self.sampleData = sampleData
        self.sampleLowBytes = sampleLowBytes
        self.sampleNames = sampleNames
        self.sampleStore = sampleStore
        self.sampleStream = sampleStream
        let keys = sorted.map { Int32($0.bank) << 7 | Int32($0.program) }
        let presetKeyMemory = FixedArray(copying: keys)
        presetKeys = UnsafeBufferPointer(start: presetKeyMemory.baseAddress, count: keys.count)
        self.presetKeyMemory = presetKeyMemory
        presetCount = sorted.count
        self.release = release
    }

    /// A font built in memory (tests, tools) whose sample frames are `frames`, which the font keeps.
    public convenience init(path: String, name: String, presets: [SoundFontPreset], zones: [SoundFontZone],
                            modulators: [SoundFontModulator] = [], samples: [SoundFontSample], frames: [Int16],
                            sampleNames: [String] = []) {
        let held = HeldBytes(frames.count * 2)
        let data = held.base.bindMemory(to: Int16.self, capacity: max(frames.count, 1))
        for (i, frame) in frames.enumerated() { data[i] = frame }
        self.init(path: path, name: name, presets: presets, zones: zones, modulators: modulators, samples: samples,
                  sampleData: UnsafeBufferPointer(start: data, count: frames.count), sampleLowBytes: nil,
                  sampleNames: sampleNames) { withExtendedLifetime(held) {} }
    }

    deinit { release() }

    /// The index in `presets` of the preset at exactly this bank and program, or nil. Real-time safe.
    @_noLocks
    public func exactPreset(bank: Int, program: Int) -> Int? {
        let key = Int32(truncatingIfNeeded: bank << 7 | (program & 0x7F))
        var low = 0, high = presetCount
        while low < high {
            let mid = (low + high) / 2
            if presetKeys[mid] < key { low = mid + 1 } else { high = mid }
        }
        // Not `&&`: its right side is an autoclosure capturing self, which the checker sees as a retain.
        if low == presetCount { return nil }
        return presetKeys[low] == key ? low : nil
    }
}
