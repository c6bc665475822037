import DSP
import Engine

/// The synth's settings as read from its atomics: what the synth panel shows each frame and what a preset
/// or an NSM session saves (`SynthPreset.init(_:)`).
public struct SynthView: Equatable, Sendable {
    public var patch: Int
    public var values: [Float]  // by SynthParameter.rawValue
    public var voicesInUse: Int
    public var voiceCapacity: Int
    /// With a SoundFont: its name, and the preset of the keyboard's channel as "bank:program name" ("none"
    /// when no preset answers the channel). Nil without a font (the built-in patches).
    public var soundFont: String?
    public var preset: String?
    /// With a SoundFont: the keyboard channel's sound controllers as last delivered (CC number -> value).
    public var soundControllers: [Int: UInt8] = [:]
    /// With a stack of fonts: the file name of the font the preset came from.
    public var presetFont: String?
    /// The send effects' settings, by `EffectParameter.rawValue` (empty: their defaults).
    public var effects: [Float] = []
    /// The sample voices' interpolation.
    public var interpolation = SampleInterpolation.cubic
    public init(patch: Int, values: [Float], voicesInUse: Int, voiceCapacity: Int, soundFont: String? = nil,
                preset: String? = nil) {
        self.patch = patch; self.values = values; self.voicesInUse = voicesInUse; self.voiceCapacity = voiceCapacity
        self.soundFont = soundFont; self.preset = preset
    }
    public func value(_ p: SynthParameter) -> Float { p.rawValue < values.count ? values[p.rawValue] : p.defaultValue }
    public func value(_ p: EffectParameter) -> Float { p.rawValue < effects.count ? effects[p.rawValue] : p.defaultValue }
    public mutating func set(_ p: EffectParameter, _ v: Float) {
        if effects.count < EffectParameter.allCases.count { effects = EffectParameter.allCases.map { value($0) } }
        effects[p.rawValue] = v
    }
}

extension Engine {
    /// The running synth's settings (the built-in patch's; `WorkstationEngine.synthView(channel:)` adds a
    /// font's preset).
    public func synthView() -> SynthView {
        var view = SynthView(patch: synth.currentPatch, values: SynthParameter.allCases.map { synth.value(of: $0) },
                             voicesInUse: synth.activeVoiceCount, voiceCapacity: synth.voiceCapacity)
        view.effects = EffectParameter.allCases.map { synth.value(of: $0) }
        view.interpolation = synth.interpolation
        return view
    }
}
