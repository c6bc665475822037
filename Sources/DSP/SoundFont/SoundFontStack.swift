// Stacked fonts, as FluidSynth stacks the fonts it loads: the later font on top, a preset (bank, program)
// looked up from the top font down. A stack is one `SoundFont` whose tables are its layers' tables merged:
// the presets are the union of the layers' presets (of two with the same bank and program the upper one's, the
// lower one shadowed), their zones copied with sample and modulator indices moved to the merged tables; the
// sample headers of every layer follow one another, each with its layer, whose own sample data (its mapped
// file) the voices playing it read. The layers stay loaded as long as the stack.
//
// Looking a preset up in the union is FluidSynth's lookup across its fonts: each step of the fallback
// (`preferredPreset`: the bank asked for, then bank 0, then program 0) asks every font, top first, before the
// next step, so the first step that any font answers wins, from the topmost font that has it.

extension SoundFont {
    /// The most fonts a stack may have (a sample's layer is one byte).
    public static var maxLayers: Int { 255 }

    /// `fonts` stacked, the first at the bottom, the last on top; a single font is returned as it is, unless
    /// `always` (a stack of one, whose zones are in preset order as every stack's: what a live change of
    /// instrument adds to, SoundFont+InstrumentChange.swift).
    /// Precondition: 1...`maxLayers` fonts, none of them a stack itself (a stack's layers are passed instead).
    public static func stacked(_ fonts: [SoundFont], always: Bool = false) -> SoundFont {
        let fonts = fonts.flatMap { $0.layers.isEmpty ? [$0] : $0.layers }
        precondition(!fonts.isEmpty && fonts.count <= maxLayers, "a stack holds 1...\(maxLayers) fonts")
        if fonts.count == 1 && !always { return fonts[0] }

        // The topmost layer's preset for each (bank, program).
        var winner: [Int32: (layer: Int, index: Int)] = [:]
        for (layer, font) in fonts.enumerated() {
            for index in 0..<font.presetCount { winner[font.presetKeys[index]] = (layer, index) }
        }
        let keys = winner.keys.sorted()

        // Every layer's sample headers and modulators end to end; a layer's indices move by its base.
        var sampleBase: [Int] = [], modulatorBase: [Int] = []
        var samples: [SoundFontSample] = [], layersOfSamples: [UInt8] = [], modulators: [SoundFontModulator] = []
        for (layer, font) in fonts.enumerated() {
            sampleBase.append(samples.count)
            modulatorBase.append(modulators.count)
            samples += font.samples
            layersOfSamples += repeatElement(UInt8(layer), count: font.samples.count)
            modulators += font.modulators
        }

        var presets: [SoundFontPreset] = [], presetLayers: [Int] = [], zones: [SoundFontZone] = []
        // Zone rules (SFZ layers) follow their zones; none when no layer has any.
        let ruled = fonts.contains { !$0.zoneRules.isEmpty }
        var rules: [SampleZoneRule] = []
        presets.reserveCapacity(keys.count)
        for key in keys {
            let (layer, index) = winner[key]!
            let font = fonts[layer]
            var preset = font.presets[index]
            let start = Int(preset.zoneStart), count = Int(preset.zoneCount)
            // A range outside the layer's zones plays nothing (as `SoundFontTables` treats it in one font).
            let valid = start >= 0 && count >= 0 && start + count <= font.zones.count
            preset.zoneStart = Int32(zones.count)
            if valid {
                for z in start..<(start + count) {
                    var zone = font.zones[z]
                    // An index outside the layer's tables must not reach another layer's: no sample, no modulators.
                    if zone.sample >= 0 && Int(zone.sample) < font.samples.count {
                        zone.sample += Int32(sampleBase[layer])
                        zone.generators[SoundFontGenerator.sampleID] = zone.sample
                    } else {
                        zone.sample = -1
                    }
                    let m = Int(zone.modulatorStart), n = Int(zone.modulatorCount)
                    if m >= 0 && n >= 0 && m + n <= font.modulators.count {
                        zone.modulatorStart += Int32(modulatorBase[layer])
                    } else {
                        zone.modulatorStart = 0
                        zone.modulatorCount = 0
                    }
                    zones.append(zone)
                    if ruled { rules.append(font.zoneRules.isEmpty ? SampleZoneRule() : font.zoneRules[z]) }
                }
            }
            preset.zoneCount = Int32(zones.count) - preset.zoneStart
            presets.append(preset)
            presetLayers.append(layer)
        }
        let top = fonts[fonts.count - 1]
        return SoundFont(path: top.path, name: fonts.map(\.displayLabel).reversed().joined(separator: " + "),
                         presets: presets, zones: zones, modulators: modulators, samples: samples,
                         sampleData: top.sampleData, sampleLowBytes: top.sampleLowBytes,
                         sampleNames: fonts.flatMap { font in
                             font.sampleNames.count == font.samples.count
                                 ? font.sampleNames : Array(repeating: "", count: font.samples.count)
                         },
                         layers: fonts, presetLayers: presetLayers,
                         sampleLayers: layersOfSamples, zoneRules: rules)
    }

    /// The fonts this one plays, bottom first: a stack's layers, else the font itself.
    public var stack: [SoundFont] { layers.isEmpty ? [self] : layers }

    /// The SoundFont 3 sample caches of the fonts this one plays (a stack's layers' own), bottom first; empty
    /// when every font is SoundFont 2 (nothing to decode).
    public var sampleStores: [SoundFontSampleStore] { stack.compactMap(\.sampleStore) }

    /// Where each layer's samples start among the stack's sample headers (one font: [0]).
    public var layerSampleBases: [Int] {
        var bases: [Int] = [], total = 0
        for font in stack {
            bases.append(total)
            total += font.samples.count
        }
        return bases
    }

    /// `indices` (this font's sample headers; a stack's merged ones) grouped by the font that holds them, as
    /// indices into that font's own samples: what its `sampleStore` decodes.
    public func samplesByFont(_ indices: some Sequence<Int>) -> [(font: SoundFont, indices: [Int])] {
        let fonts = stack, bases = layerSampleBases
        var grouped = [[Int]](repeating: [], count: fonts.count)
        for s in indices where s >= 0 && s < samples.count {
            let layer = sampleLayers.map { min(Int($0[s]), fonts.count - 1) } ?? 0
            grouped[layer].append(s - bases[layer])
        }
        return zip(fonts, grouped).filter { !$0.1.isEmpty }.map { ($0.0, $0.1) }
    }

    /// The font preset `index` (into `presets`) comes from: its layer in a stack, else the font itself.
    public func source(ofPreset index: Int) -> SoundFont {
        guard presetLayers.indices.contains(index) else { return self }
        return layers[presetLayers[index]]
    }

    /// The file name (the path's last component), or the font's name when it was built in memory: how a
    /// stack names its layers.
    public var fileName: String {
        guard !path.isEmpty else { return name }
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The file name, else the font's name, else "font".
    var displayLabel: String {
        let label = fileName
        return label.isEmpty ? "font" : label
    }

    /// For each layer of the stack (bottom first), its presets and whether each is shadowed by a higher layer's
    /// preset of the same bank and program (then the stack plays the higher one).
    public func stackListing() -> [(font: SoundFont, presets: [(preset: SoundFontPreset, shadowedBy: Int?)])] {
        let fonts = stack
        var topmost: [Int32: Int] = [:]
        for (layer, font) in fonts.enumerated() {
            for index in 0..<font.presetCount { topmost[font.presetKeys[index]] = layer }
        }
        return fonts.enumerated().map { layer, font in
            (font, font.presets.indices.map { index in
                let top = topmost[font.presetKeys[index]] ?? layer
                return (font.presets[index], top > layer ? top : nil)
            })
        }
    }
}
