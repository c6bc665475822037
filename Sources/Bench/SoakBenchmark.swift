import Engine
import Foundation
import MIDI
import Realtime

/// The long run of the performance issue: Backbeat at a small period with many voices held and random MIDI
/// arriving at a steady rate through real JACK MIDI, for minutes. Reports what must stay at zero (xruns,
/// ring drops), the callback duration's p99.9 against the period (the RT histogram), and memory growth.
public enum SoakBenchmark {
    public struct Report: Sendable {
        public var seconds: Double
        public var period: Int
        public var xruns: Int
        public var ringDrops: Int
        public var eventsSent: Int
        public var eventsReceived: Int
        public var p999Nanoseconds: UInt64
        public var maxNanoseconds: UInt64
        public var periodNanoseconds: Double
        public var residentStartKiB: Int
        public var residentEndKiB: Int
        /// When `residentStartKiB` was read, in seconds from the start.
        public var warmUpSeconds: Double
    }

    /// Runs `engine` (already started on `server`) for `seconds`, holding `voices` notes and sending random
    /// channel messages at `eventsPerSecond` into its midi_in. `drain` is called ~30 times a second on this
    /// thread (a UI's frame: the consumer of the engine's events).
    public static func run(engine: Engine, server: String, seconds: Double, voices: Int, eventsPerSecond: Int,
                           drain: () -> Void) throws -> Report {
        var before = engine.status()
        var residentStart: Int?
        let traffic = try drive(server: server, midiIn: "\(engine.status().clientName):midi_in", seconds: seconds,
                                voices: voices, eventsPerSecond: eventsPerSecond, drain: drain,
                                started: { engine.callbackDurations.reset(); before = engine.status() },
                                warmedUp: { residentStart = residentKiBOfThisProcess() })
        // Events still on their way (the sender's ring, the next periods) are waited for, up to a second.
        let expected = before.midiReceived + traffic.sent
        for _ in 0..<100 where engine.status().midiReceived < expected { drain(); usleepMilliseconds(10) }
        drain()
        let after = engine.status()
        let periodNanoseconds = after.sampleRate > 0 ? Double(after.periodFrames) / Double(after.sampleRate) * 1e9 : 0
        return Report(seconds: seconds, period: after.periodFrames, xruns: after.xruns - before.xruns,
                      ringDrops: after.ringDrops - before.ringDrops, eventsSent: traffic.sent,
                      eventsReceived: after.midiReceived - before.midiReceived,
                      p999Nanoseconds: engine.callbackDurations.percentile(0.999) ?? 0,
                      maxNanoseconds: engine.callbackDurations.max, periodNanoseconds: periodNanoseconds,
                      residentStartKiB: residentStart ?? residentKiBOfThisProcess(), residentEndKiB: residentKiBOfThisProcess(),
                      warmUpSeconds: traffic.warmUp)
    }

    /// The same traffic into JACK's example synth `jack_midisine` (a client that does next to nothing per
    /// period) on the same server: its xruns are what the machine and JACK cost at this period. Nil when
    /// jack_midisine is not installed.
    public static func referenceXruns(server: String, seconds: Double, voices: Int, eventsPerSecond: Int) throws -> Int? {
        guard let midisine = try ReferenceClient.start(["jack_midisine"], server: server, waitingFor: "midisine:midi_in") else { return nil }
        defer { midisine.stop() }
        try? LatencyBenchmark.connect(server: server, "midisine:audio_out", "system:playback_1")
        let watcher = try LoadWatcher(server: server)
        defer { watcher.close() }
        var xrunsBefore = 0
        _ = try drive(server: server, midiIn: "midisine:midi_in", seconds: seconds, voices: voices,
                      eventsPerSecond: eventsPerSecond, drain: {},
                      started: { xrunsBefore = watcher.xruns.load(ordering: .relaxed) }, warmedUp: {})
        return watcher.xruns.load(ordering: .relaxed) - xrunsBefore
    }

    /// Holds `voices` notes on `midiIn`, calls `started`, then sends random channel messages at
    /// `eventsPerSecond` for `seconds` (notes above the held range, mod wheel and bends on any channel),
    /// calling `drain` every 33 ms and `warmedUp` once after a warm-up (min(30 s, seconds / 4)).
    static func drive(server: String, midiIn: String, seconds: Double, voices: Int, eventsPerSecond: Int,
                      drain: () -> Void, started: () -> Void, warmedUp: () -> Void) throws -> (sent: Int, warmUp: Double) {
        let sender = try ProbeMIDISender(server: server, name: "soak-out")
        defer { sender.close() }
        try LatencyBenchmark.connect(server: server, "\(sender.name):out", midiIn)
        func send(_ message: ShortMessage) { while !sender.send(message) { usleepMilliseconds(1) } }
        for index in 0..<voices {
            let (channel, note) = SynthBenchmark.heldNote(index)
            send(ShortMessage.noteOn(note, velocity: 90, channel: channel))
        }
        usleepMilliseconds(500)
        started()
        // Memory is compared from the end of a warm-up (a UI's bounded logs fill in the first seconds).
        let warmUp = min(30, seconds / 4)
        var warm = false
        var random = SystemRandomNumberGenerator()
        var sent = 0
        let start = ContinuousClock.now
        var nextFrame = start
        while true {
            let elapsed = ContinuousClock.now - start
            let t = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if t >= seconds { break }
            if !warm && t >= warmUp { warm = true; warmedUp() }
            // Events due by now at the steady rate: notes above the held range, CCs and bends on held channels.
            while Double(sent) < t * Double(eventsPerSecond) {
                let channel = UInt8.random(in: 0..<16, using: &random)
                switch sent % 4 {
                case 0: send(ShortMessage.noteOn(UInt8.random(in: 100...127, using: &random), velocity: 80, channel: channel))
                case 1: send(ShortMessage.noteOff(UInt8.random(in: 100...127, using: &random), channel: channel))
                case 2: send(ShortMessage.controlChange(.modulationWheel, value: UInt8.random(in: 0...127, using: &random), channel: channel))
                default: send(ShortMessage(.pitchBend, channel: channel, data1: 0, data2: UInt8.random(in: 48...80, using: &random)))
                }
                sent += 1
            }
            if ContinuousClock.now >= nextFrame {
                drain()
                nextFrame = nextFrame + .milliseconds(33)
            }
            usleepMilliseconds(1)
        }
        return (sent, warmUp)
    }

    /// Xruns the server `server` has over `seconds` with no client but a portless watcher: what the machine
    /// itself costs (a virtual machine's timer wakes the dummy driver late now and then).
    public static func idleXruns(server: String, seconds: Double) throws -> Int {
        let watcher = try LoadWatcher(server: server)
        defer { watcher.close() }
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < end { usleepMilliseconds(100) }
        return watcher.xruns.load(ordering: .relaxed)
    }

    /// VmRSS of this process (KiB), read to end of file (/proc files report size 0).
    static func residentKiBOfThisProcess() -> Int {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return 0 }
        defer { try? handle.close() }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
