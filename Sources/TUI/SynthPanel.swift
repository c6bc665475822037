import DSP
import MIDI
import Foundation
import Settings

/// A send effect setting the synth panel edits, for both synths: it changes the running reverb or chorus at
/// once (`Synth.setEffect`, an atomic the real-time thread reads at its next slice).
public enum EffectRow: Int, CaseIterable, Sendable {
    case reverbLevel, roomSize, chorusLevel

    public var parameter: EffectParameter {
        switch self {
        case .reverbLevel: .reverbLevel
        case .roomSize: .roomSize
        case .chorusLevel: .chorusLevel
        }
    }

    public var name: String {
        switch self {
        case .reverbLevel: "reverb"
        case .roomSize: "room size"
        case .chorusLevel: "chorus"
        }
    }

    /// The bus this row's setting belongs to (its on/off switch).
    public var bus: EffectParameter { self == .chorusLevel ? .chorusOn : .reverbOn }

    /// "0.90", "RT60 1.30 s" (room size 0.2), "2.00".
    public func format(_ v: Float) -> String {
        switch self {
        case .reverbLevel, .chorusLevel: String(format: "%.2f", v)
        case .roomSize: String(format: "RT60 %.2f s", ReverbSettings.decayTime(roomSize: v))
        }
    }

    /// Steps per unit: 0.05 of the reverb level, 0.02 of room size (0.1 s of RT60), 0.25 of the chorus level.
    public var stepsPerUnit: Double {
        switch self {
        case .reverbLevel: 20
        case .roomSize: 50
        case .chorusLevel: 4
        }
    }

    /// The value `steps` steps from `v`, in range, on the steps' grid (0.28, not 0.28000003 after 4 steps).
    public func step(_ v: Float, by steps: Int) -> Float {
        let r = parameter.range
        let x = Float(((Double(v) * stepsPerUnit).rounded() + Double(steps)) / stepsPerUnit)
        return min(max(x, r.lowerBound), r.upperBound)
    }
}

/// A GM2 sound controller the synth panel edits when a SoundFont plays: its raw value is its index in
/// `DSP.SoundControllers`.
public enum SoundControllerRow: Int, CaseIterable, Sendable {
    case cutoff, resonance, attack, decay, release

    public var controller: Int { Int(SoundControllers.entry(rawValue).controller.rawValue) }

    public var name: String {
        switch self {
        case .cutoff: "cutoff"
        case .resonance: "resonance"
        case .attack: "attack"
        case .decay: "decay"
        case .release: "release"
        }
    }

    /// What `value` does to the font's own setting: "+0.0 oct", "+4.1 dB", "x2.00".
    public func effect(_ value: UInt8) -> String {
        let offset = SoundControllers.offset(value) * SoundControllers.entry(rawValue).amount
        switch self {
        case .cutoff: return String(format: "%+.1f oct", offset / 1200)
        case .resonance: return String(format: "%+.1f dB", offset / 10)
        case .attack, .decay, .release: return String(format: "x%.2f", pow(2, offset / 1200))
        }
    }
}

/// The rows of the synth panel: the patch, then every parameter, then polyphony (read only). With a
/// SoundFont only what acts on its voices: the preset, the sound controllers, master gain, the sample voices'
/// interpolation, polyphony.
public enum SynthRow: Equatable, Sendable {
    case patch
    case parameter(SynthParameter)
    case soundController(SoundControllerRow)
    case effect(EffectRow)
    /// The sample voices' interpolation (`Synth.setInterpolation`): cubic or sinc, switched live.
    case interpolation
    case polyphony

    public static let effects: [SynthRow] = EffectRow.allCases.map { .effect($0) }
    public static let all: [SynthRow] = [.patch] + SynthParameter.allCases.map { .parameter($0) } + effects + [.polyphony]
    public static let soundFont: [SynthRow] = [.patch] + SoundControllerRow.allCases.map { .soundController($0) }
        + [.parameter(.masterGain)] + effects + [.interpolation, .polyphony]
    public static func rows(soundFont: Bool) -> [SynthRow] { soundFont ? Self.soundFont : all }
    public var isEditable: Bool { self != .polyphony }
}

/// Patch, waveform, envelope, filter, gain and polyphony; one row selected for editing.
public enum SynthPanel {
    public static func format(_ p: SynthParameter, _ v: Float) -> String {
        switch p {
        case .waveform: return Waveform(rawValue: Int(v.rounded()))?.description ?? "?"
        case .attack, .decay, .release: return v < 1 ? String(format: "%.0f ms", v * 1000) : String(format: "%.2f s", v)
        case .cutoff: return v < 1000 ? String(format: "%.0f Hz", v) : String(format: "%.2f kHz", v / 1000)
        case .sustain, .resonance: return String(format: "%.2f", v)
        case .filterEnvelopeAmount: return String(format: "%.2f oct", v)
        case .masterGain: return String(format: "%+.1f dB", v)
        }
    }

    /// Position of `v` in the parameter's range, 0...1 (logarithmic for times and cutoff).
    public static func position(_ p: SynthParameter, _ v: Float) -> Float {
        let r = p.range
        switch p {
        case .attack, .decay, .release, .cutoff:
            let lo = max(r.lowerBound, p == .cutoff ? 20 : 0.001)
            return (log(max(v, lo)) - log(lo)) / max(1e-6, log(r.upperBound) - log(lo))
        default:
            return (v - r.lowerBound) / max(1e-6, r.upperBound - r.lowerBound)
        }
    }

    /// The value one step from `v` (`steps` may be negative; big steps are several).
    public static func step(_ p: SynthParameter, _ v: Float, by steps: Int) -> Float {
        let r = p.range
        var x = v
        for _ in 0..<abs(steps) {
            let up = steps > 0
            switch p {
            case .waveform:
                let n = Float(Waveform.allCases.count)
                x = (x + (up ? 1 : -1) + n).truncatingRemainder(dividingBy: n)
            case .attack, .decay, .release:
                x = up ? max(x * 1.25, 0.001) : (x / 1.25 < 0.001 ? r.lowerBound : x / 1.25)
            case .cutoff: x = up ? x * pow(2, 1.0 / 6) : x / pow(2, 1.0 / 6)
            case .sustain, .resonance: x += up ? 0.05 : -0.05
            case .filterEnvelopeAmount: x += up ? 0.25 : -0.25
            case .masterGain: x += up ? 1 : -1
            }
            x = min(max(x, r.lowerBound), r.upperBound)
        }
        return x
    }

    public static func draw(_ view: SynthView, selected: Int, into grid: inout Grid, rect: Rect, context: DrawContext) {
        context.frame(&grid, rect, view.soundFont.map { "\(PanelID.synth.title): \($0)" } ?? PanelID.synth.title)
        let inner = rect.inset(1)
        guard inner.height >= 1, inner.width >= 20 else { return }
        let rows = SynthRow.rows(soundFont: view.soundFont != nil)
        // Scroll so the selected row stays visible in short panels.
        let first = max(0, min(selected - inner.height + 1, rows.count - inner.height))
        let barWidth = max(0, min(16, inner.width - 32))
        for (i, row) in rows.enumerated().dropFirst(first).prefix(inner.height) {
            let y = inner.y + i - first
            let isSelected = i == selected && context.focused
            let marker = i == selected ? String(context.glyphs.selection) : " "
            let name: String, value: String
            var fraction: Float?
            switch row {
            case .patch where view.soundFont != nil:
                // The keyboard channel's SoundFont preset, as wide as the row allows (no bar on this row).
                name = "preset"
                let text = (view.preset ?? "none") + (view.presetFont.map { " · \($0)" } ?? "")
                let x = grid.put(inner.x, y, marker + " " + name.fitted(12), isSelected ? .selected : .normal)
                grid.put(x, y, text.fitted(max(16, inner.x + inner.width - x)), isSelected ? .selected : .title)
                continue
            case .patch:
                name = "patch"
                let patches = SynthPatch.builtIn
                value = "\(view.patch) \(patches[max(0, min(view.patch, patches.count - 1))].name)"
            case .soundController(let c):
                let v = view.soundControllers[c.controller] ?? 64
                name = c.name
                value = "\(v) \(c.effect(v))"
                fraction = Float(v) / 127
            case .parameter(let p):
                name = p.name
                value = format(p, view.value(p))
                fraction = p == .waveform ? nil : position(p, view.value(p))
            case .effect(let e):
                name = e.name
                let v = view.value(e.parameter), r = e.parameter.range
                // A bus switched off (--no-reverb, --no-chorus, the config) keeps its setting but plays nothing.
                value = view.value(e.bus) >= 0.5 ? e.format(v) : e.format(v) + " off"
                fraction = (v - r.lowerBound) / (r.upperBound - r.lowerBound)
            case .interpolation:
                name = "interpolation"
                value = view.interpolation == .sinc ? "sinc (32+ points)" : "cubic (4 points)"
            case .polyphony:
                name = "polyphony"
                value = "\(view.voicesInUse)/\(view.voiceCapacity) voices"
                fraction = view.voiceCapacity > 0 ? Float(view.voicesInUse) / Float(view.voiceCapacity) : 0
            }
            var x = grid.put(inner.x, y, marker + " " + name.fitted(12), isSelected ? .selected : (row.isEditable ? .normal : .dim))
            x = grid.put(x, y, value.fitted(16), isSelected ? .selected : .title)
            if let fraction, barWidth > 0 {
                let lit = Int((min(max(fraction, 0), 1) * Float(barWidth)).rounded())
                for c in 0..<barWidth {
                    grid.set(x + 1 + c, y, c < lit ? context.glyphs.barFull : context.glyphs.barEmpty, c < lit ? .meterLow : .meterTrack)
                }
            }
        }
    }
}
