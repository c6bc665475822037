import CJack
import Engine
import Foundation
import MIDI
import Synchronization

/// How many held voices a synth sustains in a real JACK graph before JACK's DSP load reaches 80 % or the
/// first xrun: notes are added in steps, and each step is watched for a while. The same watcher (a
/// portless client reading jack_cpu_load and counting xruns) judges Backbeat and FluidSynth.
public enum PolyphonyBenchmark {
    public struct Result: Sendable {
        /// Notes held at the last step that stayed under the limits.
        public var notes: Int
        /// Why the sweep stopped ("80 % DSP load at N", "xrun at N", "reached the maximum").
        public var reason: String
        /// JACK's peak DSP load (percent) while `notes` were held: the headroom left.
        public var load: Float
        /// Xruns that did not happen again while the same notes stayed held (the machine's, not the load's).
        public var isolatedXruns: Int
    }

    /// Backbeat in this process, its voices allocated for `maxNotes`.
    public static func backbeat(server: String, maxNotes: Int = SynthBenchmark.distinctNotes, step: Int = 64) throws -> Result {
        var options = EngineOptions()
        options.serverName = server
        options.autoconnect = false
        options.voices = maxNotes
        options.patch = 1
        options.reverb = false // as FluidSynth's -R 0 -C 0 below
        options.chorus = false
        let engine = Engine(options: options, log: { _ in })
        try engine.start()
        defer { engine.stop() }
        return try sweep(server: server, maxNotes: maxNotes, step: step) { notes in
            for index in notes {
                let (channel, note) = SynthBenchmark.heldNote(index)
                _ = engine.keyboardRing.push(.midi(ShortMessage.noteOn(note, velocity: 100, channel: channel), .keyboard))
            }
        }
    }

    /// FluidSynth over JACK (reverb and chorus off, GM program 82 saw lead) fed by a probe sender.
    public static func fluidsynth(server: String, maxNotes: Int = SynthBenchmark.distinctNotes, step: Int = 64) throws -> Result? {
        guard let font = SynthBenchmark.soundFont,
              let fluidsynth = try ReferenceClient.start(["fluidsynth", "-a", "jack", "-m", "jack", "-R", "0", "-C", "0",
                  "-o", "synth.polyphony=4096", "-o", "audio.jack.id=fluidpoly", "-o", "midi.jack.id=fluidpoly",
                  "-o", "audio.jack.autoconnect=1", font], server: server, waitingFor: "fluidpoly:midi_00")
        else { return nil }
        defer { fluidsynth.stop() }
        let sender = try ProbeMIDISender(server: server, name: "poly-out")
        defer { sender.close() }
        try LatencyBenchmark.connect(server: server, "\(sender.name):out", "fluidpoly:midi_00")
        usleepMilliseconds(2_000)  // the sound font loads after the ports appear
        func send(_ message: ShortMessage) { while !sender.send(message) { usleepMilliseconds(1) } }
        for channel in 0..<UInt8(16) { send(ShortMessage.programChange(81, channel: channel)) }
        return try sweep(server: server, maxNotes: maxNotes, step: step) { notes in
            for index in notes {
                let (channel, note) = SynthBenchmark.heldNote(index)
                send(ShortMessage.noteOn(note, velocity: 100, channel: channel))
            }
        }
    }

    static func sweep(server: String, maxNotes: Int, step: Int, addNotes: (Range<Int>) -> Void) throws -> Result {
        let watcher = try LoadWatcher(server: server)
        defer { watcher.close() }
        var held = 0
        var heldLoad: Float = 0
        var isolated = 0
        /// Watches for `tenths` of a second: JACK's load is a running average that needs ~0.8 s to settle.
        func watch(tenths: Int) -> (xruns: Int, peakLoad: Float) {
            let xrunsBefore = watcher.xruns.load(ordering: .relaxed)
            var peakLoad: Float = 0
            for _ in 0..<tenths {
                usleepMilliseconds(100)
                peakLoad = max(peakLoad, watcher.client.cpuLoad)
            }
            return (watcher.xruns.load(ordering: .relaxed) - xrunsBefore, peakLoad)
        }
        while held < maxNotes {
            let next = min(held + step, maxNotes)
            addNotes(held..<next)
            var (xruns, peakLoad) = watch(tenths: 8)
            // A virtual machine's timer wakes the dummy driver late now and then, with no client at all: an
            // xrun counts when it happens again while the same notes are held for another 2 s.
            if xruns > 0 {
                let again = watch(tenths: 20)
                if again.xruns == 0 { isolated += xruns } else { xruns += again.xruns }
                peakLoad = max(peakLoad, again.peakLoad)
                if again.xruns > 0 {
                    return Result(notes: held, reason: "xruns at \(next)", load: heldLoad, isolatedXruns: isolated)
                }
            }
            if peakLoad >= 80 {
                return Result(notes: held, reason: String(format: "%.0f %% DSP load at %d", peakLoad, next), load: heldLoad,
                              isolatedXruns: isolated)
            }
            held = next
            heldLoad = peakLoad
        }
        return Result(notes: held, reason: "reached the maximum (\(maxNotes))", load: heldLoad, isolatedXruns: isolated)
    }
}

/// A portless client that counts the server's xruns and the cycles it runs (its process callback is called
/// once per cycle the graph runs); jack_cpu_load on it reads the server's DSP load.
final class LoadWatcher: @unchecked Sendable {
    let client: JackClient
    let xruns = Atomic<Int>(0)
    let cycles = Atomic<Int>(0)

    init(server: String) throws {
        client = try JackClient(name: "backbeat-util", server: server)
        client.setXrunCallback(loadWatcherXrun, argument: Unmanaged.passUnretained(self).toOpaque())
        client.setProcessCallback(loadWatcherCycle, argument: Unmanaged.passUnretained(self).toOpaque())
        try client.activate()
    }

    func close() {
        client.close()
    }
}

private func loadWatcherCycle(_ frames: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let argument else { return 0 }
    Unmanaged<LoadWatcher>.fromOpaque(argument)._withUnsafeGuaranteedRef { _ = $0.cycles.wrappingAdd(1, ordering: .relaxed) }
    return 0
}

private func loadWatcherXrun(_ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let argument else { return 0 }
    Unmanaged<LoadWatcher>.fromOpaque(argument)._withUnsafeGuaranteedRef { _ = $0.xruns.wrappingAdd(1, ordering: .relaxed) }
    return 0
}

/// Process-level figures: resident memory of a running Backbeat and the time `backbeat --help` takes.
public enum ProcessBenchmark {
    /// Resident memory (KiB) of `backbeat --headless ARGS` once it is ready (it prints "ready:"; nothing else
    /// signals): in all, and without JACK's shared segments (/dev/shm/jack-*: the server's port buffers, which
    /// every JACK client maps and jackd owns).
    public static func residentKiB(backbeat: String, arguments: [String], settle: Duration = .seconds(2)) throws -> (total: Int, own: Int) {
        let log = NSTemporaryDirectory() + "backbeat-rss-\(getpid()).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let pid = try ChildProcess.spawn([backbeat, "--headless"] + arguments, output: log)
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0) }
        let deadline = ContinuousClock.now + .seconds(20)
        while !((try? String(contentsOfFile: log, encoding: .utf8))?.contains("ready:") ?? false) {
            guard ContinuousClock.now < deadline else { throw BenchError.notReady(log: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "") }
            usleepMilliseconds(20)
        }
        let settleEnd = ContinuousClock.now + settle
        while ContinuousClock.now < settleEnd { usleepMilliseconds(50) }
        return try residentKiB(pid: pid)
    }

    /// Resident memory (KiB) of process `pid`, in all and without JACK's shared segments.
    public static func residentKiB(pid: pid_t) throws -> (total: Int, own: Int) {
        // /proc files report size 0: read to end of file, not by size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps") else {
            throw BenchError.unreadableMemoryMap(pid: pid, reason: "cannot open it")
        }
        defer { try? handle.close() }
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var total = 0, jackShared = 0
        var inJackSegment = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inJackSegment = fields.count >= 6 && fields[5].hasPrefix("/dev/shm/jack")
            } else if fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                total += kib
                if inJackSegment { jackShared += kib }
            }
        }
        guard total > 0 else { throw BenchError.unreadableMemoryMap(pid: pid, reason: "no Rss lines") }
        return (total, total - jackShared)
    }

    /// Milliseconds from the engine's "ready:" to the workstation's first frame, `backbeat` running in a
    /// tmux terminal of 200x60 on a private server `server` (its --log stamps both). Nil without tmux.
    public static func firstFrameMilliseconds(backbeat: String, server: String) throws -> Double? {
        guard let tmux = ChildProcess.find("tmux") else { return nil }
        let socket = "backbeat-bench-\(getpid())"
        let log = NSTemporaryDirectory() + "backbeat-first-frame-\(getpid()).log"
        try? FileManager.default.removeItem(atPath: log)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let command = "LANG=C.UTF-8 TERM=tmux-256color '\(backbeat)' --server \(server) --no-autoconnect --log '\(log)'"
        let started = try ChildProcess.runMeasured([tmux, "-L", socket, "new-session", "-d", "-s", "bench", "-x", "200", "-y", "60", command])
        guard started.status == 0 else { throw BenchError.commandFailed(command: "tmux new-session", output: started.output) }
        defer { _ = try? ChildProcess.runMeasured([tmux, "-L", socket, "kill-server"]) }
        func stamp(_ text: String) -> Double? {
            let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
            guard let line = lines.first(where: { $0.contains(text) }), line.hasPrefix("["),
                  let close = line.firstIndex(of: "]") else { return nil }
            return Double(line[line.index(after: line.startIndex)..<close])
        }
        // The log file is the only signal the workstation gives from inside its terminal.
        let deadline = ContinuousClock.now + .seconds(20)
        while stamp("first frame") == nil {
            guard ContinuousClock.now < deadline else {
                throw BenchError.noFirstFrame(seconds: 20, log: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
            }
            usleepMilliseconds(20)
        }
        guard let ready = stamp("ready:"), let frame = stamp("first frame") else {
            throw BenchError.noReadyLine
        }
        // q quits; the private server dies with Backbeat. Then the terminal goes.
        _ = try? ChildProcess.runMeasured([tmux, "-L", socket, "send-keys", "-t", "bench", "q"])
        let quitBy = ContinuousClock.now + .seconds(10)
        while stamp("quitting") == nil && ContinuousClock.now < quitBy { usleepMilliseconds(20) }
        return (frame - ready) * 1000
    }

    /// Median wall time of `runs` runs of a command, in milliseconds.
    public static func medianMilliseconds(_ arguments: [String], runs: Int = 21) throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let result = try ChildProcess.runMeasured(arguments)
            let elapsed = ContinuousClock.now - start
            guard result.status == 0 else { throw BenchError.commandFailed(command: arguments.joined(separator: " "), output: "") }
            times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15)
        }
        return times.sorted()[times.count / 2]
    }
}
