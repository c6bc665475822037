import Foundation
import MIDI
import Realtime

/// Plays a queue of MIDI files live through the engine (`backbeat play`): a reader thread of its own (never the
/// real-time thread) walks each song's messages, gives each the frame time at which it takes effect, and pushes
/// it into the engine's player ring ahead of time (up to `Options.window` seconds), sleeping on a condition
/// between batches; the callback applies each at its frame (`RealtimeContext.playEvents`). The first song
/// starts `Options.lead` periods after the engine's current frame time; each next one where the last ended.
/// Transport requests (`send`) drop what was pushed and not yet played (`RealtimeContext.playEvents` skips the
/// events of an older generation), release the sounding notes, and go on from the new place with every
/// channel's state chased there (`SongEdit`).
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
        /// The tempo the queue starts at (1: the files'; the transport keys change it) and where the first file
        /// starts (`--start`; its bars are the file's own, whatever the tempo).
        public var tempo = 1.0
        public var start: SongStart?

        public init(loop: Bool = false, toSynth: Bool = true) {
            self.loop = loop
            self.toSynth = toSynth
        }
    }

    /// What the workstation's transport keys ask of the player while it plays.
    public enum Transport: Sendable, Equatable {
        /// Pause (every sounding note released, sustain lifted), or resume where it paused.
        case togglePause
        /// Seek by whole bars from the bar playing (by 2 s a bar in a file without bars).
        case bars(Int)
        /// The next (1) or previous (-1) file of the queue.
        case songs(Int)
        /// The song from its start.
        case restart
        /// Tempo faster (positive) or slower by this many percent of the file's, within 25...400 %.
        case tempo(Int)
        /// Every note but the drum parts' (`SongEdit.transpose`) moved by this many semitones more, within -24...24.
        case transpose(Int)
        /// To a bar or a time of the song playing (clamped to its end), with every channel's state chased there.
        case seek(SongStart)
        /// The A/B loop's end here: play goes back to A (the song's start without one) and loops between them
        /// until `clearLoop`. (Setting A, `setLoopStart`, changes nothing that plays.)
        case loopHere
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
        /// Paused by `Transport.togglePause`.
        public var paused = false
        /// The tempo (percent of the file's) and transposition the transport keys set.
        public var tempo = 100, transpose = 0
        /// The A/B loop's points in seconds of the song (B nil: no loop yet).
        public var loopA: Double?, loopB: Double?
        /// Where the song is in bars: the bar (1 is the first) and the beat in it (1 is the first, with its
        /// fraction); nil in a song without bars.
        public var bar: Int?, beat: Double?
    }

    let engine: Engine
    let queue: [Song]
    let options: Options
    let condition = NSCondition()
    /// The song playing: its place in the queue, the frame time its schedule starts at, the second of the song
    /// that frame plays (after a seek), its length. Guarded by `condition`, as the flags are.
    struct Current {
        var name: String, index: Int, start: UInt32, offset: Double, duration: Double, paused = false
        /// The transport keys' tempo (1: the file's) and transposition: seconds of the song pass `tempo` times
        /// as fast as the frames.
        var tempo = 1.0, transpose = 0
    }
    var current: Current?
    /// The A/B loop of the song at `index` of the queue (another song forgets it). Guarded by `condition`.
    var loop: (index: Int, a: Double?, b: Double?)?
    var stopRequested = false, running = false, finished = false
    /// A transport request the reader thread has not taken yet.
    var transport: [Transport] = []
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

    /// Asks the reader thread for `request` (after those not yet taken, in order); nothing once the queue has ended.
    public func send(_ request: Transport) {
        condition.lock(); defer { condition.unlock() }
        guard running, !finished else { return }
        if transport.count < 64 { transport.append(request) }
        condition.broadcast()
    }

    /// Sets the A/B loop's start where the song is now; nil when no song plays.
    @discardableResult
    public func setLoopStart() -> Double? {
        guard let position = status()?.position else { return nil }
        condition.lock(); defer { condition.unlock() }
        guard let current else { return nil }
        let b = loop.flatMap { $0.index == current.index ? $0.b : nil }
        loop = (current.index, position, b.flatMap { $0 > position ? $0 : nil })
        return position
    }

    /// Sets the A/B loop's end where the song is now and goes back to A; nil when no song plays or B would not
    /// be after A.
    @discardableResult
    public func setLoopEnd() -> Double? {
        guard let position = status()?.position else { return nil }
        condition.lock()
        guard running, !finished, let current else { condition.unlock(); return nil }
        let a = loop.flatMap { $0.index == current.index ? $0.a : nil }
        guard position > (a ?? 0) else { condition.unlock(); return nil }
        loop = (current.index, a, position)
        condition.unlock()
        send(.loopHere)
        return position
    }

    /// Ends the A/B loop: play goes on past B.
    public func clearLoop() {
        condition.lock(); defer { condition.unlock() }
        loop = nil
    }

    /// The song playing (as queued: its bars, lyrics and markers); nil before the first starts.
    public func currentSong() -> Song? {
        condition.lock(); defer { condition.unlock() }
        guard let current, queue.indices.contains(current.index) else { return nil }
        return queue[current.index]
    }

    /// Why a seek to `start` cannot be played in the song playing, or nil (`SongEdit.startRefusal`).
    public func seekRefusal(_ start: SongStart) -> String? {
        condition.lock(); defer { condition.unlock() }
        guard let current, queue.indices.contains(current.index) else { return "no song is playing" }
        let song = queue[current.index]
        if case .bar(let bar) = start, song.bars == nil { return "bar \(bar): \(song.name) has no bars (SMPTE time); type a time (M:SS)" }
        var edit = SongEdit()
        edit.start = start
        return edit.startRefusal(for: song, file: nil).map { $0.replacingOccurrences(of: "--start ", with: "") }
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
        let elapsed = current.paused ? 0 : now.map { Double(Int32(bitPattern: $0 &- current.start)) / rate } ?? 0
        let position = min(max(current.offset + max(elapsed, 0) * current.tempo, 0), current.duration)
        let loop = self.loop.flatMap { $0.index == current.index ? $0 : nil }
        let place = queue.indices.contains(current.index) ? queue[current.index].place(at: position) : nil
        return Status(name: current.name, index: current.index, count: queue.count, position: position,
                      duration: current.duration, finished: finished, late: late, paused: current.paused,
                      tempo: Int((current.tempo * 100).rounded()), transpose: current.transpose,
                      loopA: loop?.a, loopB: loop?.b, bar: place?.bar, beat: place?.beat)
    }
}
