import CJack
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
        /// Voices sounding, as the synth reports them.
        public var voices: Int
        /// The process thread's CPU time per period over the window, in ns.
        public var nanosecondsPerPeriod: Double
        /// Periods the server ran during the window (its frame counter over the period size).
        public var periods: Double
        /// Xruns the server reported during the window.
        public var xruns: Int
    }

    public struct Result: Sendable {
        public var points: [Point]
        public var periodFrames: Int
        public var sampleRate: Int
        /// The thread measured: "tid 1234 'fluidsynth' SCHED_FIFO".
        public var thread: String
        /// Why the sweep ended before its last step, if it did.
        public var stoppedEarly: String?
        /// Backbeat only: its own callback-duration histogram over the last window (median, p99), ns.
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
    /// Notes FluidSynth holds at each step (its GM saw lead plays two voices a note).
    public static var fluidsynthSteps: [Int] { [0, 16, 32, 64, 128, 256, 512] }

    /// Backbeat's engine in this process on `server`, the notes of `steps` held in turn.
    public static func backbeat(server: String, steps: [Int] = backbeatSteps, window: Duration = .seconds(2)) throws -> Result {
        let maxNotes = steps.max() ?? 0
        var options = EngineOptions()
        options.serverName = server
        options.autoconnect = false
        options.voices = max(maxNotes, 1)
        options.patch = 1
        let engine = Engine(options: options, log: { _ in })
        try engine.start()
        defer { engine.stop() }
        var median: UInt64?, p99: UInt64?
        var result = try sweep(pid: getpid(), server: server, steps: steps, window: window,
                               addNotes: { notes in
                                   for index in notes {
                                       let (channel, note) = SynthBenchmark.heldNote(index)
                                       while !engine.keyboardRing.push(.midi(ShortMessage(status: 0x90 | channel, data1: note, data2: 100), .keyboard)) {
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
    /// polyphony 4096), fed by a probe sender; nil when FluidSynth or its sound font is not installed.
    public static func fluidsynth(server: String, steps: [Int] = fluidsynthSteps, window: Duration = .seconds(2)) throws -> Result? {
        guard let font = SynthBenchmark.soundFont,
              let fluidsynth = try ReferenceClient.start(["fluidsynth", "-a", "jack", "-m", "jack", "-R", "0", "-C", "0",
                  "-o", "synth.polyphony=4096", "-o", "synth.verbose=1", "-o", "audio.jack.id=fluidcpu",
                  "-o", "midi.jack.id=fluidcpu", "-o", "audio.jack.autoconnect=1", font],
                  server: server, waitingFor: "fluidcpu:midi_00")
        else { return nil }
        defer { fluidsynth.stop() }
        let sender = try ProbeMIDISender(server: server, name: "cpu-out")
        defer { sender.close() }
        try LatencyBenchmark.connect(server: server, "\(sender.name):out", "fluidcpu:midi_00")
        usleepMilliseconds(2_000)  // the sound font loads after the ports appear
        func send(_ message: ShortMessage) { while !sender.send(message) { usleepMilliseconds(1) } }
        for channel in 0..<UInt8(16) { send(ShortMessage(status: 0xC0 | channel, data1: 81)) }
        return try sweep(pid: fluidsynth.pid, server: server, steps: steps, window: window,
                         addNotes: { notes in
                             for index in notes {
                                 let (channel, note) = SynthBenchmark.heldNote(index)
                                 send(ShortMessage(status: 0x90 | channel, data1: note, data2: 100))
                             }
                         },
                         // synth.verbose logs one line per voice started, ending with the voices active before it.
                         voices: { notes in
                             let log = (try? String(contentsOfFile: fluidsynth.log, encoding: .utf8)) ?? ""
                             return notes == 0 ? 0 : (fluidsynthVoices(log: log) ?? notes * 2)
                         },
                         window: { _ in })
    }

    /// The voices FluidSynth had sounding after its last note-on, from its `synth.verbose` log: each
    /// "noteon" line is one voice started and ends with the count active before it. Nil without such lines.
    public static func fluidsynthVoices(log: String) -> Int? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("noteon") }),
              let last = line.split(whereSeparator: { $0 == "\t" || $0 == " " }).last,
              let count = Int(last) else { return nil }
        return count + 1
    }

    /// Holds each step's notes (added to the previous step's) and watches every thread of `pid` and the
    /// server's frame counter for `window`, after a settling moment. The synth's thread is the busiest
    /// real-time thread (not the main thread) over the highest step's window; each point is that thread's CPU
    /// time over its window divided by the periods the server ran. Stops early when a step costs more than
    /// 70 % of a period or loses more than a tenth of its periods to xruns: beyond that the thread's time
    /// no longer says what the synth costs. `window(started)` runs at each window's start and end.
    static func sweep(pid: pid_t, server: String, steps: [Int], window: Duration,
                      addNotes: (Range<Int>) -> Void, voices: (Int) -> Int,
                      window observe: (Bool) -> Void) throws -> Result {
        let watcher = try LoadWatcher(server: server)
        defer { watcher.close() }
        let periodFrames = watcher.client.bufferSize, sampleRate = watcher.client.sampleRate
        let periodNanoseconds = Double(periodFrames) / Double(max(sampleRate, 1)) * 1e9
        let windowMilliseconds = Int(window.components.seconds * 1000 + window.components.attoseconds / 1_000_000_000_000_000)
        struct Window { var notes: Int; var voices: Int; var before: [Int32: TaskSample]; var after: [Int32: TaskSample]; var periods: Double; var xruns: Int }
        var windows: [Window] = []
        var held = 0
        var stoppedEarly: String?
        let sorted = steps.sorted()
        for (index, notes) in sorted.enumerated() {
            if notes > held { addNotes(held..<notes) }
            held = max(held, notes)
            usleepMilliseconds(500)  // attacks finish, FluidSynth's note-on log lines are written
            let sounding = voices(held)
            let isLast = index == sorted.count - 1
            observe(true)
            let xrunsBefore = watcher.xruns.load(ordering: .relaxed)
            let framesBefore = watcher.client.frameTime
            let before = ThreadCPUTime.snapshot(pid: pid)
            usleepMilliseconds(windowMilliseconds)  // the measurement window itself, not a wait for an event
            let after = ThreadCPUTime.snapshot(pid: pid)
            let frames = watcher.client.frameTime &- framesBefore
            observe(false)
            let periods = Double(frames) / Double(max(periodFrames, 1))
            let xruns = watcher.xruns.load(ordering: .relaxed) - xrunsBefore
            windows.append(Window(notes: held, voices: sounding, before: before, after: after, periods: periods, xruns: xruns))
            if !isLast, let busiest = ThreadCPUTime.busiest(before: before, after: after, excluding: [pid]), periods > 0 {
                let share = Double(busiest.nanoseconds) / periods / periodNanoseconds
                if share > 0.7 || Double(xruns) > periods / 10 {
                    stoppedEarly = String(format: "stopped at %d notes: %.0f %% of a period, %d xruns in %.0f periods", held, share * 100, xruns, periods)
                    break
                }
            }
        }
        guard let top = windows.last,
              let thread = ThreadCPUTime.busiest(before: top.before, after: top.after, excluding: [pid])?.task else {
            throw BenchError.commandFailed(command: "reading /proc/\(pid)/task", output: "no thread of process \(pid) ran during the sweep")
        }
        let points = windows.compactMap { window -> Point? in
            guard window.periods > 0, let spent = ThreadCPUTime.spent(by: thread.tid, from: window.before, to: window.after) else { return nil }
            return Point(notes: window.notes, voices: window.voices, nanosecondsPerPeriod: Double(spent) / window.periods,
                         periods: window.periods, xruns: window.xruns)
        }
        let policy = thread.policy == 1 ? "SCHED_FIFO" : thread.policy == 2 ? "SCHED_RR" : "policy \(thread.policy), not real-time"
        return Result(points: points, periodFrames: periodFrames, sampleRate: sampleRate,
                      thread: "tid \(thread.tid) '\(thread.name)' \(policy)", stoppedEarly: stoppedEarly)
    }
}
