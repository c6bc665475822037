import Bench
import DSP
import Foundation

extension Bench {
    /// Issue 22's rows: a SoundFont render with the send effects on against FluidSynth with its own on (both
    /// at their defaults, the file's CC91/CC93 at 64), the buses' own cost per period, and a silent period's
    /// cost with the effects on against a dry synth's.
    func effectsRows(backbeat: String) throws -> [Row] {
        var rows: [Row] = []
        if let path = SoundFontBenchmark.font {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let run = try SoundFontBenchmark.render(backbeat: backbeat, font: path, notes: 256, seconds: seconds, effects: true)
            let ratio = run.backbeat.flatMap { ours in run.fluidsynth.map { $0 / max(ours, 1e-9) } }
            rows.append(Row(metric: "SoundFont render CPU s, 256-note piano chord \(seconds) s with reverb and chorus on (CC91/93 64), \(name), least of 3 (vs fluidsynth -F, its effects on)",
                            backbeat: run.backbeat.map { String(format: "%.3f", $0) } ?? "n/a (\(run.backbeatError ?? "failed"))",
                            reference: run.fluidsynth.map { String(format: "%.3f (%d voices)", $0, run.fluidsynthVoices ?? 0) } ?? "n/a",
                            ratio: ratio.map { String(format: "%.1fx less", $0) } ?? "n/a", target: ">= 3x", pass: ratio.map { $0 >= 3 }))
        } else {
            rows.append(Row(metric: "SoundFont render with effects", backbeat: "n/a (no font in /usr/share/sounds/sf2)", reference: "-", ratio: "-", target: "-", pass: nil))
        }
        for frames in [64, 256] {
            let cost = EffectCost.nanosecondsPerPeriod(frames: frames)
            let period = Double(frames) / 48_000 * 1e9
            rows.append(Row(metric: "reverb + chorus own cost per \(frames)-frame period at 48 kHz (reverb / chorus), least of 5",
                            backbeat: String(format: "%.1f us (%.1f / %.1f), %.2f %% of the period", (cost.reverb + cost.chorus) / 1000,
                                             cost.reverb / 1000, cost.chorus / 1000, (cost.reverb + cost.chorus) / period * 100),
                            reference: "-", ratio: "-", target: "-", pass: nil))
        }
        for frames in [64, 256] {
            let silent = EffectsBenchmark.silentPeriod(frames: frames)
            rows.append(Row(metric: "a silent \(frames)-frame period after the tails, effects on (vs the same synth dry), medians of \(silent.runs) interleaved runs",
                            backbeat: String(format: "%.0f ns", silent.effects), reference: String(format: "%.0f ns", silent.dry),
                            ratio: String(format: "%+.1f %%", silent.change * 100), target: "within 5 %", pass: abs(silent.change) <= 0.05))
        }
        let long = EffectsBenchmark.longSilence(hours: 2, frames: 64)
        let state = long.state.isClean && long.silentOutput
            ? "state clean" : "\(long.state.nonFinite) NaN/inf, \(long.state.subnormal) subnormal\(long.silentOutput ? "" : ", output not silent")"
        rows.append(Row(metric: "a 64-frame period of silence after 2 h of silence (a note with sends full before it), effects on (vs the same synth dry; a second synth dry all along), medians of \(long.cost.runs) interleaved minutes",
                        backbeat: String(format: "%.0f ns, ", long.cost.effects) + state,
                        reference: String(format: "%.0f ns (%.0f ns)", long.cost.dry, long.separateDry),
                        ratio: String(format: "%+.1f %%", long.cost.change * 100), target: "within 5 %, no NaN/subnormal",
                        pass: abs(long.cost.change) <= 0.05 && long.state.isClean && long.silentOutput))
        return rows
    }
}
