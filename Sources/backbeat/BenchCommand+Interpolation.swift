import Bench
import DSP
import Foundation

extension Bench {
    /// The sample voices' sinc interpolation's cost (issue 40): render cost per voice-sample of a held 256-note
    /// piano chord with `--interpolation sinc`, on the synth's own voice loop path and forced onto each one this
    /// CPU runs, above a 1-note render of the same length, beside FluidSynth's default 4th order (target: below
    /// it) and its 7th order on the same chord; and Backbeat's cubic for scale.
    func interpolationRows(backbeat: String) throws -> [Row] {
        guard let path = SoundFontBenchmark.font, let font = try? SoundFontFile.load(path) else {
            return [Row(metric: "sample voices' interpolation cost", backbeat: "n/a (no font in /usr/share/sounds/sf2)",
                        reference: "-", ratio: "-", target: "-", pass: nil)]
        }
        let name = URL(fileURLWithPath: path).lastPathComponent, notes = 256
        let samples = seconds * 48_000
        let voices = SoundFontBenchmark.backbeatVoices(font: font, notes: notes)
        let oneVoices = SoundFontBenchmark.backbeatVoices(font: font, notes: 1)
        /// ns per voice-sample of `run` above `one`, from either side's CPU seconds and voices.
        func perVoiceSample(_ all: Double?, _ base: Double?, _ v: Int?, _ v1: Int?) -> Double? {
            guard let all, let base, let v, let v1, v > v1 else { return nil }
            return (all - base) / (Double(v - v1) * samples) * 1e9
        }
        var theirs: [Int: (ns: Double, cpu: Double, voices: Int)] = [:]
        for order in [4, 7] {
            let one = try SoundFontBenchmark.render(backbeat: backbeat, font: path, notes: 1, seconds: seconds, fluidsynthOrder: order)
            let run = try SoundFontBenchmark.render(backbeat: backbeat, font: path, notes: notes, seconds: seconds, fluidsynthOrder: order)
            if let ns = perVoiceSample(run.fluidsynth, one.fluidsynth, run.fluidsynthVoices, one.fluidsynthVoices) {
                theirs[order] = (ns, run.fluidsynth ?? 0, run.fluidsynthVoices ?? 0)
            }
        }
        let reference = [4, 7].map { order in
            theirs[order].map { String(format: "%dth order %.1f (%.3f s, %d voices)", order, $0.ns, $0.cpu, $0.voices) } ?? "\(order)th order n/a"
        }.joined(separator: "; ")
        var rows: [Row] = []
        let modes: [(SampleInterpolation, VoiceLoopPath?)] = [(.cubic, nil), (.sinc, nil)] + VoiceLoopPath.supported.map { (.sinc, $0) }
        for (mode, voiceLoops) in modes {
            let one = try SoundFontBenchmark.render(backbeat: backbeat, font: path, notes: 1, seconds: seconds, voiceLoops: voiceLoops ?? VoiceLoopPath.chosen.path,
                                                    interpolation: mode, fluidsynthOrder: nil)
            let run = try SoundFontBenchmark.render(backbeat: backbeat, font: path, notes: notes, seconds: seconds,
                                                    voiceLoops: voiceLoops ?? VoiceLoopPath.chosen.path, interpolation: mode)
            let ours = perVoiceSample(run.backbeat, one.backbeat, voices, oneVoices)
            let ratio = ours.flatMap { o in theirs[4].map { $0.ns / max(o, 1e-9) } }
            let forced = voiceLoops.map { ", voice loops forced to \($0.name)" } ?? ""
            rows.append(Row(metric: "SoundFont render ns per voice-sample above a 1-note render, --interpolation \(mode), \(notes)-note piano chord \(seconds) s, \(name)\(forced), least of 3 (vs fluidsynth -F, interp 4 and 7)",
                            backbeat: ours.map { String(format: "%.2f (%.3f s, %d voices)", $0, run.backbeat ?? 0, voices) }
                                ?? "n/a (\(run.backbeatError ?? "voices not counted"))",
                            reference: reference, ratio: ratio.map { String(format: "%.1fx less than 4th order", $0) } ?? "n/a",
                            target: mode == .sinc ? "below FluidSynth's 4th order" : "-",
                            pass: mode == .sinc ? ratio.map { $0 > 1 } : nil))
        }
        return rows
    }
}
