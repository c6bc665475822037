import DSP
import Engine
import Foundation
import Glibc
import MIDI
import Realtime

/// Backbeat's SoundFont player measured against FluidSynth on the same font, for `backbeat bench --only
/// soundfont`: render cost per voice-sample of a held chord, and resident memory with the font loaded.
/// Figures, not assertions.
public enum SoundFontBenchmark {
    /// The font both synths play: FluidR3 (148 MB) if installed, else TimGM6mb (6 MB).
    public static var font: String? {
        ["/usr/share/sounds/sf2/FluidR3_GM.sf2", "/usr/share/sounds/sf2/TimGM6mb.sf2"].first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The program the chords play: 0, Acoustic Grand Piano (stereo in FluidR3: two voices a note).
    public static let program: UInt8 = 0

    /// The `index`th held note: the 88 piano keys (21...108) of a channel, then the next channel, skipping
    /// channel 10 (percussion in General MIDI) so that every note plays the same melodic preset.
    static func heldNote(_ index: Int) -> (channel: UInt8, note: UInt8) {
        let channels: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15]
        let i = index % (88 * channels.count)
        return (channels[i / 88], UInt8(21 + i % 88))
    }

    /// A Standard MIDI File holding `notes` notes (velocity 100) for `seconds` on `program`; with `sends`,
    /// every channel's reverb and chorus sends (CC91, CC93) at 64 first, so both synths' effects work.
    public static func heldChordFile(notes: Int, seconds: Double, program: UInt8 = program, sends: Bool = false) -> [UInt8] {
        let held = (0..<notes).map(heldNote)
        let channels = Set(held.map(\.channel)).sorted()
        var events: [(seconds: Double, message: MIDIMessage)] = channels.map {
            (0, .programChange(.init(channel: $0, program: program)))
        }
        if sends {
            events += channels.flatMap { ch -> [(seconds: Double, message: MIDIMessage)] in
                [(0, .controlChange(.init(channel: ch, controller: 91, value: 64))),
                 (0, .controlChange(.init(channel: ch, controller: 93, value: 64)))]
            }
        }
        events += held.map { (0, .noteOn(.init(channel: $0.channel, note: $0.note, velocity: 100))) }
        events += held.map { (seconds, .noteOff(.init(channel: $0.channel, note: $0.note, velocity: 0))) }
        return StandardMIDIFile.format0(events)
    }

    /// Voices Backbeat's synth has sounding right after the chord's note-ons (a stereo sample is two), in
    /// process with the same font as `render --soundfont` loads.
    public static func backbeatVoices(font: SoundFont, notes: Int, program: UInt8 = program) -> Int {
        let synth = Synth(voices: Synth.maximumVoices, soundFont: font)
        synth.prepare(sampleRate: 48_000, maxFrames: 256)
        let held = (0..<notes).map(heldNote)
        for channel in Set(held.map(\.channel)) { synth.handle(ShortMessage.programChange(program, channel: channel)) }
        for (channel, note) in held { synth.handle(ShortMessage.noteOn(note, velocity: 100, channel: channel)) }
        let leftMemory = FixedArray<Float>(256, 0), rightMemory = FixedArray<Float>(256, 0)
        let left = leftMemory.baseAddress, right = rightMemory.baseAddress
        synth.render(left: left, right: right, frames: 256)
        return synth.activeVoiceCount
    }

    /// CPU seconds (least of `runs`) of one chord rendered by each side, and FluidSynth's voices.
    public struct Run {
        /// nil when `backbeat render --soundfont` failed: `backbeatError` says why.
        public var backbeat: Double?
        public var backbeatError: String?
        public var fluidsynth: Double?
        /// Voices FluidSynth had sounding (its verbose note-on log ends each line with the count).
        public var fluidsynthVoices: Int?
    }

    /// `backbeat render --soundfont FONT` and `fluidsynth -F` (one core, polyphony 4096) on the same held chord
    /// of `notes` notes for `seconds`, each as a child process (wait4's rusage). Both with reverb and chorus
    /// off, or with `effects` both with them on at their defaults and the file's sends at 64. `voiceLoops`
    /// forces Backbeat's voice loops onto that path (BACKBEAT_VOICE_LOOPS); FluidSynth is not run then
    /// (`fluidsynth` nil), since its figure does not change with it. `interpolation` is Backbeat's
    /// `--interpolation` (nil: its default); `fluidsynthOrder` FluidSynth's (`interp N` in a command file given
    /// with -f; nil: its default, 4th order).
    public static func render(backbeat: String, font: String, notes: Int, seconds: Double, runs: Int = 3,
                              effects: Bool = false, voiceLoops: VoiceLoopPath? = nil,
                              interpolation: SampleInterpolation? = nil, fluidsynthOrder: Int? = nil) throws -> Run {
        let directory = NSTemporaryDirectory() + "backbeat-sfbench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let midi = directory + "/chord-\(notes).mid"
        try Data(heldChordFile(notes: notes, seconds: seconds, sends: effects)).write(to: URL(fileURLWithPath: midi))
        var run = Run()
        let forced = voiceLoops.map { ["/usr/bin/env", "BACKBEAT_VOICE_LOOPS=\($0.rawValue)"] } ?? []
        let mine = try SynthBenchmark.leastCPU(forced + [backbeat, "render", midi, "-o", directory + "/ours.wav", "--soundfont", font,
                                 "--voices", String(min(Synth.maximumVoices, max(notes * 4, 64)))]
                                 + (effects ? [] : ["--no-reverb", "--no-chorus"])
                                 + (interpolation.map { ["--interpolation", $0.description] } ?? []), runs: runs)
        if mine.status == 0 {
            run.backbeat = mine.cpuSeconds
        } else {
            run.backbeatError = mine.output.split(separator: "\n").last.map(String.init) ?? "exit \(mine.status)"
        }
        guard voiceLoops == nil, let fluidsynth = ChildProcess.find("fluidsynth") else { return run }
        var order: [String] = []
        if let fluidsynthOrder {
            let commands = directory + "/interp.txt"
            try "interp \(fluidsynthOrder)\n".write(toFile: commands, atomically: true, encoding: .utf8)
            order = ["-f", commands]
        }
        let reference = try SynthBenchmark.leastCPU([fluidsynth, "-ni"] + order + (effects ? [] : ["-R", "0", "-C", "0"]) + ["-r", "48000", "-o", "synth.verbose=1",
                                      "-o", "synth.polyphony=4096", "-o", "synth.cpu-cores=1",
                                      "-F", directory + "/theirs.wav", font, midi], runs: runs)
        guard reference.status == 0 else { throw BenchError.commandFailed(command: "fluidsynth", output: reference.output) }
        run.fluidsynth = reference.cpuSeconds
        run.fluidsynthVoices = reference.output.split(separator: "\n").filter { $0.contains("noteon") }
            .compactMap { $0.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
            .max().map { $0 + 1 }
        return run
    }

    /// FluidSynth's resident memory (KiB, in all and without JACK's shared segments) once it has loaded
    /// `font` on a private JACK server: it reads every sample into memory at start-up. Its ports appear
    /// before the font is loaded, so this waits until the figure holds the font's size and stops growing
    /// (two readings 0.5 s apart within 1 %; at most 30 s). Nil without fluidsynth.
    public static func fluidsynthResidentKiB(font: String, server: String) throws -> (total: Int, own: Int)? {
        let jackd: PrivateJackServer? = PrivateJackServer.isRunning(name: server)
            ? nil : try PrivateJackServer.start(name: server, rate: 48_000, period: 256)
        defer { jackd?.stop() }
        guard let fluid = try ReferenceClient.start(["fluidsynth", "-a", "jack", "-m", "jack", "-R", "0", "-C", "0",
                                                     "-o", "audio.jack.id=fluidmem", "-o", "midi.jack.id=fluidmem",
                                                     "-o", "audio.jack.autoconnect=0", font],
                                                    server: server, waitingFor: "fluidmem:midi_00") else { return nil }
        defer { fluid.stop() }
        let fontKiB = ((try? FileManager.default.attributesOfItem(atPath: font)[.size] as? Int) ?? 0) / 1024
        let loaded = fontKiB * 9 / 10
        var last = try ProcessBenchmark.residentKiB(pid: fluid.pid)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            usleepMilliseconds(500)
            let next = try ProcessBenchmark.residentKiB(pid: fluid.pid)
            defer { last = next }
            if next.total >= loaded, abs(next.total - last.total) * 100 <= next.total { return next }
        }
        return last
    }
}
