import DSP
import Engine
import Foundation
import MIDI
import TextOutput
import TOML

/// The built-in synth's settings, as the synth panel edits them: the patch (its program number, which also
/// sets the velocity sensitivity) and every `SynthParameter`. Saved as a TOML file:
///
///     patch = 1                # 0...12: the built-in patch
///     waveform = "saw"         # sine, triangle, saw, square
///     attack = 0.005           # seconds
///     cutoff = 1800.0          # Hz
///     master_gain = -3.0       # dB
///     reverb_level = 0.9       # the send effects (both synths): 0...1
///     room_size = 0.2          # 0...1, RT60 = 0.3 s + 5 s x room size
///     chorus_level = 2.0       # 0...10
///     interpolation = "sinc"   # optional: the sample voices' interpolation, "cubic" or "sinc"
///     soundfont = ["FluidR3_GM.sf2", "FluidR3_GS.sf2"]  # optional: SoundFonts to start with, stacked
///     instruments = ["2=piano.sfz"]  # optional: SFZ instruments to start with, as --instrument
///
/// Every key is optional: one left out takes the patch's value (master gain: 0 dB; an effect setting: its
/// default, FluidSynth's). The parameters are the patch's: the synth applies them to `currentPatch`, the
/// patch chosen last (each channel plays the patch of its own last program change; master gain is the whole
/// synth's). The effects' on/off switches are not a preset's: `--no-reverb`, `--no-chorus` and
/// the config's `reverb`, `chorus` keys.
public struct SynthPreset: Equatable, Sendable {
    /// Index into `SynthPatch.builtIn`.
    public var patch: Int
    /// By `SynthParameter.rawValue`.
    public var values: [Float]
    /// SoundFonts to play instead of the built-in patches (stacked, the later on top), or nil. Taken at start
    /// (`--preset`), where `--soundfont` overrides them; a preset loaded while Backbeat runs keeps the fonts
    /// it started with.
    public var soundFonts: [String]?
    /// SFZ instruments to start with ("FILE.sfz" or "CH=FILE.sfz", as `--instrument`), or nil; taken at start as
    /// `soundFonts` are, where `--instrument` overrides them.
    public var instruments: [String]?
    /// The send effects' settings, by `EffectParameter.rawValue` (only `effectParameters` are a preset's).
    public var effects: [Float] = EffectParameter.allCases.map(\.defaultValue)
    /// The channel mixer's settings (PresetMixer.swift); nil: the preset leaves the mixer as it is.
    public var mixer: PresetMixer?
    /// The sample voices' interpolation (`interpolation = "sinc"`); nil: the preset leaves it as it is.
    public var interpolation: SampleInterpolation?

    public init(patch: Int, values: [Float]) {
        self.patch = patch
        self.values = SynthParameter.allCases.map { $0.rawValue < values.count ? values[$0.rawValue] : $0.defaultValue }
    }

    /// The patch as it is, master gain 0 dB.
    public init(patch: Int) {
        let p = SynthPatch.builtIn[max(0, min(patch, SynthPatch.builtIn.count - 1))]
        self.init(patch: patch, values: SynthParameter.allCases.map { p.value(of: $0) })
    }

    /// What the synth panel shows.
    public init(_ view: SynthView) {
        self.init(patch: view.patch, values: view.values)
        for p in Self.effectParameters { effects[p.rawValue] = view.value(p) }
        // Only a font's voices interpolate: a preset saved without one leaves the setting as it is.
        interpolation = view.soundFont == nil ? nil : view.interpolation
    }

    public func value(_ p: SynthParameter) -> Float { values[p.rawValue] }
    public func value(_ p: EffectParameter) -> Float { effects[p.rawValue] }

    /// The effect settings a preset holds: every one but the on/off switches.
    public static let effectParameters: [EffectParameter] = EffectParameter.allCases.filter { $0 != .reverbOn && $0 != .chorusOn }

    /// The file's key for an effect setting.
    public static func key(_ p: EffectParameter) -> String {
        switch p {
        case .roomSize: "room_size"
        default: p.name.replacingOccurrences(of: " ", with: "_")  // reverb_level, reverb_damping, chorus_voices...
        }
    }

    static func accepted(_ p: EffectParameter) -> String {
        let r = p.range
        let unit = switch p {
        case .chorusRate: " Hz"
        case .chorusDepth: " ms"
        case .chorusVoices: " (a whole number)"
        case .roomSize: " (RT60 = 0.3 s + 5 s x room size)"
        default: ""
        }
        return "a number in \(String(format: "%g", Double(r.lowerBound)))...\(String(format: "%g", Double(r.upperBound)))\(unit)"
    }

    /// The file's key for a parameter.
    public static func key(_ p: SynthParameter) -> String {
        switch p {
        case .filterEnvelopeAmount: "filter_envelope"
        case .masterGain: "master_gain"
        default: p.name
        }
    }

    public static var keys: [String] {
        ["patch"] + SynthParameter.allCases.map(key) + effectParameters.map { key($0) } + ["interpolation", "soundfont", "instruments"] + PresetMixer.keys
    }

    /// The accepted values of `p`, as an error message or a comment says them.
    static func accepted(_ p: SynthParameter) -> String {
        if p == .waveform { return "one of " + Waveform.allCases.map { "\"\($0)\"" }.joined(separator: ", ") }
        let r = p.range
        let unit = p == .filterEnvelopeAmount ? " octaves" : p.unit == "s" ? " seconds" : p.unit.isEmpty ? "" : " " + p.unit
        return "a number in \(String(format: "%g", Double(r.lowerBound)))...\(String(format: "%g", Double(r.upperBound)))\(unit)"
    }

    static var patchesText: String {
        SynthPatch.builtIn.enumerated().map { "\($0.offset) \($0.element.name)" }.joined(separator: ", ")
    }

    // MARK: - File

    public static func load(path: String) throws(ConfigFileError) -> SynthPreset {
        try parse(try TOMLFile.read(path: path, what: "a preset"), file: path)
    }

    /// Reads a preset; an unknown key, a wrong type or a value out of range is an error naming the file, the
    /// line and what is accepted.
    public static func parse(_ text: String, file: String) throws(ConfigFileError) -> SynthPreset {
        let root = try TOMLFile.parse(text, file: file)
        let lines = KeyLines(root)
        func fail(_ key: String, _ message: String) -> ConfigFileError {
            ConfigFileError(file: file, line: lines.line(key), message: message)
        }
        for key in root.keys.sorted(by: { lines.line($0) < lines.line($1) }) where !keys.contains(key) {
            throw fail(key, "unknown key \"\(TerminalText.sanitized(key))\"; a preset has: \(keys.joined(separator: ", "))")
        }
        var patch = 0
        if let v = root["patch"] {
            guard let n = v.int, SynthPatch.builtIn.indices.contains(n) else {
                throw fail("patch", "\"patch\" must be a built-in patch number 0...\(SynthPatch.builtIn.count - 1) (\(patchesText)); got \(v.debugDescription)")
            }
            patch = n
        }
        var preset = SynthPreset(patch: patch)
        for p in SynthParameter.allCases {
            let key = key(p)
            guard let v = root[key] else { continue }
            if p == .waveform {
                guard let s = v.string, let w = Waveform.allCases.first(where: { $0.description == s }) else {
                    throw fail(key, "\"waveform\" must be \(accepted(p)); got \(v.debugDescription)")
                }
                preset.values[p.rawValue] = Float(w.rawValue)
                continue
            }
            guard let x = v.double ?? v.int.map(Double.init), p.range.contains(Float(x)) else {
                throw fail(key, "\"\(key)\" must be \(accepted(p)); got \(v.debugDescription)")
            }
            preset.values[p.rawValue] = Float(x)
        }
        for p in effectParameters {
            let key = key(p)
            guard let v = root[key] else { continue }
            guard let x = v.double ?? v.int.map(Double.init), p.range.contains(Float(x)),
                  p != .chorusVoices || x == x.rounded() else {
                throw fail(key, "\"\(key)\" must be \(accepted(p)); got \(v.debugDescription)")
            }
            preset.effects[p.rawValue] = Float(x)
        }
        if let v = root["interpolation"] {
            guard let mode = v.string.flatMap(SampleInterpolation.init(name:)) else {
                throw fail("interpolation", "\"interpolation\" must be one of \(SampleInterpolation.names); got \(v.debugDescription)")
            }
            preset.interpolation = mode
        }
        if let v = root["soundfont"] {
            // One font, or a stack (the later on top), as the config file's `soundfont`.
            let problem = "\"soundfont\" must be a file name or an array of file names (stacked, the later on top); got \(v.debugDescription)"
            let list = v.string.map { [$0] } ?? v.array?.compactMap(\.string)
            guard let list, !list.isEmpty, list.count == (v.array?.count ?? 1), !list.contains(where: \.isEmpty) else {
                throw fail("soundfont", problem)
            }
            preset.soundFonts = list
        }
        if let v = root["instruments"] {
            switch InstrumentSetting.parse(v) {
            case .success(let list): preset.instruments = list
            case .failure(let problem): throw fail("instruments", problem.message)
            }
        }
        preset.mixer = try PresetMixer.parse(root, fail: fail)
        return preset
    }

    /// The preset as a file, every key written, each value read back exactly.
    public var toml: String {
        var out = "# Backbeat synth preset: the built-in synth's patch and settings. A key left out takes the\n"
        out += "# patch's value (master_gain: 0 dB).\n"
        out += "patch = \(patch)".padding(toLength: 28, withPad: " ", startingAt: 0) + "# \(Self.patchesText)\n"
        for p in SynthParameter.allCases {
            let v = value(p)
            let text = p == .waveform ? "\"\(Waveform(rawValue: Int(v.rounded())) ?? .sine)\"" : Self.number(v)
            out += "\(Self.key(p)) = \(text)".padding(toLength: 28, withPad: " ", startingAt: 0) + "# \(Self.accepted(p))\n"
        }
        out += "# The send effects (both synths); their on/off switches are --no-reverb, --no-chorus and the config's.\n"
        for p in Self.effectParameters {
            out += "\(Self.key(p)) = \(Self.number(value(p)))".padding(toLength: 28, withPad: " ", startingAt: 0) + "# \(Self.accepted(p))\n"
        }
        if let interpolation {
            out += "interpolation = \"\(interpolation)\"".padding(toLength: 28, withPad: " ", startingAt: 0)
                + "# the sample voices': \(SampleInterpolation.names)\n"
        }
        if let soundFonts {
            out += "soundfont = " + TOMLValue.array(soundFonts.map { .string($0) }).debugDescription + "  # SoundFonts at start, the later on top\n"
        }
        if let instruments {
            out += "instruments = " + TOMLValue.array(instruments.map { .string($0) }).debugDescription + "  # SFZ instruments at start, as --instrument\n"
        }
        if let mixer { out += mixer.toml }
        return out
    }

    /// The shortest decimal that reads back as `v` (through the TOML reader's Double), always with a point.
    static func number(_ v: Float) -> String {
        var text = "\(v)"
        if Double(text).map(Float.init) != v { text = "\(Double(v))" }
        if !text.contains(".") && !text.contains("e") && !text.contains("n") && !text.contains("i") { text += ".0" }
        return text
    }

    // MARK: - Applying

    /// What the workstation sends to load the preset: the program change (on `channel`, 0...15: the first GM
    /// program that selects the patch, docs/builtin-programs.md), then every parameter, which the callback
    /// applies in that order at the start of one period.
    public func controlEvents(channel: UInt8) -> [ControlEvent] {
        [.midi(ShortMessage.programChange(UInt8(SynthPatch.program(forPatch: patch) ?? 0), channel: channel), .keyboard)]
            + SynthParameter.allCases.map { .parameter(index: UInt8($0.rawValue), value: value($0)) }
    }

    /// At start, before the engine runs: the synth is made with the preset's patch (`EngineOptions.patch`),
    /// then `apply(to:)` sets every parameter.
    public func apply(to synth: Synth) {
        for p in SynthParameter.allCases { synth.setParameter(p, value(p)) }
        for p in Self.effectParameters { synth.setEffect(p, value(p)) }
        if let interpolation { synth.setInterpolation(interpolation) }
    }

    /// At start (`--preset`, an NSM session's synth.toml): the synth's settings, and the channel mixer's when
    /// the preset has them.
    public func apply(to engine: Engine) {
        apply(to: engine.synth)
        if let mixer { engine.setChannelMixer(mixer.settings) }
    }
}

extension EngineOptions {
    /// These options with the preset's patch (nil: unchanged).
    public func applying(_ preset: SynthPreset?) -> EngineOptions {
        var o = self
        if let preset { o.patch = preset.patch }
        return o
    }
}
