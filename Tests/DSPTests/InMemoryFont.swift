// SoundFonts built in memory for the sample-voice tests: computed samples (a looped cosine), zones with the
// generators a test sets, and the SoundFont 2.04 default modulators (as a loaded font gets them).
import Foundation
@testable import DSP

/// The default modulators, as the loader merges them into every zone.
var defaultModulators: [SoundFontModulator] { SoundFontModulator.defaults }

/// A zone playing `sample` over `keys`, with generator values (number: value) replacing the defaults.
func makeZone(sample: Int32 = 0, keys: ClosedRange<UInt8> = 0...127, velocities: ClosedRange<UInt8> = 0...127,
              _ generators: [Int: Int32] = [:]) -> SoundFontZone {
    var zone = SoundFontZone()
    zone.sample = sample
    zone.keyLow = keys.lowerBound
    zone.keyHigh = keys.upperBound
    zone.velocityLow = velocities.lowerBound
    zone.velocityHigh = velocities.upperBound
    for (g, v) in generators { zone.generators[g] = v }
    return zone
}

/// A cosine of `period` frames (441 Hz at 44.1 kHz for 100), `frames` long, amplitude `amplitude`, as a
/// sample header over `data` (appended to it, then 46 zero frames as the specification requires).
func appendCosine(to data: inout [Int16], period: Int = 100, frames: Int = 2_000, loop: Range<Int> = 1_000..<1_900,
                  rate: UInt32 = 44_100, root: UInt8 = 69, correction: Int8 = 0, amplitude: Double = 0.5) -> SoundFontSample {
    let start = data.count
    for n in 0..<frames { data.append(Int16(amplitude * 32767 * cos(2 * Double.pi * Double(n) / Double(period)))) }
    data += [Int16](repeating: 0, count: 46)
    return SoundFontSample(start: UInt32(start), end: UInt32(start + frames), loopStart: UInt32(start + loop.lowerBound),
                           loopEnd: UInt32(start + loop.upperBound), sampleRate: rate, originalPitch: root,
                           pitchCorrection: correction, link: 0, type: 1)
}

/// A font of the given presets (bank, program, zones), samples and data; every zone gets `modulators`.
func memoryFont(presets: [(bank: UInt16, program: UInt8, zones: [SoundFontZone])], samples: [SoundFontSample],
                data: [Int16], modulators: [SoundFontModulator] = defaultModulators) -> SoundFont {
    var allZones: [SoundFontZone] = []
    var headers: [SoundFontPreset] = []
    for (i, p) in presets.enumerated() {
        headers.append(SoundFontPreset(name: "Preset \(i)", bank: p.bank, program: p.program,
                                       zoneStart: Int32(allZones.count), zoneCount: Int32(p.zones.count)))
        for var zone in p.zones {
            zone.modulatorStart = 0
            zone.modulatorCount = Int32(modulators.count)
            allZones.append(zone)
        }
    }
    return SoundFont(path: "", name: "Test font", presets: headers, zones: allZones, modulators: modulators,
                     samples: samples, frames: data)
}

/// A synth at 48 kHz playing a font of one preset (0:0) whose zones play one looped cosine sample.
func cosineFontSynth(_ zones: [SoundFontZone] = [makeZone()], voices: Int = 16, correction: Int8 = 0,
                     maxFrames: Int = 256) -> Synth {
    var data: [Int16] = []
    let sample = appendCosine(to: &data, correction: correction)
    let font = memoryFont(presets: [(0, 0, zones)], samples: [sample], data: data)
    let synth = Synth(voices: voices, soundFont: font)
    synth.prepare(sampleRate: 48_000, maxFrames: maxFrames)
    return synth
}
