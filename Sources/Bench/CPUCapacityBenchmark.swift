import CJack
import DSP
import Engine
import Foundation
import MIDI

/// What a synth's JACK process thread costs per period at several held voice counts, from that thread's
/// own CPU time (/proc/PID/task/TID/schedstat), read alike for Backbeat (its engine in this process) and
/// FluidSynth (a child over JACK). Unlike the xrun sweep, a late timer wake-up of the machine does not move
/// this figure: it counts the ns the thread ran, not whether the period was met. `CapacityFit` turns the
/// points into the voices that would fill 80 % of a period.
public enum CPUCapacityBenchmark {
    /// One held voice count, watched for a window.
    public struct Point: Sendable, Equatable {
        /// Notes sent (Backbeat plays one voice a note; FluidSynth's saw lead two).
        public var notes: Int
        /// Voices sounding, as the synth reports them (the mean of the window's start and end).
        public var voices: Int
        /// The process thread's CPU time per period, in ns: the least of the step's windows.
        public var nanosecondsPerPeriod: Double
        /// Periods the server ran during the window counted (its frame counter over the period size).
        public var periods: Double
        /// Xruns the server reported during the step's windows.
        public var xruns: Int
    }

    public struct Result: Sendable {
        public var points: [Point]
        public var periodFrames: Int
        public var sampleRate: Int
        /// The thread measured: "tid 1234 'fluidsynth' SCHED_FIFO".
        public var thread: String
        /// Why the sweep ended before its last step, and which steps had xruns in every window, if any.
        public var stoppedEarly: String?
        /// Backbeat only: its own callback-duration histogram over the last step's windows (median, p99), ns.
        public var callbackMedian: UInt64?
        public var callbackP99: UInt64?

        /// The least-squares line through the points and the voices at 80 % of a period.
        public var fit: CapacityFit {
            CapacityFit(points: points.map { .init(voices: Double($0.voices), nanoseconds: $0.nanosecondsPerPeriod) },
                        periodFrames: periodFrames, sampleRate: sampleRate)
        }
    }

    /// Notes Backbeat holds at each step (one voice each; 2048 is every distinct key of 16 channels).
    public static var backbeatSteps: [Int] { [0, 64, 256, 512, 1024, 2048] }
    /// Notes FluidSynth holds at each step (its GM saw lead starts two voices a note), up to as many as
    /// Backbeat: the sweep stops early where a step costs over 70 % of a period.
    public static var fluidsynthSteps: [Int] { [0, 16, 32, 64, 128, 256, 512, 1024, 2048] }

    /// Backbeat's engine in this process on `server`, the notes of `steps` held in turn: the built-in synth's
    /// patch 1, or with `soundFont` the font's `program` on every channel (as many voices as the synth allows:
    /// a stereo preset sounds two a note).
    public static func backbeat(server: String, steps: [Int] = backbeatSteps, window: Duration = .seconds(1), repeats: Int = 3,
                                soundFont: SoundFont? = nil, program: UInt8 = 81) throws -> Result {
        let maxNotes = steps.max() ?? 0
        var options = EngineOptions()
        options.serverName = server
        options.autoconnect = false
        options.voices = soundFont == nil ? max(maxNotes, 1) : min(max(2 * maxNotes, 1), Synth.maximumVoices)
        options.patch = 1
        options.soundFont = soundFont
        // Dry, as FluidSynth runs beside it (-R 0 -C 0): the rows compare voices, not effects.
        options.reverb = false
        options.chorus = false
        let engine = Engine(options: options, log: { _ in })
        try engine.start()
        defer { engine.stop() }
        if soundFont != nil {
            for channel in 0..<UInt8(16) {
                while !engine.keyboardRing.push(.midi(ShortMessage.programChange(program, channel: channel), .keyboard)) {
                    usleepMilliseconds(1)
                }
            }
        }
        var median: UInt64?, p99: UInt64?
        var result = try sweep(pid: getpid(), server: server, steps: steps, window: window, repeats: repeats,
                               addNotes: { notes in
                                   for index in notes {
                                       let (channel, note) = SynthBenchmark.heldNote(index)
                                       while !engine.keyboardRing.push(.midi(ShortMessage.noteOn(note, velocity: 100, channel: channel), .keyboard)) {
                                           usleepMilliseconds(1)
                                       }
                                   }
                               },
                               voices: { _ in engine.status().voicesInUse },
                               window: { started in
                                   if started { engine.callbackDurations.reset() } else {
                                       median = engine.callbackDurations.percentile(0.5)
                                       p99 = engine.callbackDurations.percentile(0.99)
                                   }
                               })
        result.callbackMedian = median
        result.callbackP99 = p99
        return result
    }

    /// FluidSynth over JACK on `server` (reverb and chorus off, GM program 82 saw lead on every channel,
    /// polyphony 4096); nil when FluidSynth or its sound font is not installed. Its notes go through its
    /// shell (stdin), 64 at a time, each batch confirmed by a `voice_count` answer: a JACK MIDI port's
    /// buffer holds only about a period's worth of bytes (1 KiB at 256 frames, 256 B at 64), so a burst of
    /// hundreds of note-ons over MIDI loses most of them. What is measured, its JACK thread rendering the
    /// held voices, is the same either way.
    public static func fluidsynth(server: String, steps: [Int] = fluidsynthSteps, window: Duration = .seconds(1), repeats: Int = 3) throws -> Result? {
        guard let font = SynthBenchmark.soundFont,
              let fluidsynth = try ReferenceClient.start(["fluidsynth", "-a", "jack", "-m", "jack", "-R", "0", "-C", "0",
                  "-o", "synth.polyphony=4096", "-o", "audio.jack.id=fluidcpu",
                  "-o", "midi.jack.id=fluidcpu", "-o", "audio.jack.autoconnect=1", font],
                  server: server, waitingFor: "fluidcpu:midi_00")
        else { return nil }
        defer { fluidsynth.stop() }
        usleepMilliseconds(2_000)  // the sound font loads after the ports appear
        for channel in 0..<16 { fluidsynth.send(line: "prog \(channel) 81") }
        return try sweep(pid: fluidsynth.pid, server: server, steps: steps, window: window, repeats: repeats,
                         addNotes: { notes in
                             for index in notes {
                                 let (channel, note) = SynthBenchmark.heldNote(index)
                                 fluidsynth.send(line: "noteon \(channel) \(note) 100")
                                 if (index + 1) % 64 == 0 { _ = voiceCount(of: fluidsynth) }
                             }
                         },
                         voices: { notes in voiceCount(of: fluidsynth) ?? notes * 2 },
                         window: { _ in })
    }

    /// The voices FluidSynth has sounding now: its shell's `voice_count` command, answered in its log as
    /// "voice_count: N" (the log is the only place the answer goes, so it is polled). Nil when no answer
    /// came within 2 s.
    static func voiceCount(of fluidsynth: ReferenceClient) -> Int? {
        func answers() -> [Int] { voiceCounts(log: (try? String(contentsOfFile: fluidsynth.log, encoding: .utf8)) ?? "") }
        let before = answers().count
        guard fluidsynth.send(line: "voice_count") else { return nil }
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline {
            let now = answers()
            if now.count > before { return now.last }
            usleepMilliseconds(10)
        }
        return nil
    }

    /// Every answer to FluidSynth's `voice_count` in its log, in order.
    public static func voiceCounts(log: String) -> [Int] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "voice_count: ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// Holds each step's notes (added to the previous step's) and, after a settling moment, watches every
    /// thread of `pid` and the server's frame counter for `repeats` windows of `window`. The synth's thread
    /// is the busiest real-time thread (not the main thread) over the highest step's last window; each point
    /// is that thread's CPU time over a window divided by the periods the server ran, the least of the step's
    /// windows. Stops early when a step costs more than
    /// 70 % of a period or loses more than a tenth of its periods to xruns: beyond that the thread's time
    /// no longer says what the synth costs. `window(started)` runs at each window's start and end.
    static func sweep(pid: pid_t, server: String, steps: [Int], window: Duration, repeats: Int,
                      addNotes: (Range<Int>) -> Void, voices: (Int) -> Int,
                      window observe: (Bool) -> Void) throws -> Result {
        let watcher = try LoadWatcher(server: server)
        defer { watcher.close() }
        let periodFrames = watcher.client.bufferSize, sampleRate = watcher.client.sampleRate
        let periodNanoseconds = Double(periodFrames) / Double(max(sampleRate, 1)) * 1e9
        let windowMilliseconds = Int(window.components.seconds * 1000 + window.components.attoseconds / 1_000_000_000_000_000)
        struct Window { var before: [Int32: TaskSample]; var after: [Int32: TaskSample]; var periods: Double; var xruns: Int }
        struct Step { var notes: Int; var voices: Int; var windows: [Window] }
        var measured: [Step] = []
        var held = 0
        var stoppedEarly: String?
        let sorted = steps.sorted()
        for (index, notes) in sorted.enumerated() {
            if notes > held { addNotes(held..<notes) }
            held = max(held, notes)
            usleepMilliseconds(500)  // the notes arrive and their attacks finish
            let soundingBefore = voices(held)
            observe(true)
            var windows: [Window] = []
            for _ in 0..<max(repeats, 1) {
                let xrunsBefore = watcher.xruns.load(ordering: .relaxed)
                let cyclesBefore = watcher.cycles.load(ordering: .relaxed)
                let before = ThreadCPUTime.snapshot(pid: pid)
                usleepMilliseconds(windowMilliseconds)  // the measurement window itself, not a wait for an event
                let after = ThreadCPUTime.snapshot(pid: pid)
                // The cycles the server ran, counted by a client of the same graph: not the frame clock, which
                // is an estimate from the time of day and runs on when a late timer makes the server skip cycles.
                let cycles = watcher.cycles.load(ordering: .relaxed) - cyclesBefore
                windows.append(Window(before: before, after: after, periods: Double(cycles),
                                      xruns: watcher.xruns.load(ordering: .relaxed) - xrunsBefore))
            }
            observe(false)
            // Voices may end during the windows (a sound font's note that decays to silence): the mean of both ends.
            measured.append(Step(notes: held, voices: (soundingBefore + voices(held) + 1) / 2, windows: windows))
            guard index < sorted.count - 1 else { break }
            let shares = windows.compactMap { window in
                ThreadCPUTime.busiest(before: window.before, after: window.after, excluding: [pid])
                    .flatMap { window.periods > 0 ? Double($0.nanoseconds) / window.periods / periodNanoseconds : nil }
            }
            let xruns = windows.reduce(0) { $0 + $1.xruns }, periods = windows.reduce(0) { $0 + $1.periods }
            // Only the synth's own cost stops the sweep: xruns from the machine's late timer (the idle server
            // has them too) do not change the time per cycle counted, so they are reported, not obeyed.
            if let share = shares.min(), share > 0.7 {
                stoppedEarly = String(format: "stopped at %d notes: %.0f %% of a period, %d xruns in %.0f periods", held, share * 100, xruns, periods)
                break
            }
        }
        guard let top = measured.last?.windows.last,
              let thread = ThreadCPUTime.busiest(before: top.before, after: top.after, excluding: [pid])?.task else {
            throw BenchError.commandFailed(command: "reading /proc/\(pid)/task", output: "no thread of process \(pid) ran during the sweep")
        }
        // Each step's least disturbed window: another program on a shared machine only ever adds to a thread's
        // time on the CPU (cache misses, a busy sibling core), so the smallest of a few windows is the steadiest.
        // Periods are the cycles the graph ran, so a late wake-up of the machine (an xrun the idle server has too)
        // leaves the time per period right; a window where more than half the cycles were xruns does not count
        // (the graph was then hardly running at all).
        var leftOut: [Int] = []
        let points = measured.compactMap { step -> Point? in
            let costs = step.windows.compactMap { window -> (Double, Double)? in
                guard window.periods > 0, Double(window.xruns) <= window.periods / 2,
                      let spent = ThreadCPUTime.spent(by: thread.tid, from: window.before, to: window.after) else { return nil }
                return (Double(spent) / window.periods, window.periods)
            }
            guard let least = costs.min(by: { $0.0 < $1.0 }) else { leftOut.append(step.notes); return nil }
            return Point(notes: step.notes, voices: step.voices, nanosecondsPerPeriod: least.0, periods: least.1,
                         xruns: step.windows.reduce(0) { $0 + $1.xruns })
        }
        let policy = thread.policy == 1 ? "SCHED_FIFO" : thread.policy == 2 ? "SCHED_RR" : "policy \(thread.policy), not real-time"
        if !leftOut.isEmpty {
            let notes = leftOut.map(String.init).joined(separator: ", ")
            stoppedEarly = [stoppedEarly, "left out of the fit (xruns in every window): \(notes) notes"].compactMap { $0 }.joined(separator: "; ")
        }
        return Result(points: points, periodFrames: periodFrames, sampleRate: sampleRate,
                      thread: "tid \(thread.tid) '\(thread.name)' \(policy)", stoppedEarly: stoppedEarly)
    }
}
