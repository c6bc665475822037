// The fonts of a live change of instrument (Synth+FontChange.swift). A synth that may change instrument plays a
// stack (`SoundFont.stacked(_:always:)`); a change puts the new instrument on top, its presets in banks above
// every preset's, so the stack's merged tables keep their order and every index a sounding voice holds: the
// presets and zones of the new instrument come after all others (they are sorted by bank), its samples and
// modulators after every layer's. The instrument the channel played, when no channel plays it after the
// change, is replaced in the stack by a hollow copy: the same presets, zones and sample headers (so nothing
// moves), no sample frames, no preset any channel is pinned to. Its voices are ended before the synth takes the
// new font, and its frames go with the old font.

extension SoundFont {
    /// A copy of this font with its tables and no sample frames: it keeps a stack's indices where an
    /// instrument was let go; no voice can play it (no channel is pinned to it and its banks are above MIDI's).
    public func hollowed() -> SoundFont {
        SoundFont(path: path, name: name, presets: presets, zones: Array(zones), modulators: Array(modulators),
                  samples: Array(samples), sampleData: UnsafeBufferPointer(start: nil, count: 0), sampleLowBytes: nil,
                  sampleNames: sampleNames, zoneRules: Array(zoneRules), hollow: true)
    }

    /// The first bank free for another instrument over this font: a multiple of 16, at least `lowest`, above
    /// every preset's bank.
    public func nextInstrumentBank(from lowest: Int) -> Int {
        let highest = presets.map { Int($0.bank) }.max() ?? -1
        return max(lowest, (highest / 16 + 1) * 16)
    }

    /// `base` (nil: no font) with `instrument` pinned to `channel` (0...15; nil: every channel), for a live
    /// change of instrument: the new stack, and the layers of `base` whose voices must end first (an instrument
    /// no channel plays after the change, now hollow in the new stack). `instrument` is one font (not a stack)
    /// whose presets are in banks above `base`'s (`nextInstrumentBank`); `keys` (16) say the preset key (bank << 7
    /// | program) each channel plays of it. Nil when the stack would hold more than `maxLayers` fonts.
    public static func changingInstrument(of base: SoundFont?, to instrument: SoundFont, keys instrumentKeys: [Int32],
                                          channel: Int?) -> (font: SoundFont, ending: [Int])? {
        let layers = base?.stack ?? []
        guard layers.count + 1 <= maxLayers, instrumentKeys.count == 16 else { return nil }
        var keys = base?.channelPresetKeys ?? []
        if keys.count != 16 { keys = Array(repeating: -1, count: 16) }
        let targets = channel.map { [$0 & 0x0F] } ?? Array(0..<16)
        func layer(ofKey key: Int32) -> Int? {
            guard key >= 0, let base, let p = base.exactPreset(bank: Int(key >> 7), program: Int(key & 0x7F)) else { return nil }
            return base.presetLayers.indices.contains(p) ? base.presetLayers[p] : 0
        }
        let before = Set(targets.compactMap { layer(ofKey: keys[$0]) })
        for ch in targets { keys[ch] = instrumentKeys[ch] }
        let after = Set(keys.compactMap { layer(ofKey: $0) })
        let ending = before.subtracting(after).sorted()
        var stack = layers
        for l in ending where stack.indices.contains(l) { stack[l] = stack[l].hollowed() }
        stack.append(instrument)
        var played = base?.playedChannels ?? 0
        if base?.presetCount == 0 { played = 0 }
        for ch in targets { played |= 1 << UInt16(ch) }
        var pins: [Int: Int32] = [:]
        for (ch, key) in keys.enumerated() where key >= 0 { pins[ch] = key }
        return (stacked(stack, always: true).pinning(pins, played: played), ending)
    }
}
