import Bench
import DSP
import Foundation

extension Bench {
    /// SoundFont render cost per voice-sample of held piano chords of each of `notes` notes against FluidSynth
    /// on the same font (each side's voices counted: a stereo sample is two), above a 1-note render of the same
    /// length. Issue 37's target (8x) on the 256- and 1024-note rows, 3x on the others. With `eachPath`, each
    /// compile of the voice loops this CPU runs again, forced (BACKBEAT_VOICE_LOOPS), beside the same
    /// FluidSynth figure.
    func soundFontVoiceSampleRows(backbeat: String, path: String, font: SoundFont?, notes counts: [Int],
                                  eachPath: Bool = false) throws -> [Row] {
        let name = URL(fileURLWithPath: path).lastPathComponent
        var rows: [Row] = []
        let samples = seconds * 48_000
        let one = try SoundFontBenchmark.render(backbeat: backbeat, font: path, notes: 1, seconds: seconds)
        let oneVoices = font.map { SoundFontBenchmark.backbeatVoices(font: $0, notes: 1) }
        let paths = eachPath ? VoiceLoopPath.supported : []
        var onePath: [VoiceLoopPath: SoundFontBenchmark.Run] = [:]
        for voiceLoops in paths {
            onePath[voiceLoops] = try SoundFontBenchmark.render(backbeat: backbeat, font: path, notes: 1, seconds: seconds, voiceLoops: voiceLoops)
        }
        for notes in counts {
            let run = try SoundFontBenchmark.render(backbeat: backbeat, font: path, notes: notes, seconds: seconds)
            let voices = font.map { SoundFontBenchmark.backbeatVoices(font: $0, notes: notes) }
            var theirs: Double?
            if let all = run.fluidsynth, let base = one.fluidsynth, let v = run.fluidsynthVoices, let v1 = one.fluidsynthVoices, v > v1 {
                theirs = (all - base) / (Double(v - v1) * samples) * 1e9
            }
            let reference = theirs.map { String(format: "%.1f (%.3f s, %d voices)", $0, run.fluidsynth ?? 0, run.fluidsynthVoices ?? 0) } ?? "n/a"
            let times = notes >= 256 ? 8.0 : 3.0
            /// A row for Backbeat's `run` above `base`, on the synth's own path or a forced one.
            func row(_ run: SoundFontBenchmark.Run, above base: SoundFontBenchmark.Run, on voiceLoops: VoiceLoopPath?) -> Row {
                var ours: Double?
                if let all = run.backbeat, let base = base.backbeat, let voices, let oneVoices, voices > oneVoices {
                    ours = (all - base) / (Double(voices - oneVoices) * samples) * 1e9
                }
                let ratio = ours.flatMap { o in theirs.map { $0 / max(o, 1e-9) } }
                let mine = ours.map { String(format: "%.2f (%.3f s, %d voices)", $0, run.backbeat ?? 0, voices ?? 0) }
                    ?? "n/a (\(run.backbeatError ?? "voices not counted"))"
                let forced = voiceLoops.map { ", voice loops forced to \($0.name)" } ?? ""
                return Row(metric: "SoundFont render ns per voice-sample above a 1-note render, \(notes)-note piano chord \(seconds) s, \(name)\(forced), least of 3 (vs fluidsynth -F)",
                           backbeat: mine, reference: reference, ratio: ratio.map { String(format: "%.1fx", $0) } ?? "n/a",
                           target: voiceLoops == nil ? ">= \(Int(times))x" : "-", pass: voiceLoops == nil ? ratio.map { $0 >= times } : nil)
            }
            rows.append(row(run, above: one, on: nil))
            for voiceLoops in paths {
                let forced = try SoundFontBenchmark.render(backbeat: backbeat, font: path, notes: notes, seconds: seconds, voiceLoops: voiceLoops)
                rows.append(row(forced, above: onePath[voiceLoops] ?? one, on: voiceLoops))
            }
        }
        return rows
    }

    /// SoundFont voices' speed (issues 24 and 37): with `perVoice` the per voice-sample rows on FluidR3 (256
    /// and 1024 notes, `soundFontVoiceSampleRows`, and each voice loop path the CPU runs); the whole-process CPU
    /// of a 256-note chord's 20 s render with TimGM6mb, effects off on both sides (target 6x); real-time
    /// capacity from the JACK thread's CPU time with FluidR3 at 256 and 64 frames (`capacityRows`, target 8x
    /// and 4096 voices).
    func soundFontSpeedRows(backbeat: String, perVoice: Bool) throws -> [Row] {
        var rows: [Row] = []
        let fluidR3 = "/usr/share/sounds/sf2/FluidR3_GM.sf2", timGM = "/usr/share/sounds/sf2/TimGM6mb.sf2"
        let haveR3 = FileManager.default.fileExists(atPath: fluidR3)
        // A missing font is a row that says which package brings it, not a row left out.
        func missing(_ path: String, _ package: String, _ profile: String) -> String {
            "n/a (no \(path): apt-get install \(package), or scripts/setup \(profile))"
        }
        if perVoice && haveR3 {
            rows += try soundFontVoiceSampleRows(backbeat: backbeat, path: fluidR3, font: try? SoundFontFile.load(fluidR3), notes: [256, 1024],
                                                 eachPath: true)
        } else if perVoice {
            rows.append(Row(metric: "SoundFont render ns per voice-sample, 256- and 1024-note piano chords, FluidR3_GM.sf2 (vs fluidsynth -F)",
                            backbeat: missing(fluidR3, "fluid-soundfont-gm", "bench"), reference: "-", ratio: "-", target: ">= 8x", pass: nil))
        }
        let renderMetric = "SoundFont render whole-process CPU s, 256-note piano chord 20 s, TimGM6mb.sf2, no reverb or chorus, least of 3 (vs fluidsynth -F -R 0 -C 0)"
        if FileManager.default.fileExists(atPath: timGM) {
            let run = try SoundFontBenchmark.render(backbeat: backbeat, font: timGM, notes: 256, seconds: 20)
            let ratio = run.backbeat.flatMap { ours in run.fluidsynth.map { $0 / max(ours, 1e-9) } }
            rows.append(Row(metric: renderMetric,
                            backbeat: run.backbeat.map { String(format: "%.3f", $0) } ?? "n/a (\(run.backbeatError ?? "failed"))",
                            reference: run.fluidsynth.map { String(format: "%.3f (%d voices)", $0, run.fluidsynthVoices ?? 0) } ?? "n/a",
                            ratio: ratio.map { String(format: "%.1fx less", $0) } ?? "n/a", target: ">= 6x", pass: ratio.map { $0 >= 6 }))
        } else {
            rows.append(Row(metric: renderMetric, backbeat: missing(timGM, "timgm6mb-soundfont", "test"), reference: "-", ratio: "-", target: ">= 6x", pass: nil))
        }
        if haveR3, let font = try? SoundFontFile.load(fluidR3) {
            rows += try capacityRows(soundFont: (name: "FluidR3_GM.sf2", font: font))
        } else {
            rows.append(Row(metric: "real-time capacity with a SoundFont", backbeat: missing(fluidR3, "fluid-soundfont-gm", "bench"), reference: "-", ratio: "-", target: "≥8x FluidSynth", pass: nil))
        }
        return rows
    }
}
