import Synchronization

/// What the real-time thread reads of a `SoundFont`: its tables as plain buffers (no reference counting),
/// and each preset's zone range copied out of the Swift array of presets. Empty when the synth has no font.
/// The buffers are the font's (the synth keeps the font); the zone ranges are its own `FixedArray`.
///
/// A stack of fonts (`SoundFont.stacked`) has one sample data per layer: `layerData[l]`, `layerDataCount[l]`
/// and `layerLowBytes[l]` for layer `l`, and `sampleLayers` gives each sample header's layer. One font is
/// one layer, `sampleLayers` nil.
struct SoundFontTables: ~Copyable {
    let zones: UnsafeBufferPointer<SoundFontZone>
    let modulators: UnsafeBufferPointer<SoundFontModulator>
    let samples: UnsafeBufferPointer<SoundFontSample>
    /// Each layer's 16-bit sample frames (the one silent frame for a layer without data) and their count.
    let layerData: FixedArray<UnsafePointer<Int16>>
    let layerDataCount: FixedArray<Int>
    /// Each layer's 24-bit samples' low bytes, or nil.
    let layerLowBytes: FixedArray<UnsafePointer<UInt8>?>
    /// 1 for one font, the number of fonts for a stack.
    let layerCount: Int
    /// Each sample header's layer, or nil (every sample is layer 0's).
    let sampleLayers: UnsafePointer<UInt8>?
    /// Each layer's first sample header (0 for one font): a sample's index in its own font is `s - base`.
    let layerSampleBase: FixedArray<Int>
    /// A SoundFont 3 layer's per-sample states (acquire before reading a sample; indexed in the layer's own
    /// samples) and its counts of voices that found their sample not decoded, one per state
    /// (`SoundFontSampleStore.missed`); nil for SoundFont 2 (every sample is always there).
    let layerReady: FixedArray<UnsafeMutablePointer<Atomic<UInt8>>?>
    let layerMissed: FixedArray<UnsafeMutablePointer<Atomic<Int>>?>
    /// A streamed instrument's layer: what its voices check per block (Synth+SampleStream.swift); nil for
    /// data always in memory.
    let layerStream: FixedArray<SampleStreamView?>
    let presetKeys: UnsafeBufferPointer<Int32>
    /// zoneStart, zoneCount of each preset, in `SoundFont.presets` order.
    let presetZones: FixedArray<SIMD2<Int32>>
    let presetCount: Int
    /// Each channel's pinned preset (`SoundFont.channelPresetKeys` found in `presets`), or -1.
    let channelPins: FixedArray<Int32>
    /// Each pinned channel's starting controller values (`SoundFontPreset.controllers`), 128 a channel;
    /// `SoundFontTables.noController` where the preset sets none.
    let channelControllers: FixedArray<UInt8>
    /// Each zone's note-on conditions (`SoundFont.zoneRules`), or nil when no zone has any.
    let rules: UnsafePointer<SampleZoneRule>?
    /// One zero sample, the data of a layer without samples.
    private let silence: FixedArray<Int16>

    init(_ font: SoundFont?) {
        presetZones = FixedArray(font?.presets.count ?? 0, .zero)
        silence = FixedArray(1, 0)
        channelPins = FixedArray(16, -1 as Int32)
        channelControllers = FixedArray(16 * 128, SoundFontTables.noController)
        for ch in 0..<16 {
            guard let font, let pinned = font.pinnedPreset(channel: ch) else { continue }
            channelPins[ch] = Int32(pinned)
            for (cc, value) in font.presets[pinned].controllers where cc < 128 && value < 128 {
                channelControllers[ch * 128 + Int(cc)] = value
            }
        }
        let layers = font?.stack ?? []
        layerCount = max(layers.count, 1)
        layerData = FixedArray(layerCount, UnsafePointer(silence.baseAddress))
        layerDataCount = FixedArray(layerCount, 0)
        layerLowBytes = FixedArray(layerCount, nil as UnsafePointer<UInt8>?)
        layerSampleBase = FixedArray(layerCount, 0)
        layerReady = FixedArray(layerCount, nil as UnsafeMutablePointer<Atomic<UInt8>>?)
        layerMissed = FixedArray(layerCount, nil as UnsafeMutablePointer<Atomic<Int>>?)
        layerStream = FixedArray(layerCount, nil as SampleStreamView?)
        for (l, base) in (font?.layerSampleBases ?? []).enumerated() where l < layerCount { layerSampleBase[l] = base }
        for (l, layer) in layers.enumerated() where layer.sampleData.count > 0 {
            layerData[l] = layer.sampleData.baseAddress!
            layerDataCount[l] = layer.sampleData.count
            layerLowBytes[l] = layer.sampleLowBytes.flatMap { $0.count >= layer.sampleData.count ? $0.baseAddress : nil }
            layerReady[l] = layer.sampleStore?.ready
            layerMissed[l] = layer.sampleStore?.missed
            layerStream[l] = layer.sampleStream.map(SampleStreamView.init)
        }
        guard let font, layers.contains(where: { $0.sampleData.count > 0 }) else {
            zones = UnsafeBufferPointer(start: nil, count: 0)
            modulators = UnsafeBufferPointer(start: nil, count: 0)
            samples = UnsafeBufferPointer(start: nil, count: 0)
            sampleLayers = nil
            presetKeys = UnsafeBufferPointer(start: nil, count: 0)
            presetCount = 0
            rules = nil
            return
        }
        zones = font.zones
        modulators = font.modulators
        samples = font.samples
        sampleLayers = font.sampleLayers.flatMap { $0.count >= font.samples.count ? $0.baseAddress : nil }
        presetKeys = font.presetKeys
        presetCount = font.presetCount
        rules = font.zoneRules.count == font.zones.count && !font.zoneRules.isEmpty ? font.zoneRules.baseAddress : nil
        for (i, p) in font.presets.enumerated() {
            // A range outside the zone table would read past it: such a preset plays nothing.
            let valid = p.zoneStart >= 0 && p.zoneCount >= 0 && Int(p.zoneStart) + Int(p.zoneCount) <= font.zones.count
            presetZones[i] = valid ? SIMD2(p.zoneStart, p.zoneCount) : .zero
        }
    }

    /// A `channelControllers` entry that sets nothing.
    static var noController: UInt8 { @_noLocks get { 0xFF } }

    /// The layer whose sample data sample header `s` indexes (0 for one font). Real-time safe.
    @_noLocks @inline(__always)
    func layer(ofSample s: Int) -> Int {
        guard let sampleLayers else { return 0 }
        return min(Int(sampleLayers[s]), layerCount - 1)
    }

    /// The preset at exactly `bank`:`program`, or -1 (a binary search of `presetKeys`).
    @_noLocks
    func exactPreset(bank: Int, program: Int) -> Int {
        let key = Int32(truncatingIfNeeded: bank << 7 | (program & 0x7F))
        var low = 0, high = presetCount
        while low < high {
            let mid = (low + high) / 2
            if presetKeys[mid] < key { low = mid + 1 } else { high = mid }
        }
        if low == presetCount { return -1 }
        return presetKeys[low] == key ? low : -1
    }
}
