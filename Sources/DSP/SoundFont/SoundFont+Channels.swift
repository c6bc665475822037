// Channels pinned to a preset: an SFZ instrument plays the channels it is given whatever program they select
// (as sfizz plays every channel), while the other channels keep the SoundFont's bank and program selection, or
// the built-in synth when there is no SoundFont. The pins are part of the font value, so every path that takes
// a font (the engine, the offline renderer, the benchmarks) plays them without another argument; the synth
// reads them at a program change or reset (Synth+SoundFont.swift), never per note.

extension SoundFont {
    /// This font with `pins` (channel 0...15 to the preset key bank << 7 | program it always plays) and
    /// `played` (the channels whose notes it plays; the others play the built-in synth). The new font shares
    /// this one's tables' contents and keeps this font (and so its sample data) alive.
    public func pinning(_ pins: [Int: Int32], played: UInt16) -> SoundFont {
        var keys = [Int32](repeating: -1, count: 16)
        for (channel, key) in pins where (0..<16).contains(channel) { keys[channel] = key }
        let kept = self
        return SoundFont(path: path, name: name, presets: presets, zones: Array(zones), modulators: Array(modulators),
                         samples: Array(samples), sampleData: sampleData, sampleLowBytes: sampleLowBytes,
                         sampleNames: sampleNames, sampleStore: sampleStore, sampleStream: sampleStream, layers: layers, presetLayers: presetLayers,
                         sampleLayers: sampleLayers.map(Array.init), channelPresetKeys: keys, playedChannels: played, zoneRules: Array(zoneRules),
                         release: { withExtendedLifetime(kept) {} })
    }

    /// The preset channel `channel` is pinned to (an index into `presets`), or nil.
    public func pinnedPreset(channel: Int) -> Int? {
        guard channelPresetKeys.indices.contains(channel), channelPresetKeys[channel] >= 0 else { return nil }
        let key = Int(channelPresetKeys[channel])
        return exactPreset(bank: key >> 7, program: key & 0x7F)
    }
}
