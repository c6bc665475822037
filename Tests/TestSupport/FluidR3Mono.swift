// Debian's FluidR3Mono_GM.sf3 (fluidr3mono-gm-soundfont), the real SoundFont 3 font the SoundFont 3 tests of
// several targets take apart: the sample its piano plays at a key, and the font with that sample's stream damaged.
import DSP
import Foundation
import Testing

/// The path of FluidR3Mono_GM.sf3 (scripts/setup test installs it).
public let fluidR3Mono = "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3"

/// The sample `font`'s piano (bank 0, program 0) plays at `key`, velocity 100: that of its first zone holding both.
public func pianoSample(_ font: SoundFont, key: UInt8) throws -> Int {
    let preset = try #require(font.exactPreset(bank: 0, program: 0))
    let header = font.presets[preset]
    let zone = try #require((Int(header.zoneStart) ..< Int(header.zoneStart + header.zoneCount)).first {
        font.zones[$0].contains(key: key, velocity: 100)
    })
    return Int(font.zones[zone].sample)
}

/// The bytes of FluidR3Mono_GM.sf3 (loaded as `font`) with the identification header of `sample`'s Ogg Vorbis
/// stream garbled, so that this one stream does not decode.
public func fluidR3MonoDamaging(sample: Int, of font: SoundFont) throws -> [UInt8] {
    let stream = try #require(font.sampleStore?.streamBytes(ofSample: sample))
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fluidR3Mono)))
    for i in stream.lowerBound + 30 ..< stream.lowerBound + 60 { bytes[i] ^= 0x5A }
    return bytes
}
