/// A named sound: the values of every `SynthParameter` but master gain, plus velocity sensitivity.
public struct SynthPatch: Sendable, Hashable {
    public var name: String
    public var waveform: Waveform
    public var attack: Float
    public var decay: Float
    public var sustain: Float
    public var release: Float
    public var cutoff: Float
    public var resonance: Float
    public var filterEnvelopeAmount: Float
    /// 0: every velocity plays at full level; 1: level follows (velocity/127)^2.
    public var velocitySensitivity: Float
    /// Shares of the output sent to the reverb and chorus, 0...1, as a SoundFont zone's generators 16 and
    /// 15: CC91 and CC93 add up to 20 % more (docs/soundfont.md, "Reverb and chorus").
    public var reverbSend: Float = 0
    public var chorusSend: Float = 0

    /// The built-in patches. A program change plays General MIDI program n on the nearest of them
    /// (`generalMIDI(program:)`, also `--program`); `--patch`, presets and the UI choose them by index (and
    /// `--patch` by name).
    public static let builtIn: [SynthPatch] = [
        SynthPatch(name: "sine keys", waveform: .sine, attack: 0.002, decay: 1.2, sustain: 0.6, release: 0.3, cutoff: 20_000, resonance: 0, filterEnvelopeAmount: 0, velocitySensitivity: 0.8),
        SynthPatch(name: "saw lead", waveform: .saw, attack: 0.005, decay: 0.4, sustain: 0.8, release: 0.2, cutoff: 1_800, resonance: 0.35, filterEnvelopeAmount: 2.5, velocitySensitivity: 0.6),
        SynthPatch(name: "square bass", waveform: .square, attack: 0.002, decay: 0.25, sustain: 0.7, release: 0.08, cutoff: 500, resonance: 0.3, filterEnvelopeAmount: 2, velocitySensitivity: 0.7),
        SynthPatch(name: "soft pad", waveform: .triangle, attack: 0.6, decay: 1.5, sustain: 0.8, release: 1.5, cutoff: 2_500, resonance: 0.1, filterEnvelopeAmount: 1, velocitySensitivity: 0.4, reverbSend: 0.3, chorusSend: 0.015),
        SynthPatch(name: "pluck", waveform: .saw, attack: 0.001, decay: 0.35, sustain: 0, release: 0.25, cutoff: 300, resonance: 0.2, filterEnvelopeAmount: 5, velocitySensitivity: 0.9),
        SynthPatch(name: "hollow organ", waveform: .square, attack: 0.01, decay: 0.1, sustain: 1, release: 0.05, cutoff: 4_000, resonance: 0, filterEnvelopeAmount: 0, velocitySensitivity: 0.2),
        // For the General MIDI programs (`generalMIDI`): percussive ones decay to silence (sustain 0), sustained
        // ones hold a level as long as the key is down.
        SynthPatch(name: "piano", waveform: .triangle, attack: 0.002, decay: 6, sustain: 0, release: 0.3, cutoff: 2_500, resonance: 0.1, filterEnvelopeAmount: 2, velocitySensitivity: 0.8),
        SynthPatch(name: "mallet", waveform: .sine, attack: 0.001, decay: 4, sustain: 0, release: 0.2, cutoff: 20_000, resonance: 0, filterEnvelopeAmount: 0, velocitySensitivity: 0.8, reverbSend: 0.2),
        SynthPatch(name: "guitar", waveform: .saw, attack: 0.002, decay: 4, sustain: 0, release: 0.2, cutoff: 900, resonance: 0.15, filterEnvelopeAmount: 3, velocitySensitivity: 0.8, reverbSend: 0.1),
        SynthPatch(name: "strings", waveform: .saw, attack: 0.12, decay: 1, sustain: 0.9, release: 0.4, cutoff: 2_200, resonance: 0.1, filterEnvelopeAmount: 0.5, velocitySensitivity: 0.5, reverbSend: 0.3, chorusSend: 0.01),
        SynthPatch(name: "brass", waveform: .saw, attack: 0.04, decay: 0.5, sustain: 0.85, release: 0.15, cutoff: 1_200, resonance: 0.2, filterEnvelopeAmount: 2, velocitySensitivity: 0.6, reverbSend: 0.15),
        SynthPatch(name: "reed", waveform: .square, attack: 0.02, decay: 0.3, sustain: 0.9, release: 0.1, cutoff: 2_000, resonance: 0.15, filterEnvelopeAmount: 1, velocitySensitivity: 0.5, reverbSend: 0.15),
        SynthPatch(name: "flute", waveform: .triangle, attack: 0.05, decay: 0.3, sustain: 0.9, release: 0.15, cutoff: 5_000, resonance: 0, filterEnvelopeAmount: 0.5, velocitySensitivity: 0.4, reverbSend: 0.2),
    ]

    /// The patch the synth starts with when nothing chooses one (no `--patch`, `--program` or preset): General
    /// MIDI program 0's (6, piano), as after a GM System On and as every GM player starts a file that selects
    /// no program.
    public static var defaultPatch: Int { generalMIDI(program: 0) }

    /// The built-in patch whose name is `name`, in any case, with `-` or `_` for a space ("Sine-Keys": 0).
    public static func index(named name: String) -> Int? {
        let wanted = name.lowercased().map { $0 == "-" || $0 == "_" ? " " : $0 }
        return builtIn.firstIndex { Array($0.name) == wanted }
    }

    /// Every built-in patch with its number: "0 sine keys, 1 saw lead, ..., 12 flute".
    public static var numberedNames: String {
        builtIn.enumerated().map { "\($0.offset) \($0.element.name)" }.joined(separator: ", ")
    }

    /// The built-in patch (index into `builtIn`) that plays General MIDI program `program` (0...127): the
    /// nearest sound of the family, percussive or sustained as the instrument is. docs/builtin-programs.md
    /// lists the same table (a test checks they agree).
    public static func generalMIDI(program: Int) -> Int {
        let p = min(max(program, 0), 127)
        return Int(generalMIDIPatches[p])
    }

    /// A General MIDI program that plays built-in patch `patch`, for a recorder that must select that patch
    /// again: the first program mapped to it, else nil (patches 0 "sine keys" and 3 "soft pad" answer
    /// programs; the others too, see `generalMIDIPatches`).
    public static func program(forPatch patch: Int) -> Int? {
        generalMIDIPatches.firstIndex(of: UInt8(truncatingIfNeeded: patch))
    }

    /// `generalMIDI(program:)`'s table: the patch of each program, in GM's 16 families of eight.
    static let generalMIDIPatches: [UInt8] = {
        let (sineKeys, sawLead, squareBass, softPad, pluck, organ) = (UInt8(0), UInt8(1), UInt8(2), UInt8(3), UInt8(4), UInt8(5))
        let (piano, mallet, guitar, strings, brass, reed, flute) = (UInt8(6), UInt8(7), UInt8(8), UInt8(9), UInt8(10), UInt8(11), UInt8(12))
        return [
            piano, piano, piano, piano, sineKeys, sineKeys, pluck, pluck,                  // 0-7 piano
            mallet, mallet, mallet, mallet, mallet, mallet, mallet, mallet,               // 8-15 chromatic percussion
            organ, organ, organ, organ, organ, reed, reed, reed,                          // 16-23 organ
            guitar, guitar, guitar, guitar, guitar, sawLead, sawLead, guitar,             // 24-31 guitar
            squareBass, squareBass, squareBass, squareBass, squareBass, squareBass, squareBass, squareBass, // 32-39 bass
            strings, strings, strings, strings, strings, pluck, guitar, mallet,           // 40-47 strings
            strings, strings, strings, strings, softPad, softPad, softPad, brass,         // 48-55 ensemble
            brass, brass, brass, brass, brass, brass, brass, brass,                       // 56-63 brass
            reed, reed, reed, reed, reed, reed, reed, reed,                               // 64-71 reed
            flute, flute, flute, flute, flute, flute, flute, flute,                       // 72-79 pipe
            sawLead, sawLead, sawLead, sawLead, sawLead, sawLead, sawLead, sawLead,       // 80-87 synth lead
            softPad, softPad, softPad, softPad, softPad, softPad, softPad, softPad,       // 88-95 synth pad
            softPad, softPad, mallet, softPad, softPad, softPad, softPad, softPad,        // 96-103 synth effects
            guitar, guitar, guitar, guitar, mallet, reed, strings, reed,                  // 104-111 ethnic
            mallet, mallet, mallet, pluck, mallet, mallet, mallet, softPad,               // 112-119 percussive
            pluck, flute, softPad, flute, reed, softPad, softPad, pluck,                  // 120-127 sound effects
        ]
    }()

    /// This patch's value for `parameter` (master gain is not part of a patch: 0 dB).
    public func value(of parameter: SynthParameter) -> Float {
        switch parameter {
        case .waveform: Float(waveform.rawValue)
        case .attack: attack
        case .decay: decay
        case .sustain: sustain
        case .release: release
        case .cutoff: cutoff
        case .resonance: resonance
        case .filterEnvelopeAmount: filterEnvelopeAmount
        case .masterGain: 0
        }
    }
}

/// The built-in patches' values copied out of `SynthPatch.builtIn` into memory this table owns, so a
/// program change on the real-time thread touches no Swift array.
struct PatchTable: ~Copyable {
    struct Values: BitwiseCopyable {
        var values: (Float, Float, Float, Float, Float, Float, Float, Float)
        var velocitySensitivity: Float
        var reverbSend: Float
        var chorusSend: Float
    }

    let values: FixedArray<Values>
    let count: Int
    /// 128 entries: the patch of each General MIDI program (`SynthPatch.generalMIDI(program:)`).
    let programs: FixedArray<UInt8>

    init(_ patches: [SynthPatch]) {
        count = patches.count
        values = FixedArray(count: patches.count) { i in
            let p = patches[i]
            return Values(values: (Float(p.waveform.rawValue), p.attack, p.decay, p.sustain, p.release,
                                   p.cutoff, p.resonance, p.filterEnvelopeAmount),
                          velocitySensitivity: p.velocitySensitivity, reverbSend: p.reverbSend,
                          chorusSend: p.chorusSend)
        }
        programs = FixedArray(count: 128) { SynthPatch.generalMIDIPatches[$0] }
    }
}
