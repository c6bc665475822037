import Synchronization

/// What the real-time thread reads of a `SoundFont`: its tables as plain buffers (no reference counting),
/// and each preset's zone range copied out of the Swift array of presets. Empty when the synth has no font.
/// The buffers are the font's (the synth keeps the font); the zone ranges are its `ArrayStore`'s.
struct SoundFontTables: ~Copyable {
    let zones: UnsafeBufferPointer<SoundFontZone>
    let modulators: UnsafeBufferPointer<SoundFontModulator>
    let samples: UnsafeBufferPointer<SoundFontSample>
    let data: UnsafePointer<Int16>
    let dataCount: Int
    /// The 24-bit samples' low bytes, or nil.
    let lowBytes: UnsafePointer<UInt8>?
    /// A SoundFont 3 font's per-sample ready flags (acquire before reading a sample) and its count of notes
    /// that found their sample not decoded; nil for SoundFont 2 (every sample is always there).
    let ready: UnsafeMutablePointer<Atomic<UInt8>>?
    let missedNotes: UnsafeMutablePointer<Atomic<Int>>?
    let presetKeys: UnsafeBufferPointer<Int32>
    /// zoneStart, zoneCount of each preset, in `SoundFont.presets` order.
    let presetZones: UnsafeMutablePointer<SIMD2<Int32>>
    let presetCount: Int
    /// The zone ranges, and the one silent frame `data` points at without a font.
    private let store: ArrayStore

    init(_ font: SoundFont?) {
        var store = ArrayStore()
        presetZones = store.make(font?.presets.count ?? 0, .zero)
        let silence = store.make(1, Int16(0))
        self.store = store
        guard let font, font.sampleData.count > 0 else {
            zones = UnsafeBufferPointer(start: nil, count: 0)
            modulators = UnsafeBufferPointer(start: nil, count: 0)
            samples = UnsafeBufferPointer(start: nil, count: 0)
            data = UnsafePointer(silence)
            dataCount = 0
            lowBytes = nil
            ready = nil
            missedNotes = nil
            presetKeys = UnsafeBufferPointer(start: nil, count: 0)
            presetCount = 0
            return
        }
        zones = font.zones
        modulators = font.modulators
        samples = font.samples
        data = font.sampleData.baseAddress!
        dataCount = font.sampleData.count
        lowBytes = font.sampleLowBytes.flatMap { $0.count >= font.sampleData.count ? $0.baseAddress : nil }
        ready = font.sampleStore?.ready
        missedNotes = font.sampleStore?.missed
        presetKeys = font.presetKeys
        presetCount = font.presetCount
        for (i, p) in font.presets.enumerated() {
            // A range outside the zone table would read past it: such a preset plays nothing.
            let valid = p.zoneStart >= 0 && p.zoneCount >= 0 && Int(p.zoneStart) + Int(p.zoneCount) <= font.zones.count
            presetZones[i] = valid ? SIMD2(p.zoneStart, p.zoneCount) : .zero
        }
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
