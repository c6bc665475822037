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

    /// The built-in patches: the 13 named ones (0-12), then one for each General MIDI program (13-140,
    /// `generalMIDI(program:)`, also `--program`). `--patch`, presets and the UI choose them by index (and
    /// `--patch` by name).
    public static let builtIn: [SynthPatch] = namedPatches + generalMIDIPatchTable

    /// The patches that were the synth's whole set before each program had its own: `--patch 0...12` and
    /// presets saved then still choose them.
    static let namedPatches: [SynthPatch] = [
        SynthPatch(name: "sine keys", waveform: .sine, attack: 0.002, decay: 1.2, sustain: 0.6, release: 0.3, cutoff: 20_000, resonance: 0, filterEnvelopeAmount: 0, velocitySensitivity: 0.8),
        SynthPatch(name: "saw lead", waveform: .saw, attack: 0.005, decay: 0.4, sustain: 0.8, release: 0.2, cutoff: 1_800, resonance: 0.35, filterEnvelopeAmount: 2.5, velocitySensitivity: 0.6),
        SynthPatch(name: "square bass", waveform: .square, attack: 0.002, decay: 0.25, sustain: 0.7, release: 0.08, cutoff: 500, resonance: 0.3, filterEnvelopeAmount: 2, velocitySensitivity: 0.7),
        SynthPatch(name: "soft pad", waveform: .triangle, attack: 0.6, decay: 1.5, sustain: 0.8, release: 1.5, cutoff: 2_500, resonance: 0.1, filterEnvelopeAmount: 1, velocitySensitivity: 0.4, reverbSend: 0.3, chorusSend: 0.015),
        SynthPatch(name: "pluck", waveform: .saw, attack: 0.001, decay: 0.35, sustain: 0, release: 0.25, cutoff: 300, resonance: 0.2, filterEnvelopeAmount: 5, velocitySensitivity: 0.9),
        SynthPatch(name: "hollow organ", waveform: .square, attack: 0.01, decay: 0.1, sustain: 1, release: 0.05, cutoff: 4_000, resonance: 0, filterEnvelopeAmount: 0, velocitySensitivity: 0.2),
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

    /// The built-in patch whose name is `name`, in any case, with `-` or `_` for a space ("Sine-Keys": 0,
    /// "honky tonk piano": 16).
    public static func index(named name: String) -> Int? {
        func key(_ text: String) -> [Character] { text.lowercased().map { $0 == "-" || $0 == "_" ? " " : $0 } }
        let wanted = key(name)
        return builtIn.firstIndex { key($0.name) == wanted }
    }

    /// The named built-in patches with their numbers, then the range of the programs' own: "0 sine keys, 1 saw
    /// lead, ..., 12 flute; 13-140 the General MIDI programs 0-127 by name".
    public static var numberedNames: String {
        namedPatches.enumerated().map { "\($0.offset) \($0.element.name)" }.joined(separator: ", ")
            + "; \(firstGeneralMIDI)-\(builtIn.count - 1) the General MIDI programs 0-127 by name"
    }

    /// The built-in patch (index into `builtIn`) that plays General MIDI program `program` (0...127): the
    /// program's own. docs/builtin-programs.md lists the same table (a test checks they agree).
    public static func generalMIDI(program: Int) -> Int {
        firstGeneralMIDI + min(max(program, 0), 127)
    }

    /// A General MIDI program that plays built-in patch `patch`, for a recorder that must select that patch
    /// again: a program's own patch gives its program; a named patch the first program whose patch sounds the
    /// same (6 "piano": 0), else the first program it served before the programs had their own (0 "sine
    /// keys": 4, electric piano 1), a sound of the same family.
    public static func program(forPatch patch: Int) -> Int? {
        guard patch >= 0 && patch < builtIn.count else { return nil }
        if patch >= firstGeneralMIDI { return patch - firstGeneralMIDI }
        if let same = generalMIDIPatchTable.firstIndex(where: { $0.soundsAs(builtIn[patch]) }) { return same }
        return [4, 29, 32, 52, 6, 16, 0, 8, 24, 40, 55, 21, 72][patch]
    }

    /// Whether two patches have the same values (their names aside).
    func soundsAs(_ other: SynthPatch) -> Bool {
        var renamed = other
        renamed.name = name
        return self == renamed
    }

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
        programs = FixedArray(count: 128) { UInt8(SynthPatch.generalMIDI(program: $0)) }
    }
}
