// The built-in synth's drum kit: the percussion keys 27-87 of GS and GM2 made from a pitch-swept sine (the
// body of kicks and toms, the ring of bells and blocks) and filtered noise (snares, hats, cymbals, shakers),
// each with its own exponential decay, in the way of the analogue drum machines (TR-808/909 voice circuits)
// and of FluidSynth-less players such as TiMidity++'s fallbacks. The other kits a drum part chooses by program
// are this one changed (DrumKits.swift). The voices render in Synth+Drums.swift.

/// One percussion sound of the built-in kit: a sine whose frequency falls from `toneStart` to `toneEnd`
/// (time constant `pitchTime`) and decays over `toneDecay` seconds (to -60 dB), plus white noise through a
/// state-variable filter (`filter`, `filterHz`, damping `filterK`) decaying over `noiseDecay` seconds.
public struct DrumSound: Sendable, Hashable {
    /// The filter the noise goes through.
    public enum Filter: UInt8, Sendable { case lowPass, bandPass, highPass }

    public var name: String
    public var toneStart: Float
    public var toneEnd: Float
    public var pitchTime: Float
    public var toneDecay: Float
    public var toneGain: Float
    public var noiseDecay: Float
    public var noiseGain: Float
    public var filter: Filter
    public var filterHz: Float
    public var filterK: Float
    /// A note of a class cuts the sounding notes of the same class on its channel (0: none): the hi-hats,
    /// the whistles, the guiros, the cuicas, the triangles, as GM2's standard kit and SoundFont kits do.
    public var exclusiveClass: Int

    /// A tone (with a little noise when `noiseGain` > 0).
    static func tone(_ name: String, _ start: Float, _ end: Float, pitch: Float, decay: Float, gain: Float = 1,
                     noise: Float = 0, noiseGain: Float = 0, _ filter: Filter = .bandPass, _ hz: Float = 2_000,
                     k: Float = 1, exclusive: Int = 0) -> DrumSound {
        DrumSound(name: name, toneStart: start, toneEnd: end, pitchTime: pitch, toneDecay: decay, toneGain: gain,
                  noiseDecay: max(noise, 0.001), noiseGain: noiseGain, filter: filter, filterHz: hz, filterK: k,
                  exclusiveClass: exclusive)
    }

    /// Filtered noise alone.
    static func noise(_ name: String, decay: Float, gain: Float = 0.8, _ filter: Filter, _ hz: Float, k: Float = 1.2,
                      exclusive: Int = 0) -> DrumSound {
        DrumSound(name: name, toneStart: 0, toneEnd: 0, pitchTime: 1, toneDecay: 0.001, toneGain: 0,
                  noiseDecay: decay, noiseGain: gain, filter: filter, filterHz: hz, filterK: k, exclusiveClass: exclusive)
    }

    static func tom(_ name: String, _ hz: Float) -> DrumSound {
        tone(name, hz * 1.45, hz, pitch: 0.08, decay: 0.55, gain: 0.9, noise: 0.05, noiseGain: 0.15, .lowPass, 1_500)
    }

    /// The standard kit's first key (GS and GM2's High Q) and its sounds in key order, 27...87: General MIDI's
    /// 35...81 with the keys GS and GM2 add below and above them.
    public static let firstKey = 27
    public static let kit: [DrumSound] = [
        tone("high q", 1_400, 500, pitch: 0.01, decay: 0.06, gain: 0.5, noise: 0.01, noiseGain: 0.2, .bandPass, 3_000), // 27
        noise("slap", decay: 0.05, gain: 0.8, .bandPass, 1_800, k: 0.8),                                           // 28
        tone("scratch push", 400, 1_400, pitch: 0.06, decay: 0.12, gain: 0.3, noise: 0.12, noiseGain: 0.5, .bandPass, 2_500, k: 0.5), // 29
        tone("scratch pull", 1_200, 300, pitch: 0.06, decay: 0.12, gain: 0.3, noise: 0.12, noiseGain: 0.5, .bandPass, 1_800, k: 0.5), // 30
        tone("sticks", 2_200, 2_000, pitch: 0.005, decay: 0.04, gain: 0.5, noise: 0.02, noiseGain: 0.4, .highPass, 3_000), // 31
        tone("square click", 1_000, 1_000, pitch: 1, decay: 0.02, gain: 0.6),                                      // 32
        tone("metronome click", 2_000, 2_000, pitch: 1, decay: 0.025, gain: 0.5, noise: 0.01, noiseGain: 0.2, .highPass, 4_000), // 33
        tone("metronome bell", 2_600, 2_600, pitch: 1, decay: 0.3, gain: 0.4),                                     // 34
        tone("acoustic bass drum", 120, 45, pitch: 0.04, decay: 0.55, noise: 0.01, noiseGain: 0.3, .lowPass, 2_000),   // 35
        tone("bass drum 1", 150, 50, pitch: 0.03, decay: 0.45, noise: 0.008, noiseGain: 0.35, .lowPass, 3_000),        // 36
        tone("side stick", 800, 600, pitch: 0.005, decay: 0.05, gain: 0.4, noise: 0.04, noiseGain: 0.6, .bandPass, 3_000), // 37
        tone("acoustic snare", 250, 180, pitch: 0.02, decay: 0.12, gain: 0.35, noise: 0.22, noiseGain: 0.9, .bandPass, 3_500, k: 0.9), // 38
        noise("hand clap", decay: 0.15, gain: 0.9, .bandPass, 1_200, k: 1),                                        // 39
        tone("electric snare", 220, 170, pitch: 0.015, decay: 0.1, gain: 0.3, noise: 0.18, noiseGain: 0.9, .highPass, 2_000), // 40
        tom("low floor tom", 80),                                                                                   // 41
        noise("closed hi-hat", decay: 0.06, gain: 0.55, .highPass, 7_000, exclusive: 1),                           // 42
        tom("high floor tom", 95),                                                                                  // 43
        noise("pedal hi-hat", decay: 0.09, gain: 0.5, .highPass, 6_000, exclusive: 1),                             // 44
        tom("low tom", 115),                                                                                        // 45
        noise("open hi-hat", decay: 1, gain: 0.5, .highPass, 7_000, exclusive: 1),                               // 46
        tom("low-mid tom", 135),                                                                                    // 47
        tom("hi-mid tom", 160),                                                                                     // 48
        noise("crash cymbal 1", decay: 2, gain: 0.5, .highPass, 5_000),                                            // 49
        tom("high tom", 190),                                                                                       // 50
        noise("ride cymbal 1", decay: 1.2, gain: 0.35, .highPass, 6_500, k: 0.8),                                  // 51
        noise("chinese cymbal", decay: 1.5, gain: 0.5, .bandPass, 4_000, k: 0.6),                                  // 52
        tone("ride bell", 850, 850, pitch: 1, decay: 0.8, gain: 0.35, noise: 0.6, noiseGain: 0.3, .highPass, 5_000), // 53
        noise("tambourine", decay: 0.25, gain: 0.6, .bandPass, 9_000, k: 0.5),                                     // 54
        noise("splash cymbal", decay: 0.9, gain: 0.5, .highPass, 6_000),                                           // 55
        tone("cowbell", 560, 560, pitch: 1, decay: 0.3, gain: 0.5, noise: 0.05, noiseGain: 0.2, .bandPass, 800),   // 56
        noise("crash cymbal 2", decay: 2.2, gain: 0.5, .highPass, 4_500),                                          // 57
        noise("vibraslap", decay: 0.6, gain: 0.6, .bandPass, 2_500, k: 0.3),                                       // 58
        noise("ride cymbal 2", decay: 1.2, gain: 0.35, .highPass, 5_500, k: 0.8),                                  // 59
        tone("hi bongo", 480, 400, pitch: 0.01, decay: 0.2, gain: 0.8, noise: 0.02, noiseGain: 0.2),               // 60
        tone("low bongo", 360, 300, pitch: 0.01, decay: 0.25, gain: 0.8, noise: 0.02, noiseGain: 0.2),             // 61
        tone("mute hi conga", 330, 300, pitch: 0.01, decay: 0.1, gain: 0.8, noise: 0.02, noiseGain: 0.2),          // 62
        tone("open hi conga", 330, 300, pitch: 0.01, decay: 0.35, gain: 0.8, noise: 0.02, noiseGain: 0.2),         // 63
        tone("low conga", 250, 220, pitch: 0.01, decay: 0.4, gain: 0.8, noise: 0.02, noiseGain: 0.2),              // 64
        tone("high timbale", 420, 380, pitch: 0.01, decay: 0.4, gain: 0.6, noise: 0.1, noiseGain: 0.3, .bandPass, 3_000), // 65
        tone("low timbale", 320, 290, pitch: 0.01, decay: 0.45, gain: 0.6, noise: 0.1, noiseGain: 0.3, .bandPass, 3_000), // 66
        tone("high agogo", 900, 900, pitch: 1, decay: 0.3, gain: 0.5),                                            // 67
        tone("low agogo", 650, 650, pitch: 1, decay: 0.3, gain: 0.5),                                             // 68
        noise("cabasa", decay: 0.12, gain: 0.6, .highPass, 6_000),                                                 // 69
        noise("maracas", decay: 0.06, gain: 0.6, .highPass, 7_000),                                                // 70
        tone("short whistle", 2_400, 2_300, pitch: 0.02, decay: 0.15, gain: 0.3, exclusive: 2),                    // 71
        tone("long whistle", 2_400, 2_300, pitch: 0.02, decay: 0.6, gain: 0.3, exclusive: 2),                      // 72
        noise("short guiro", decay: 0.08, gain: 0.7, .bandPass, 3_000, k: 0.3, exclusive: 3),                      // 73
        noise("long guiro", decay: 0.35, gain: 0.7, .bandPass, 3_000, k: 0.3, exclusive: 3),                       // 74
        tone("claves", 2_500, 2_500, pitch: 1, decay: 0.06, gain: 0.5, noise: 0.01, noiseGain: 0.2),              // 75
        tone("hi wood block", 1_800, 1_700, pitch: 0.005, decay: 0.06, gain: 0.6, noise: 0.01, noiseGain: 0.2),    // 76
        tone("low wood block", 1_300, 1_200, pitch: 0.005, decay: 0.07, gain: 0.6, noise: 0.01, noiseGain: 0.2),   // 77
        tone("mute cuica", 650, 800, pitch: 0.05, decay: 0.15, gain: 0.5, noise: 0.05, noiseGain: 0.2, exclusive: 4), // 78
        tone("open cuica", 500, 350, pitch: 0.1, decay: 0.4, gain: 0.5, noise: 0.05, noiseGain: 0.2, exclusive: 4),   // 79
        tone("mute triangle", 4_500, 4_500, pitch: 1, decay: 0.1, gain: 0.3, noise: 0.05, noiseGain: 0.1, .highPass, 8_000, exclusive: 5), // 80
        tone("open triangle", 4_500, 4_500, pitch: 1, decay: 1.2, gain: 0.3, noise: 0.1, noiseGain: 0.1, .highPass, 8_000, exclusive: 5),  // 81
        noise("shaker", decay: 0.1, gain: 0.6, .highPass, 6_500),                                                 // 82
        tone("jingle bell", 3_200, 3_200, pitch: 1, decay: 0.5, gain: 0.25, noise: 0.4, noiseGain: 0.4, .highPass, 7_000), // 83
        tone("bell tree", 5_200, 3_800, pitch: 0.5, decay: 1.4, gain: 0.3, noise: 0.3, noiseGain: 0.15, .highPass, 8_000), // 84
        tone("castanets", 1_600, 1_500, pitch: 0.005, decay: 0.05, gain: 0.5, noise: 0.03, noiseGain: 0.5, .bandPass, 2_500), // 85
        tone("mute surdo", 95, 80, pitch: 0.03, decay: 0.2, gain: 0.9, noise: 0.02, noiseGain: 0.2, .lowPass, 1_200, exclusive: 6), // 86
        tone("open surdo", 95, 80, pitch: 0.03, decay: 0.9, gain: 0.9, noise: 0.02, noiseGain: 0.2, .lowPass, 1_200, exclusive: 6), // 87
    ]

    /// The standard kit's sound of `key`, nil outside 27...87 (those keys are silent on a drum part).
    public static func sound(key: Int) -> DrumSound? {
        let i = key - firstKey
        return i >= 0 && i < kit.count ? kit[i] : nil
    }
}

/// The kits copied out of `DrumKit.kits` into memory this table owns (128 entries by key for each kit, in
/// the order of `DrumKit.kits`; a silent entry where a kit has no sound), and the kit of each of the 128
/// programs (`DrumKit.index(program:)`), so a note-on on the real-time thread touches no Swift array.
struct DrumKitTable: ~Copyable {
    struct Entry: BitwiseCopyable {
        var toneStart: Float, toneEnd: Float, pitchTime: Float, toneDecay: Float, toneGain: Float
        var noiseDecay: Float, noiseGain: Float, filter: UInt8, filterHz: Float, filterK: Float
        var exclusiveClass: Int32
        var plays: Bool
    }

    let entries: FixedArray<Entry>
    /// The kit (index into `DrumKit.kits`) each program selects on a drum part.
    let kitOfProgram: FixedArray<UInt8>

    init() {
        let kits = DrumKit.kits
        entries = FixedArray(count: 128 * kits.count) { i in
            guard let s = kits[i / 128].sound(key: i % 128) else {
                return Entry(toneStart: 0, toneEnd: 0, pitchTime: 1, toneDecay: 1, toneGain: 0, noiseDecay: 1,
                             noiseGain: 0, filter: 0, filterHz: 1_000, filterK: 1, exclusiveClass: 0, plays: false)
            }
            return Entry(toneStart: s.toneStart, toneEnd: s.toneEnd, pitchTime: s.pitchTime, toneDecay: s.toneDecay,
                         toneGain: s.toneGain, noiseDecay: s.noiseDecay, noiseGain: s.noiseGain,
                         filter: s.filter.rawValue, filterHz: s.filterHz, filterK: s.filterK,
                         exclusiveClass: Int32(s.exclusiveClass), plays: true)
        }
        kitOfProgram = FixedArray(count: 128) { UInt8(DrumKit.index(program: $0)) }
    }
}

/// The built-in drum kit's voices, one of the synth's kinds of voice (beside `BuiltInVoices` and
/// `SoundFontVoices`): the kit, and the voices' own state, one entry per voice slot (the slot's `VoiceSlots`
/// entry holds what every voice has: stage, channel, key, fade, the filter states `ic1`/`ic2`, `amplitude`
/// for the velocity). Each array a `FixedArray`, freed with the synth.
struct DrumVoices: ~Copyable {
    let kit: DrumKitTable
    let tonePhase: FixedArray<Float>      // cycles, 0..<1
    let toneEnd: FixedArray<Float>        // cycles per sample the sweep ends at
    let toneSweep: FixedArray<Float>      // cycles per sample above `toneEnd` now, shrinking
    let pitchCoefficient: FixedArray<Float>
    let toneLevel: FixedArray<Float>
    let toneCoefficient: FixedArray<Float>
    let noiseLevel: FixedArray<Float>
    let noiseCoefficient: FixedArray<Float>
    let seed: FixedArray<UInt32>          // the noise generator's state (an LCG)
    let filter: FixedArray<UInt8>         // DrumSound.Filter
    let a1: FixedArray<Float>             // the SVF's coefficients (StateVariableFilter.swift's form)
    let a2: FixedArray<Float>
    let a3: FixedArray<Float>
    let k: FixedArray<Float>

    init(count: Int) {
        kit = DrumKitTable()
        tonePhase = FixedArray(count, 0 as Float)
        toneEnd = FixedArray(count, 0 as Float)
        toneSweep = FixedArray(count, 0 as Float)
        pitchCoefficient = FixedArray(count, 0 as Float)
        toneLevel = FixedArray(count, 0 as Float)
        toneCoefficient = FixedArray(count, 0 as Float)
        noiseLevel = FixedArray(count, 0 as Float)
        noiseCoefficient = FixedArray(count, 0 as Float)
        seed = FixedArray(count, 1 as UInt32)
        filter = FixedArray(count, 0 as UInt8)
        a1 = FixedArray(count, 0 as Float)
        a2 = FixedArray(count, 0 as Float)
        a3 = FixedArray(count, 0 as Float)
        k = FixedArray(count, 1 as Float)
    }
}
