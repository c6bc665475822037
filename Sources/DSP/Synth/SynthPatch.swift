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

    /// The built-in patches, chosen by program change (program n plays patch n modulo the count).
    public static let builtIn: [SynthPatch] = [
        SynthPatch(name: "sine keys", waveform: .sine, attack: 0.002, decay: 1.2, sustain: 0.6, release: 0.3, cutoff: 20_000, resonance: 0, filterEnvelopeAmount: 0, velocitySensitivity: 0.8),
        SynthPatch(name: "saw lead", waveform: .saw, attack: 0.005, decay: 0.4, sustain: 0.8, release: 0.2, cutoff: 1_800, resonance: 0.35, filterEnvelopeAmount: 2.5, velocitySensitivity: 0.6),
        SynthPatch(name: "square bass", waveform: .square, attack: 0.002, decay: 0.25, sustain: 0.7, release: 0.08, cutoff: 500, resonance: 0.3, filterEnvelopeAmount: 2, velocitySensitivity: 0.7),
        SynthPatch(name: "soft pad", waveform: .triangle, attack: 0.6, decay: 1.5, sustain: 0.8, release: 1.5, cutoff: 2_500, resonance: 0.1, filterEnvelopeAmount: 1, velocitySensitivity: 0.4, reverbSend: 0.3, chorusSend: 0.15),
        SynthPatch(name: "pluck", waveform: .saw, attack: 0.001, decay: 0.35, sustain: 0, release: 0.25, cutoff: 300, resonance: 0.2, filterEnvelopeAmount: 5, velocitySensitivity: 0.9),
        SynthPatch(name: "hollow organ", waveform: .square, attack: 0.01, decay: 0.1, sustain: 1, release: 0.05, cutoff: 4_000, resonance: 0, filterEnvelopeAmount: 0, velocitySensitivity: 0.2),
    ]

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

    let values: UnsafeMutablePointer<Values>
    let count: Int
    private let store: ArrayStore

    init(_ patches: [SynthPatch]) {
        count = patches.count
        var store = ArrayStore()
        values = store.make(patches.count) { i in
            let p = patches[i]
            return Values(values: (Float(p.waveform.rawValue), p.attack, p.decay, p.sustain, p.release,
                                   p.cutoff, p.resonance, p.filterEnvelopeAmount),
                          velocitySensitivity: p.velocitySensitivity, reverbSend: p.reverbSend,
                          chorusSend: p.chorusSend)
        }
        self.store = store
    }
}
