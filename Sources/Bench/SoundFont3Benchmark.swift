import Engine
import Foundation
import Glibc
import MIDI

/// A SoundFont 3 font (MuseScore_General_Lite.sf3) rendering a General MIDI file, Backbeat against FluidSynth:
/// peak memory (the child's maximum resident set, from wait4) and wall time, each as a child process. FluidSynth
/// decodes every sample of the font at load; Backbeat decodes those the file's notes reach. Figures, not
/// assertions.
public enum SoundFont3Benchmark {
    public static var font: String? {
        ["/usr/share/sounds/sf3/MuseScore_General_Lite.sf3", "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3"]
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// A 16-second General MIDI piece: a piano melody, string chords, a fingered bass and drums on channel
    /// 10 (kick, snare, closed hi-hat), 120 BPM.
    public static func songFile() -> [UInt8] {
        var events: [(seconds: Double, message: MIDIMessage)] = [
            (0, .programChange(.init(channel: 0, program: 0))),
            (0, .programChange(.init(channel: 1, program: 48))),
            (0, .programChange(.init(channel: 2, program: 33))),
        ]
        func note(_ at: Double, _ length: Double, _ channel: UInt8, _ key: UInt8, _ velocity: UInt8) {
            events.append((at, .noteOn(.init(channel: channel, note: key, velocity: velocity))))
            events.append((at + length, .noteOff(.init(channel: channel, note: key, velocity: 0))))
        }
        let melody: [UInt8] = [72, 74, 76, 77, 79, 77, 76, 74]
        let chords: [[UInt8]] = [[60, 64, 67], [57, 60, 64], [53, 57, 60], [55, 59, 62]]
        let bass: [UInt8] = [36, 33, 29, 31]
        for bar in 0 ..< 8 {
            let t = Double(bar) * 2
            for (i, key) in melody.enumerated() { note(t + Double(i) * 0.25, 0.24, 0, key, 90) }
            for key in chords[bar % 4] { note(t, 1.9, 1, key, 70) }
            note(t, 0.9, 2, bass[bar % 4], 100)
            note(t + 1, 0.9, 2, bass[bar % 4], 100)
            for beat in 0 ..< 4 {
                note(t + Double(beat) * 0.5, 0.2, 9, beat % 2 == 0 ? 36 : 38, 110)
                note(t + Double(beat) * 0.5 + 0.25, 0.1, 9, 42, 80)
            }
        }
        return StandardMIDIFile.format0(events.sorted { $0.seconds < $1.seconds })
    }

    public struct Measure: Sendable {
        public var wallSeconds: Double
        public var peakKiB: Int
    }

    /// Runs `arguments` to completion: its wall time and peak resident memory (ru_maxrss), or nil when it
    /// failed (with what it printed).
    static func measure(_ arguments: [String]) throws -> (Measure?, String) {
        let log = NSTemporaryDirectory() + "backbeat-sf3bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let start = ContinuousClock.now
        let pid = try ChildProcess.spawn(arguments, output: log)
        var usage = rusage()
        let status = SystemCall.waitForExit(pid, usage: &usage) ?? -1
        let elapsed = ContinuousClock.now - start
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard status == 0 else { return (nil, output) }
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return (Measure(wallSeconds: wall, peakKiB: Int(usage.ru_maxrss)), output)
    }

    /// Backbeat's and FluidSynth's render of `songFile()` with `font`: the least wall time and peak memory
    /// of `runs` runs each. FluidSynth nil when it is not installed.
    public static func render(backbeat: String, font: String, runs: Int = 3) throws -> (ours: Measure?, theirs: Measure?, error: String?) {
        let directory = NSTemporaryDirectory() + "backbeat-sf3bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let midi = directory + "/song.mid"
        try Data(songFile()).write(to: URL(fileURLWithPath: midi))
        func best(_ arguments: [String]) throws -> (Measure?, String) {
            var result: Measure?
            var output = ""
            for _ in 0 ..< runs {
                let (m, text) = try measure(arguments)
                guard let m else { return (nil, text) }
                output = text
                result = Measure(wallSeconds: min(result?.wallSeconds ?? .infinity, m.wallSeconds),
                                 peakKiB: min(result?.peakKiB ?? .max, m.peakKiB))
            }
            return (result, output)
        }
        let (ours, error) = try best([backbeat, "render", midi, "-o", directory + "/ours.wav", "--soundfont", font])
        guard let fluidsynth = ChildProcess.find("fluidsynth") else { return (ours, nil, ours == nil ? error : nil) }
        let (theirs, _) = try best([fluidsynth, "-ni", "-R", "0", "-C", "0", "-r", "48000", "-F", directory + "/theirs.wav", font, midi])
        return (ours, theirs, ours == nil ? error : nil)
    }
}
