import Foundation
import MIDI
import Realtime

/// Plays a queue of MIDI files live through the engine (`backbeat play`): a reader thread of its own (never the
/// real-time thread) walks each song's messages, gives each the frame time at which it takes effect, and pushes
/// it into the engine's player ring ahead of time (up to `Options.window` seconds), sleeping on a condition
/// between batches; the callback applies each at its frame (`RealtimeContext.playEvents`). The first song
/// starts `Options.lead` periods after the engine's current frame time; each next one where the last ended.
/// `start` and `stop` may be called from any thread; `stop` returns once the thread has ended, so the ring
/// keeps a single producer.
public final class SongPlayer: @unchecked Sendable {
    public struct Options: Sendable {
        /// Play the queue again from its first file when it ends.
        public var loop = false
        /// Play through the synth as well as send on the MIDI outputs (false: the outputs only).
        public var toSynth = true
        /// Periods between the engine's frame time and the first song's start (at least 20 ms).
        public var lead = 4
        /// Seconds of events pushed ahead of their frames.
        public var window = 0.5

        public init(loop: Bool = false, toSynth: Bool = true) {
            self.loop = loop
            self.toSynth = toSynth
        }
    }

    /// What the player shows: the song playing, where it is, and whether the queue has ended.
    public struct Status: Sendable, Equatable {
        public var name: String
        /// The song's place in the queue (0-based) and the queue's length.
        public var index: Int, count: Int
        /// Seconds from the song's start (0 before it starts), and its length.
        public var position: Double, duration: Double
        /// The queue has played to its end (its last song's last frame has passed).
        public var finished: Bool
        /// Events the callback met after their frame had passed, since the engine started.
        public var late: Int
    }

    private let engine: Engine
    private let queue: [Song]
    private let options: Options
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var stopRequested = false, running = false, finished = false
    private var current: (name: String, index: Int, start: UInt32, length: Int, duration: Double)?
    private let ended = DispatchSemaphore(value: 0)

    public init(engine: Engine, queue: [Song], options: Options = Options()) {
        self.engine = engine
        self.queue = queue
        self.options = options
    }

    deinit { stop() }

    /// Starts the queue from its first file; does nothing when it already plays or has played.
    public func start() {
        condition.lock(); defer { condition.unlock() }
        guard !running && !finished else { return }
        running = true
        let thread = Thread { [self] in
            play()
            condition.lock()
            finished = true
            condition.unlock()
            ended.signal()
        }
        thread.name = "backbeat-player"
        thread.start()
    }

    /// Stops feeding the ring and waits for the thread to end. What it pushed plays out, then every channel's
    /// notes are released (sustain lifted) just after it.
    public func stop() {
        condition.lock()
        guard running, !stopRequested else { condition.unlock(); return }
        stopRequested = true
        condition.broadcast()
        condition.unlock()
        ended.wait()
    }

    /// The queue has played to its end, or was stopped, or had nothing to play.
    public var isFinished: Bool {
        condition.lock(); defer { condition.unlock() }
        return finished
    }

    /// Where the player is; nil before its first song starts.
    public func status() -> Status? {
        let now = engine.frameTime()
        let rate = Double(max(engine.sampleRate, 1))
        let late = engine.playerLateEvents
        condition.lock(); defer { condition.unlock() }
        guard let current else { return nil }
        let elapsed = now.map { Double(Int32(bitPattern: $0 &- current.start)) / rate } ?? 0
        return Status(name: current.name, index: current.index, count: queue.count,
                      position: min(max(elapsed, 0), current.duration), duration: current.duration, finished: finished, late: late)
    }

    // MARK: The reader thread

    private func play() {
        let rate = Double(max(engine.sampleRate, 1))
        let window = Int(options.window * rate)
        var next: UInt32?  // where the next song starts: the last one's end
        var lastPushed: UInt32?
        repeat {
            var played = 0
            for (index, song) in queue.enumerated() {
                guard !stopping(), let now = waitForFrameTime() else { break }
                let earliest = now &+ UInt32(leadFrames(rate: rate))
                let start = next.map { Int32(bitPattern: $0 &- earliest) >= 0 ? $0 : earliest } ?? earliest
                let schedule = SongSchedule(song, sampleRate: rate)
                condition.lock()
                current = (song.name, index, start, schedule.length, song.duration)
                condition.unlock()
                if played > 0 || next != nil { resetChannels(at: start) }
                played += 1
                for i in schedule.events.indices {
                    let due = schedule.frameTime(of: i, start: start)
                    guard waitUntil(due, isWithin: window), push(schedule, i, start: start) else { break }
                    lastPushed = due
                }
                next = start &+ UInt32(truncatingIfNeeded: schedule.length)
                // The next song is scheduled no further ahead than events are (a looped empty song would spin).
                guard waitUntil(start &+ UInt32(truncatingIfNeeded: schedule.length), isWithin: window) else { break }
            }
            if played == 0 { break }
        } while options.loop && !stopping()
        if stopping() {
            if let lastPushed { releaseChannels(at: lastPushed &+ 1) }
        } else if let next {
            _ = waitUntil(next, isWithin: 0)
        }
    }

    private func stopping() -> Bool {
        condition.lock(); defer { condition.unlock() }
        return stopRequested
    }

    /// Sleeps on the condition for `seconds` (stop wakes it); false when stopping.
    private func sleep(_ seconds: Double) -> Bool {
        condition.lock(); defer { condition.unlock() }
        if !stopRequested { _ = condition.wait(until: Date(timeIntervalSinceNow: max(seconds, 0.001))) }
        return !stopRequested
    }

    /// The engine's frame time, waiting while no backend runs (JACK away); nil when stopping.
    private func waitForFrameTime() -> UInt32? {
        while true {
            if let now = engine.frameTime() { return now }
            guard sleep(0.1) else { return nil }
        }
    }

    private func leadFrames(rate: Double) -> Int {
        max(options.lead * max(engine.status().periodFrames, 1), Int(0.02 * rate))
    }

    /// Waits until `frameTime` is at most `window` frames ahead of the engine's; false when stopping.
    private func waitUntil(_ frameTime: UInt32, isWithin window: Int) -> Bool {
        let rate = Double(max(engine.sampleRate, 1))
        while true {
            guard let now = waitForFrameTime() else { return false }
            let ahead = Int(Int32(bitPattern: frameTime &- now)) - window
            if ahead <= 0 { return !stopping() }
            // Half a window later: one wake-up pushes the next half window of events, each still at least half a
            // window ahead of its frame.
            guard sleep(Double(ahead) / rate + options.window / 2) else { return false }
        }
    }

    /// Pushes event `index` (a sysex's bytes first), waiting while the rings are full; false when stopping.
    private func push(_ schedule: SongSchedule, _ index: Int, start: UInt32) -> Bool {
        let event = schedule.playerEvent(index, start: start, toSynth: options.toSynth)
        let sysex = schedule.events[index].sysex
        let bytes = engine.context.playerSysexRing
        if !sysex.isEmpty {
            // A sysex longer than the whole ring is none a synth answers: it is left out.
            guard sysex.count <= bytes.capacity else { return true }
            while bytes.capacity - bytes.count < sysex.count { guard sleep(0.005) else { return false } }
            _ = sysex.withUnsafeBufferPointer { bytes.push(contentsOf: $0) }
        }
        return pushEvent(event)
    }

    private func pushEvent(_ event: PlayerEvent) -> Bool {
        let ring = engine.context.playerRing
        while ring.capacity - ring.count < 1 { guard sleep(0.005) else { return false } }
        return ring.push(event)
    }

    /// Before a song that follows another: every channel's controllers reset, as a render starts them.
    private func resetChannels(at frameTime: UInt32) {
        for channel in UInt8(0)..<16 {
            _ = pushEvent(PlayerEvent(frameTime: frameTime, message: ShortMessage(status: 0xB0 | channel, data1: 121, data2: 0),
                                      toSynth: options.toSynth))
        }
    }

    /// After a stop: sustain lifted and all notes off on every channel (the queue's already pushed notes end).
    private func releaseChannels(at frameTime: UInt32) {
        let ring = engine.context.playerRing
        for channel in UInt8(0)..<16 {
            for (controller, value) in [(UInt8(64), UInt8(0)), (123, 0)] where ring.capacity - ring.count > 0 {
                _ = ring.push(PlayerEvent(frameTime: frameTime, message: ShortMessage(status: 0xB0 | channel, data1: controller, data2: value),
                                          toSynth: options.toSynth))
            }
        }
    }
}
