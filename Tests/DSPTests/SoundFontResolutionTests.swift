import Glibc
import Testing
@testable import DSP

// Resolution (SoundFont 2.04 sections 8.4, 9.4, 9.5) on fonts built by SoundFontBuilder.

private typealias Zone = SoundFontBuilder.Zone
private typealias G = SoundFontGenerator

private func load(_ builder: SoundFontBuilder) throws -> SoundFont {
    try SoundFont.load(bytes: builder.bytes(), path: "built.sf2")
}

private func modulators(_ font: SoundFont, zone: Int) -> [SoundFontModulator] {
    let z = font.zones[zone]
    return Array(font.modulators[Int(z.modulatorStart) ..< Int(z.modulatorStart + z.modulatorCount)])
}

@Test func minimalBuiltFontLoadsWithItsSampleMapped() throws {
    var builder = SoundFontBuilder.minimal(bank: 0, program: 5)
    builder.name = "Tiny"
    let font = try load(builder)
    #expect(font.name == "Tiny")
    #expect(font.presetCount == 1 && font.presets[0].name == "preset" && font.presets[0].program == 5)
    #expect(font.zones.count == 1)
    let zone = font.zones[0]
    #expect(zone.keyLow == 0 && zone.keyHigh == 127 && zone.velocityLow == 0 && zone.velocityHigh == 127)
    #expect(zone.generators[G.sampleModes] == 1)
    #expect(zone.generators[G.initialFilterFc] == 13500 && zone.generators[G.attackVolEnv] == -12000)
    let sample = font.samples[Int(zone.sample)]
    #expect(sample.start == 0 && sample.end == 64 && sample.loopStart == 8 && sample.loopEnd == 56)
    #expect(font.sampleData.count == 64 + 46)
    #expect(font.sampleData[10] == 1000 && font.sampleData[63] == 6300 && font.sampleData[64] == 0)
    #expect(font.sampleLowBytes == nil)
    #expect(modulators(font, zone: 0) == SoundFontModulator.defaults)
}

@Test func sm24IsUsedOnlyWhenItsSizeMatches() throws {
    var builder = SoundFontBuilder.minimal()
    builder.sm24Value = 0x7F
    let font = try load(builder)
    #expect(font.sampleLowBytes?.count == font.sampleData.count)
    #expect(font.sampleLowBytes?[3] == 0x7F)
    // Two bytes short (and the LIST and RIFF sizes to match): ignored, as the specification and FluidSynth say.
    var bytes = builder.bytes()
    let sm24 = SoundFontBuilder.offset(of: "sm24", in: bytes)
    let sdta = SoundFontBuilder.offset(of: "sdta", in: bytes) - 8
    func size(_ at: Int) -> UInt32 { UInt32(bytes[at + 4]) | UInt32(bytes[at + 5]) << 8 | UInt32(bytes[at + 6]) << 16 }
    bytes.removeSubrange(sm24 + 8 ..< sm24 + 10)
    SoundFontBuilder.poke32(&bytes, sm24 + 4, size(sm24) - 2)
    SoundFontBuilder.poke32(&bytes, sdta + 4, size(sdta) - 2)
    SoundFontBuilder.poke32(&bytes, 4, UInt32(bytes.count - 8))
    #expect(try SoundFont.load(bytes: bytes).sampleLowBytes == nil)
}

@Test func globalZonesGiveDefaultsThatLocalZonesOverride() throws {
    var b = SoundFontBuilder.minimal()
    b.instruments[0].zones = [
        Zone([Zone.range(G.keyRange, 10, 90), Zone.gen(G.attackVolEnv, -2000), Zone.gen(G.pan, 100)]),  // global
        Zone([Zone.gen(G.pan, -200)], target: 0),          // keeps the global attack and key range, own pan
        Zone([Zone.range(G.keyRange, 20, 30)], target: 0),  // own key range, global pan
    ]
    let font = try load(b)
    #expect(font.zones.count == 2)
    #expect(font.zones[0].generators[G.attackVolEnv] == -2000 && font.zones[0].generators[G.pan] == -200)
    #expect(font.zones[0].keyLow == 10 && font.zones[0].keyHigh == 90)
    #expect(font.zones[1].generators[G.attackVolEnv] == -2000 && font.zones[1].generators[G.pan] == 100)
    #expect(font.zones[1].keyLow == 20 && font.zones[1].keyHigh == 30)
}

@Test func presetGeneratorsAreOffsetsAddedToInstrumentValues() throws {
    var b = SoundFontBuilder.minimal()
    b.instruments[0].zones = [Zone([Zone.gen(G.coarseTune, 2), Zone.gen(G.initialAttenuation, 100)], target: 0)]
    b.presets[0].zones = [
        Zone([Zone.gen(G.coarseTune, 3), Zone.gen(G.decayVolEnv, 500)]),  // global preset zone
        Zone([Zone.gen(G.initialAttenuation, 50)], target: 0),
    ]
    let zone = try load(b).zones[0]
    #expect(zone.generators[G.coarseTune] == 5, "instrument 2 + preset global 3")
    #expect(zone.generators[G.initialAttenuation] == 150, "instrument 100 + preset local 50")
    #expect(zone.generators[G.decayVolEnv] == -12000 + 500, "the default + the preset global offset")
}

@Test func instrumentOnlyGeneratorsAreIgnoredAtPresetLevel() throws {
    var b = SoundFontBuilder.minimal()
    b.instruments[0].zones = [Zone([Zone.gen(G.overridingRootKey, 62)], target: 0)]
    b.presets[0].zones = [Zone([Zone.gen(G.startAddressOffset, 10), Zone.gen(G.sampleModes, 3),
                               Zone.gen(G.overridingRootKey, 5), Zone.gen(G.exclusiveClass, 1),
                               Zone.gen(G.keynum, 40), Zone.gen(G.fineTune, 7)], target: 0)]
    let zone = try load(b).zones[0]
    #expect(zone.generators[G.startAddressOffset] == 0)
    #expect(zone.generators[G.sampleModes] == 0)
    #expect(zone.generators[G.overridingRootKey] == 62)
    #expect(zone.generators[G.exclusiveClass] == 0)
    #expect(zone.generators[G.keynum] == -1)
    #expect(zone.generators[G.fineTune] == 7, "an allowed generator in the same zone still counts")
}

@Test func rangesIntersectAndEmptyIntersectionsAreDropped() throws {
    var b = SoundFontBuilder.minimal()
    b.instruments[0].zones = [
        Zone([Zone.range(G.keyRange, 0, 59), Zone.range(G.velRange, 0, 100)], target: 0),
        Zone([Zone.range(G.keyRange, 60, 127)], target: 0),
    ]
    b.presets[0].zones = [Zone([Zone.range(G.keyRange, 40, 70), Zone.range(G.velRange, 50, 127)], target: 0)]
    let font = try load(b)
    #expect(font.zones.count == 2)
    #expect((font.zones[0].keyLow, font.zones[0].keyHigh) == (40, 59))
    #expect((font.zones[0].velocityLow, font.zones[0].velocityHigh) == (50, 100))
    #expect((font.zones[1].keyLow, font.zones[1].keyHigh) == (60, 70))
    #expect(font.zones[1].contains(key: 65, velocity: 60) && !font.zones[1].contains(key: 71, velocity: 60))

    b.presets[0].zones = [Zone([Zone.range(G.keyRange, 100, 110)], target: 0)]
    let narrow = try load(b)
    #expect(narrow.zones.count == 1 && narrow.zones[0].keyLow == 100, "the pair with keys 0-59 does not intersect")
}

@Test func zonesWithoutTargetAfterTheFirstAndUnplayableSamplesAreDropped() throws {
    var b = SoundFontBuilder.minimal()
    b.samples.append(SoundFontBuilder.Sample(name: "rom", frames: [1, 2, 3], type: 0x8001))
    b.instruments[0].zones = [
        Zone([Zone.gen(G.pan, 10)], target: 0),
        Zone([Zone.gen(G.pan, 20)]),           // a global zone not first: dropped
        Zone([Zone.gen(G.pan, 30)], target: 1), // a ROM sample: dropped
    ]
    let font = try load(b)
    #expect(font.zones.count == 1 && font.zones[0].generators[G.pan] == 10)
}

@Test func generatorOrderRulesFollowFluidSynth() throws {
    var b = SoundFontBuilder.minimal()
    // keyRange not first is ignored; a generator given twice keeps its last value.
    b.instruments[0].zones = [Zone([Zone.gen(G.pan, 5), Zone.range(G.keyRange, 10, 20), Zone.gen(G.pan, 7)], target: 0)]
    let font = try load(b)
    #expect(font.zones[0].keyLow == 0 && font.zones[0].keyHigh == 127)
    #expect(font.zones[0].generators[G.pan] == 7)
}

@Test func modulatorsMergeDefaultsInstrumentAndPresetLevels() throws {
    let velocityToAttenuation = SoundFontModulator.defaults[0]
    var instrumentReplacement = velocityToAttenuation
    instrumentReplacement.amount = 480
    let modWheelToCutoff = SoundFontModulator(source: 0x0081, destination: 8, amount: -1200, amountSource: 0, transform: 0)
    var localCutoff = modWheelToCutoff
    localCutoff.amount = -600
    var presetPan = SoundFontModulator.defaults[5]  // CC10 → pan, identical to a default: summed
    presetPan.amount = 100
    let presetNew = SoundFontModulator(source: 0x0082, destination: 17, amount: 300, amountSource: 0, transform: 0)
    var presetGlobalPan = presetPan
    presetGlobalPan.amount = 9999  // replaced by the local one before summing

    var b = SoundFontBuilder.minimal()
    b.instruments[0].zones = [
        Zone(modulators: [modWheelToCutoff]),                                       // global
        Zone(modulators: [instrumentReplacement, localCutoff], target: 0),
    ]
    b.presets[0].zones = [
        Zone(modulators: [presetGlobalPan]),
        Zone(modulators: [presetPan, presetNew], target: 0),
    ]
    let font = try load(b)
    let list = modulators(font, zone: 0)
    #expect(list.count == 12)
    #expect(list[0] == instrumentReplacement, "an identical instrument modulator replaces the default")
    #expect(list[5].amount == 500 + 100, "an identical preset modulator's amount is added")
    #expect(list[10] == localCutoff, "the local instrument modulator replaced the identical global one")
    #expect(list[11] == presetNew)
}

@Test func linkedModulatorsAndIdenticalOnesInOneZoneAreReduced() throws {
    let linked = SoundFontModulator(source: 0x0081, destination: 0x8000, amount: 10, amountSource: 0, transform: 0)
    let first = SoundFontModulator(source: 0x0083, destination: 8, amount: 10, amountSource: 0, transform: 0)
    var second = first
    second.amount = 20
    var b = SoundFontBuilder.minimal()
    b.instruments[0].zones = [Zone(modulators: [linked, first, second], target: 0)]
    let list = modulators(try load(b), zone: 0)
    #expect(list.count == 11 && list[10] == second)
}

@Test func presetsAreSortedAndDuplicatesKeepTheFirst() throws {
    var b = SoundFontBuilder.minimal()
    b.presets = SoundFontBuilder.Preset.playing([("drums", 128, 0), ("organ", 0, 16), ("piano", 0, 0)]) + [
        .init(name: "organ copy", bank: 0, program: 16, zones: []),
        .init(name: "bad program", bank: 0, program: 200, zones: []),
    ]
    let font = try load(b)
    #expect(font.presets.map(\.name) == ["piano", "organ", "drums"])
    #expect(font.exactPreset(bank: 0, program: 16) == 1)
    for p in font.presets { #expect(p.zoneCount == 1 && font.zones[Int(p.zoneStart)].sample == 0) }
}

// Preset selection with FluidSynth's fallbacks: every branch.
@Test func preferredPresetFallsBackAsFluidSynthDoes() throws {
    var b = SoundFontBuilder.minimal()
    b.presets = SoundFontBuilder.Preset.playing([
        ("piano", 0, 0), ("strings", 0, 48), ("strings 2", 8, 48),
        ("standard", 128, 0), ("room", 128, 8), ("sfx kit", 129, 0),
    ])
    let font = try load(b)
    func name(_ bank: Int, _ program: Int, _ percussion: Bool) -> String? {
        font.preferredPreset(bank: bank, program: program, percussion: percussion).map { font.presets[$0].name }
    }
    // Melodic: exact, then bank 0 same program, then bank 0 program 0.
    #expect(name(8, 48, false) == "strings 2")
    #expect(name(5, 48, false) == "strings")
    #expect(name(5, 30, false) == "piano")
    #expect(name(0, 30, false) == "piano")
    #expect(name(-1, 48, false) == "strings" && name(1 << 40, 48, false) == "strings")
    #expect(name(0, 48 + 128, false) == "strings", "program modulo 128")
    // Percussion: bank n means 128 + n, then 128 same program, then 128 program 0.
    #expect(name(0, 8, true) == "room")
    #expect(name(1, 0, true) == "sfx kit")
    #expect(name(128, 8, true) == "room", "a bank of 128 or more is taken as given")
    #expect(name(3, 8, true) == "room")
    #expect(name(3, 20, true) == "standard")
    // Nothing to fall back on: nil, as FluidSynth plays nothing.
    var drumsOnly = SoundFontBuilder.minimal(bank: 128, program: 0)
    drumsOnly.presets[0].name = "kit"
    let kit = try load(drumsOnly)
    #expect(kit.preferredPreset(bank: 0, program: 0, percussion: false) == nil)
    #expect(kit.preferredPreset(bank: 0, program: 0, percussion: true) == 0)
    let melodicOnly = try load(SoundFontBuilder.minimal(bank: 0, program: 3))
    #expect(melodicOnly.preferredPreset(bank: 0, program: 0, percussion: true) == nil)
    #expect(melodicOnly.preferredPreset(bank: 0, program: 5, percussion: false) == nil)
}

/// Writes the fuzzer's seed corpus (Fuzz/corpus/FuzzSoundFont) from the builder: run with
/// BACKBEAT_WRITE_FUZZ_CORPUS=1 after changing the builder, and commit the files.
@Test(.enabled(if: getenv("BACKBEAT_WRITE_FUZZ_CORPUS") != nil, "opt-in: writes the fuzz corpus when BACKBEAT_WRITE_FUZZ_CORPUS is set"))
func writeSoundFontFuzzCorpus() throws {
    var sm24 = SoundFontBuilder.minimal(frames: 16)
    sm24.sm24Value = 0x40
    var layered = SoundFontBuilder.minimal(frames: 16)
    layered.samples.append(.init(name: "second", frames: [1, -1, 2, -2, 3, -3], loopStart: 1, loopEnd: 5, type: 2))
    layered.instruments[0].zones = [
        Zone([Zone.range(G.keyRange, 0, 100), Zone.gen(G.releaseVolEnv, 1200)],
             modulators: [.init(source: 0x0081, destination: 8, amount: -1200, amountSource: 0, transform: 0)]),
        Zone([Zone.range(G.keyRange, 0, 59), Zone.range(G.velRange, 0, 90), Zone.gen(G.sampleModes, 1)], target: 0),
        Zone([Zone.range(G.keyRange, 60, 127), Zone.gen(G.overridingRootKey, 64)], target: 1),
    ]
    layered.presets = [
        .init(name: "layered", bank: 0, program: 0, zones: [
            Zone([Zone.gen(G.coarseTune, 1)], modulators: [SoundFontModulator.defaults[5]]),
            Zone([Zone.range(G.keyRange, 30, 90), Zone.gen(G.pan, -100)], target: 0),
        ]),
        .init(name: "kit", bank: 128, program: 0, zones: [Zone([Zone.gen(G.exclusiveClass, 1)], target: 0)]),
    ]
    let fonts = [("minimal.sf2", SoundFontBuilder.minimal(frames: 16)), ("sm24.sf2", sm24), ("layered.sf2", layered)]
    let directory = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
    for (name, builder) in fonts {
        let bytes = builder.bytes()
        _ = try SoundFont.load(bytes: bytes)
        let f = try #require(fopen("/\(directory)/Fuzz/corpus/FuzzSoundFont/\(name)", "wb"))
        #expect(fwrite(bytes, 1, bytes.count, f) == bytes.count)
        fclose(f)
    }
}
