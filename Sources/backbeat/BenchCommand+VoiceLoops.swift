import Bench
import DSP
import Foundation

extension Bench {
    /// The CPU this run measures and the voice loop paths it runs: speed figures hold for that CPU only.
    func cpuRow() -> Row {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        func field(_ name: String) -> String? {
            info.split(separator: "\n").first { $0.hasPrefix(name) }
                .flatMap { $0.split(separator: ":", maxSplits: 1).last }
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        var cpu = field("model name") ?? "unknown CPU"
        if let family = field("cpu family"), let model = field("model\t") { cpu += " (family \(family), model \(model))" }
        let paths = VoiceLoopPath.supported.map(\.name).joined(separator: ", ")
        return Row(metric: "CPU and the voice loops it runs (BACKBEAT_VOICE_LOOPS forces one)",
                   backbeat: "\(cpu): plays \(VoiceLoopPath.chosen.path.name)", reference: "runs \(paths)",
                   ratio: "-", target: "-", pass: nil)
    }

    /// Each compile of the voice loops this CPU runs, forced: held built-in voices (saw+filter, 256 and 1024,
    /// in this process) per voice-sample. The SoundFont rows per path are in `sfspeed`.
    func voiceLoopRows() -> [Row] {
        VoiceLoopPath.supported.flatMap { path in
            [256, 1024].map { voices in
                let result = SynthBenchmark.nanosecondsPerVoiceSample(voices: voices, voiceLoops: path)
                return Row(metric: "synth ns/voice-sample, \(voices) held (\(result.sounding) sounding), saw+filter, voice loops forced to \(path.name)",
                           backbeat: String(format: "%.2f", result.ns), reference: "-", ratio: "-", target: "-", pass: nil)
            }
        }
    }
}
