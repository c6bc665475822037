import Engine
import Foundation
import Glibc

/// How many frames after a note-on's frame a synth's output starts, measured inside one JACK graph with
/// the probe clients: sender -> synth -> recorder, in the same cycle.
public enum LatencyBenchmark {
    /// Note-on frames of the schedule: half a second apart, offsets that are not period multiples.
    static func noteFrames(count: Int) -> [Int] { (0..<count).map { 12_000 + $0 * 24_000 + ($0 * 37) % 256 } }

    /// Plays `count` notes into `midiIn` and records `audioOut`; returns, per note, the frames between the
    /// note-on's frame and the first sample above `threshold` (nil when no onset was found within 0.25 s).
    /// The default threshold is 0: the first nonzero sample, since an attack ramp starts small.
    public static func measure(server: String, midiIn: String, audioOut: String, count: Int = 6,
                               note: UInt8 = 69, threshold: Float = 0) throws -> [Int?] {
        let sender = try ProbeMIDISender(server: server, name: "bench-out")
        defer { sender.close() }
        let frames = noteFrames(count: count)
        let recorder = try ProbeRecorder(server: server, name: "bench-in", seconds: Double(frames.last! + 24_000) / 48_000)
        defer { recorder.close() }
        try connect(server: server, "\(sender.name):out", midiIn)
        try connect(server: server, audioOut, "\(recorder.name):in_L")
        recorder.start()
        try recorder.waitUntilStarted()
        // All sound off after each note: a sampled piano rings for seconds, and each onset must rise from silence.
        sender.play(frames.flatMap { [ProbeEvent.noteOn($0, note, 110), .noteOff($0 + 6_000, note), .cc($0 + 9_000, 120, 0)] })
        let take = try recorder.waitUntilFull()
        let zero = sender.startFrame.load(ordering: .acquiring) - recorder.firstFrame.load(ordering: .acquiring)
        return frames.map { frame in
            let scheduled = zero + frame
            let window = max(0, scheduled - 2_000)..<min(take.left.count, scheduled + 12_000)
            return window.first { abs(take.left[$0]) > threshold }.map { $0 - scheduled }
        }
    }

    /// jack_connect through a short-lived client of our own.
    static func connect(server: String, _ source: String, _ destination: String) throws {
        let client = try JackClient(name: "backbeat-util", server: server)
        defer { client.close() }
        try client.connect(source, destination)
    }
}

/// Looks a port up by name on a server, through a short-lived client.
public enum JackProbeLookup {
    public static func portExists(_ port: String, server: String) throws -> Bool {
        let client = try JackClient(name: "backbeat-util", server: server)
        defer { client.close() }
        return client.portExists(port)
    }
}
