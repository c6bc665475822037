import DSP
import Engine
import Foundation
import Glibc
import MIDI
import Realtime

/// Measurements of the synth against its references, for `backbeat bench`. Figures, not assertions:
/// timing on a shared machine is noisy, so nothing here is a test.
public enum SynthBenchmark {
    /// Runs a child `runs` times and keeps its least disturbed (smallest) CPU time: one run on a shared
    /// virtual machine varies by a third. A failed run is kept, so that its status and output are reported.
    static func leastCPU(_ arguments: [String], runs: Int) throws -> (status: Int32, cpuSeconds: Double, output: String) {
        var best = try ChildProcess.runMeasured(arguments)
        for _ in 1..<max(runs, 1) where best.status == 0 {
            let next = try ChildProcess.runMeasured(arguments)
            if next.status != 0 || next.cpuSeconds < best.cpuSeconds { best = next }
        }
        return best
    }

    /// The held voices the benchmarks play: distinct (channel, note) pairs, 64 notes per channel.
    static func heldNotes(_ count: Int) -> [(channel: UInt8, note: UInt8)] { (0..<count).map(heldNote) }

    /// Distinct (channel, note) pairs there are: every key of 16 channels.
    public static var distinctNotes: Int { 2048 }

    /// The `index`th held voice: the first 1024 are 64 notes (36...99) per channel, then the next channel;
    /// the next 1024 the remaining 64 keys (0...35, 100...127) of each channel. Repeats after 2048.
    static func heldNote(_ index: Int) -> (channel: UInt8, note: UInt8) {
        let i = index % distinctNotes
        let k = i % 64
        let channel = UInt8(truncatingIfNeeded: (i / 64) % 16)
        guard i >= 1024 else { return (channel, UInt8(truncatingIfNeeded: 36 + k)) }
        return (channel, UInt8(truncatingIfNeeded: k < 36 ? k : 64 + k))
    }

    /// CPU time of the calling thread, in seconds.
    public static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Render cost in ns per voice-sample (one voice, one output frame) with `voices` notes held on the
    /// saw-through-filter patch (with the mod wheel at half on every channel if `vibrato`), rendering `seconds` of audio in `period`-frame calls, three times (the smallest counts). Measured on the
    /// thread's CPU clock after a warm-up. With `soundFont` the notes play the font's presets (program 0; on
    /// channel 10 the percussion bank) and a note may sound several voices: `sounding` counts them. With
    /// `portamento` every note glides (CC84, an octave) for longer than the measurement. `voiceLoops` forces a
    /// compile of the voice loops this CPU runs (default: the synth's choice).
    public static func nanosecondsPerVoiceSample(voices: Int, seconds: Double = 2, sampleRate: Double = 48_000,
                                                 period: Int = 512, patch: Int = 1, vibrato: Bool = false,
                                                 portamento: Bool = false, soundFont: SoundFont? = nil,
                                                 voiceLoops: VoiceLoopPath? = nil) -> (ns: Double, sounding: Int) {
        let synth = Synth(voices: voices, patch: patch, soundFont: soundFont)
        if let voiceLoops { synth.voiceLoops = voiceLoops }
        synth.prepare(sampleRate: sampleRate, maxFrames: period)
        if soundFont == nil { keepChannel10Melodic(synth) }
        if vibrato {
            for channel in 0..<UInt8(16) { synth.handle(ShortMessage.controlChange(.modulationWheel, value: 64, channel: channel)) }
        }
        if portamento { // the longest glide (16.4 s): every voice glides all through the measurement
            for channel in 0..<UInt8(16) {
                synth.handle(ShortMessage.controlChange(.portamentoTime, value: 127, channel: channel))
                synth.handle(ShortMessage.controlChange(Controller(37), value: 127, channel: channel))
            }
        }
        for (channel, note) in heldNotes(voices) {
            if portamento { // CC84: glide from an octave away
                synth.handle(ShortMessage.controlChange(.portamentoControl, value: note >= 12 ? note - 12 : note + 12, channel: channel))
            }
            synth.handle(ShortMessage.noteOn(note, velocity: 100, channel: channel))
        }
        let leftMemory = FixedArray<Float>(period, 0), rightMemory = FixedArray<Float>(period, 0)
        let left = leftMemory.baseAddress, right = rightMemory.baseAddress
        for _ in 0..<Int(0.1 * sampleRate) / period { synth.render(left: left, right: right, frames: period) }
        let sounding = synth.activeVoiceCount
        let calls = max(1, Int(seconds * sampleRate) / period)
        var elapsed = Double.infinity
        for _ in 0..<3 { // the least disturbed of three
            let start = threadCPUSeconds()
            for _ in 0..<calls { synth.render(left: left, right: right, frames: period) }
            elapsed = min(elapsed, threadCPUSeconds() - start)
        }
        return (elapsed * 1e9 / Double(calls * period * max(sounding, 1)), sounding)
    }

    /// The built-in synth's channel 10 plays its patch, not its drum kit (GM2 bank MSB 121, melodic): the
    /// held notes of 577 voices and more reach it.
    static func keepChannel10Melodic(_ synth: Synth) {
        synth.handle(ShortMessage.controlChange(.bankSelect, value: 121, channel: 9))
    }

    /// Render cost (ns per voice-sample) of `voices` held notes without portamento and with every voice
    /// gliding, on the saw-through-filter patch or the font at `fontPath`: the least of two alternated runs
    /// each, as the machine's load drifts. Nil if the font does not load.
    public static func portamentoCost(voices: Int, fontPath: String?) -> (off: Double, on: Double, sounding: Int)? {
        var font: SoundFont?
        if let fontPath {
            guard let loaded = try? SoundFont.load(path: fontPath) else { return nil }
            font = loaded
        }
        var off = Double.infinity, on = Double.infinity, sounding = 0
        for _ in 0..<2 {
            off = min(off, nanosecondsPerVoiceSample(voices: voices, soundFont: font).ns)
            let gliding = nanosecondsPerVoiceSample(voices: voices, portamento: true, soundFont: font)
            on = min(on, gliding.ns)
            sounding = gliding.sounding
        }
        return (off, on, sounding)
    }

    /// A Standard MIDI File holding `notes` notes for `seconds`, each channel set to `program` if given.
    public static func heldChordFile(notes: Int, seconds: Double, program: UInt8?) -> [UInt8] {
        var events: [(Double, MIDIMessage)] = []
        let held = heldNotes(notes)
        for channel in Set(held.map(\.channel)).sorted() {
            if let program { events.append((0, .programChange(.init(channel: channel, program: program)))) }
        }
        // Backbeat's built-in patch on channel 10 too (GM2 melodic bank), not its drum kit.
        if program == nil && held.contains(where: { $0.channel == 9 }) {
            events.append((0, .controlChange(.init(channel: 9, controller: 0, value: 121))))
        }
        for (channel, note) in held { events.append((0, .noteOn(.init(channel: channel, note: note, velocity: 100)))) }
        for (channel, note) in held { events.append((seconds, .noteOff(.init(channel: channel, note: note, velocity: 0)))) }
        return StandardMIDIFile.format0(events.map { (seconds: $0.0, message: $0.1) })
    }

    /// The General MIDI sound font FluidSynth renders with, if installed.
    public static var soundFont: String? {
        ["/usr/share/sounds/sf2/FluidR3_GM.sf2", "/usr/share/sounds/sf2/default-GM.sf2"].first { FileManager.default.fileExists(atPath: $0) }
    }

    /// CPU seconds of `backbeat render` and of `fluidsynth -F` (reverb and chorus off) rendering the same
    /// held chord of `notes` notes for `seconds` to a WAV file, each as a child process (wait4's rusage).
    /// FluidSynth may play several voices per note (its saw preset: two); `fluidsynthVoices` is how many it
    /// had sounding, read from its verbose note-on log (each line ends with the active voice count). Each
    /// side's figure is the smallest of `runs` runs.
    public static func renderAgainstFluidSynth(backbeat: String, notes: Int, seconds: Double, runs: Int = 3) throws
        -> (backbeat: Double, fluidsynth: Double?, fluidsynthVoices: Int?) {
        let directory = NSTemporaryDirectory() + "backbeat-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ours = directory + "/chord-\(notes).mid", theirs = directory + "/chord-\(notes)-gm.mid"
        try Data(heldChordFile(notes: notes, seconds: seconds, program: nil)).write(to: URL(fileURLWithPath: ours))
        // GM program 82 (index 81): Lead 2 (sawtooth), the nearest to Backbeat's saw lead.
        try Data(heldChordFile(notes: notes, seconds: seconds, program: 81)).write(to: URL(fileURLWithPath: theirs))

        let mine = try SynthBenchmark.leastCPU([backbeat, "render", ours, "-o", directory + "/ours.wav",
                                                 "--voices", String(max(notes, 1)), "--patch", "1",
                                                 "--no-reverb", "--no-chorus"], runs: runs) // as FluidSynth's -R 0 -C 0
        guard mine.status == 0 else { throw BenchError.commandFailed(command: "backbeat render", output: mine.output) }
        guard let fluidsynth = ChildProcess.find("fluidsynth"), let font = soundFont else { return (mine.cpuSeconds, nil, nil) }
        let reference = try SynthBenchmark.leastCPU([fluidsynth, "-ni", "-R", "0", "-C", "0", "-r", "48000",
                                                      "-o", "synth.verbose=1",
                                                      "-o", "synth.polyphony=4096", "-o", "synth.cpu-cores=1",
                                                      "-F", directory + "/theirs.wav", font, theirs], runs: runs)
        guard reference.status == 0 else { throw BenchError.commandFailed(command: "fluidsynth", output: reference.output) }
        let counts = reference.output.split(separator: "\n").filter { $0.contains("noteon") }
            .compactMap { $0.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        return (mine.cpuSeconds, reference.cpuSeconds, counts.max().map { $0 + 1 })
    }
}
