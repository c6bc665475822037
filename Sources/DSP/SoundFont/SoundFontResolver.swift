import MIDI
import TextOutput
// Resolution (SoundFont 2.04 sections 8.4, 9.4 and 9.5): every (preset zone, instrument zone) pair whose
// key and velocity ranges intersect becomes one `SoundFontZone` with every generator final and its own merged
// modulator list, so that a note-on needs no lookup beyond its preset's zones.

extension SoundFontModulator {
    /// The ten default modulators of section 8.4, in the specification's order, with FluidSynth's two
    /// corrections so that a font sounds as it does there (docs/soundfont.md): velocity to filter cutoff has a
    /// velocity switch as its amount source (0x0C02: notes below velocity 64 keep their cutoff; the
    /// specification's has none), and CC10 to pan has the amount 500, not the specification's 1000 (a pan
    /// generator runs from -500 to 500, so 1000 would reach hard left at CC10 = 32).
    public static var defaults: [SoundFontModulator] { [
        .init(source: 0x0502, destination: 48, amount: 960, amountSource: 0, transform: 0),     // velocity → attenuation
        .init(source: 0x0102, destination: 8, amount: -2400, amountSource: 0x0C02, transform: 0), // velocity → filter cutoff
        .init(source: 0x000D, destination: 6, amount: 50, amountSource: 0, transform: 0),       // channel pressure → vibrato LFO pitch
        .init(source: 0x0081, destination: 6, amount: 50, amountSource: 0, transform: 0),       // CC1 → vibrato LFO pitch
        .init(source: 0x0587, destination: 48, amount: 960, amountSource: 0, transform: 0),     // CC7 → attenuation
        .init(source: 0x028A, destination: 17, amount: 500, amountSource: 0, transform: 0),     // CC10 → pan
        .init(source: 0x058B, destination: 48, amount: 960, amountSource: 0, transform: 0),     // CC11 → attenuation
        .init(source: 0x00DB, destination: 16, amount: 200, amountSource: 0, transform: 0),     // CC91 → reverb send
        .init(source: 0x00DD, destination: 15, amount: 200, amountSource: 0, transform: 0),     // CC93 → chorus send
        .init(source: 0x020E, destination: 59, amount: 12700, amountSource: 0x0010, transform: 0), // pitch wheel → initial pitch
    ] }
}

/// The flat tables of a resolved font, as Swift arrays (the loader copies them into the font's buffers).
struct ResolvedSoundFont {
    var presets: [SoundFontPreset] = []
    var zones: [SoundFontZone] = []
    var modulators: [SoundFontModulator] = []
}

enum SoundFontResolver {
    /// The most (preset zone, instrument zone) pairs a font may ask the loader to consider: real General MIDI
    /// fonts need tens of thousands (FluidR3_GM about 17 000); the bound keeps a small hostile file (every
    /// preset zone naming an instrument of thousands of zones) from costing gigabytes and minutes.
    static var maxZonePairs: Int { 1 << 20 }

    static func resolve(_ font: ParsedSoundFont, path: String) throws(SoundFontError) -> ResolvedSoundFont {
        var out = ResolvedSoundFont()
        var pairs = 0
        // Sorted by (bank, program); of two presets with the same numbers the first in the file is kept, as
        // FluidSynth does. Program numbers above 127 cannot be selected by MIDI and are skipped.
        let order = font.presets.indices.filter { font.presets[$0].program < 128 }.sorted {
            let a = font.presets[$0], b = font.presets[$1]
            return (a.bank, a.program, $0) < (b.bank, b.program, $1)
        }
        var seen = Set<Int>()
        for index in order {
            let preset = font.presets[index]
            guard seen.insert(Int(preset.bank) << 7 | Int(preset.program)).inserted else { continue }
            let zoneStart = out.zones.count
            for presetZone in preset.zones {
                guard let instrumentIndex = presetZone.target else { continue }
                let instrument = font.instruments[instrumentIndex]
                pairs += instrument.zones.count
                guard pairs <= maxZonePairs else {
                    throw SoundFontError(path: path, chunk: "pdta/phdr", offset: preset.offset,
                                         reason: "too many zones: the presets up to '\(TerminalText.sanitized(preset.name))' pair more than \(maxZonePairs) preset and instrument zones")
                }
                for instrumentZone in instrument.zones {
                    guard let sample = instrumentZone.target, font.sampleUsable[sample] else { continue }
                    resolvePair(preset: presetZone, presetGlobal: preset.global, instrument: instrumentZone,
                                instrumentGlobal: instrument.global, instrumentIndex: instrumentIndex,
                                sample: sample, into: &out)
                }
            }
            out.presets.append(SoundFontPreset(name: preset.name, bank: preset.bank, program: UInt8(preset.program),
                                               zoneStart: Int32(zoneStart), zoneCount: Int32(out.zones.count - zoneStart)))
        }
        return out
    }

    /// A zone's range: its own, else its global zone's, else everything.
    static func range(_ zone: ParsedZone, _ global: ParsedZone?,
                      _ pick: (ParsedZone) -> (low: UInt8, high: UInt8)?) -> (low: UInt8, high: UInt8) {
        pick(zone) ?? global.flatMap(pick) ?? (0, 127)
    }

    static func resolvePair(preset: ParsedZone, presetGlobal: ParsedZone?, instrument: ParsedZone,
                            instrumentGlobal: ParsedZone?, instrumentIndex: Int, sample: Int,
                            into out: inout ResolvedSoundFont) {
        let presetKeys = range(preset, presetGlobal) { $0.keyRange }
        let instrumentKeys = range(instrument, instrumentGlobal) { $0.keyRange }
        let presetVelocities = range(preset, presetGlobal) { $0.velocityRange }
        let instrumentVelocities = range(instrument, instrumentGlobal) { $0.velocityRange }
        let keyLow = max(presetKeys.low, instrumentKeys.low), keyHigh = min(presetKeys.high, instrumentKeys.high, 127)
        let velocityLow = max(presetVelocities.low, instrumentVelocities.low)
        let velocityHigh = min(presetVelocities.high, instrumentVelocities.high, 127)
        guard keyLow <= keyHigh, velocityLow <= velocityHigh else { return }

        var zone = SoundFontZone()
        zone.keyLow = keyLow
        zone.keyHigh = keyHigh
        zone.velocityLow = velocityLow
        zone.velocityHigh = velocityHigh
        zone.sample = Int32(sample)
        for g in 0 ..< SoundFontGenerator.count {
            // Instrument level: absolute (local, else global, else the default).
            var value = instrument.value(g) ?? instrumentGlobal?.value(g) ?? SoundFontGenerator.defaultValue(g)
            // Preset level: an offset (local, else global, else 0); instrument-only generators never get one.
            if ZoneLevel.preset.allows(g) { value += preset.value(g) ?? presetGlobal?.value(g) ?? 0 }
            zone.generators[g] = value
        }
        zone.generators[SoundFontGenerator.instrument] = Int32(instrumentIndex)
        zone.generators[SoundFontGenerator.sampleID] = Int32(sample)

        let modulators = mergedModulators(preset: preset, presetGlobal: presetGlobal, instrument: instrument,
                                          instrumentGlobal: instrumentGlobal)
        zone.modulatorStart = Int32(out.modulators.count)
        zone.modulatorCount = Int32(modulators.count)
        out.modulators += modulators
        out.zones.append(zone)
    }

    /// Section 9.5: the defaults; instrument modulators (a local one replacing an identical global one) replace
    /// identical defaults or are added; preset modulators (local replacing global likewise) add their amount to
    /// an identical entry or are added.
    static func mergedModulators(preset: ParsedZone, presetGlobal: ParsedZone?, instrument: ParsedZone,
                                 instrumentGlobal: ParsedZone?) -> [SoundFontModulator] {
        var list = SoundFontModulator.defaults
        for mod in levelModulators(instrument, instrumentGlobal) {
            if let i = list.firstIndex(where: { $0.isIdentical(to: mod) }) { list[i] = mod } else { list.append(mod) }
        }
        for mod in levelModulators(preset, presetGlobal) {
            if let i = list.firstIndex(where: { $0.isIdentical(to: mod) }) {
                list[i].amount += mod.amount
            } else {
                list.append(mod)
            }
        }
        return list
    }

    /// One level's modulators: the global zone's, each replaced by an identical local one, then the local
    /// ones that replaced nothing.
    static func levelModulators(_ zone: ParsedZone, _ global: ParsedZone?) -> [SoundFontModulator] {
        var list = global?.modulators ?? []
        for mod in zone.modulators {
            if let i = list.firstIndex(where: { $0.isIdentical(to: mod) }) { list[i] = mod } else { list.append(mod) }
        }
        return list
    }
}
