import Foundation
import MIDI
import Synchronization
import SystemPackage

/// How a MIDI take is written.
public struct MIDITakeOptions: Sendable, Equatable {
    /// 1 (the default): a tempo track, then one track per input port; 0: one track.
    public var format: Int = 1
    /// Every byte as it arrived (clock ticks and other system messages as F7 escape events, no tempo from the
    /// clock, no channel state at the start): most readers reject such files.
    public var raw = false
    public init(format: Int = 1, raw: Bool = false) { self.format = format; self.raw = raw }
}

/// One event of a take: seconds from its start, the port it came from (`MIDISource.rawValue`; nil for the
/// take's own events: tempo, markers, the channel state at the start) and what the file stores.
public struct TakeEvent: Sendable, Equatable {
    public var seconds: Double
    public var port: UInt8?
    public var event: StandardMIDIFile.Event
    /// Part of a channel's state at the start of the take, streamed before the channel's first event (the
    /// take learns which channels it uses as they play): the finished file moves it to tick 0.
    public var isSetup: Bool
    public init(seconds: Double, port: UInt8?, event: StandardMIDIFile.Event, isSetup: Bool = false) {
        self.seconds = seconds; self.port = port; self.event = event; self.isSetup = isSetup
    }
}

/// What the monitor received while recording, with its timing, as the events of a take: the events not yet
/// handed on (`takeEvents`, which `MIDIRecorder` calls to write them as it goes), or all of them for
/// `fileBytes`. Times come from the events' JACK frame times, so they are as exact as the engine saw them
/// (demo and keyboard events take effect at the start of a period).
///
/// Unless `options.raw`: MIDI clock becomes Set Tempo events (`ClockTempoTrack`), Start, Stop, Continue,
/// Song Position and Song Select become markers, Active Sensing, Tune Request, MTC quarter frames and Reset
/// are dropped, a sysex continued in another packet is an F7 continuation event, and each channel starts
/// with its state (`ChannelState.setupMessages`) at tick 0: streamed at the start for the channels set before
/// recording, before its first event for the others (moved to tick 0 when the take is finished).
public struct MIDIRecording: Sendable {
    public let sampleRate: Double
    public let options: MIDITakeOptions
    /// Events since the last `takeEvents`, in time order.
    public private(set) var events: [TakeEvent] = []
    /// Messages received since the start (what the user played: the take's own events not counted).
    public private(set) var count = 0
    /// Events the take holds for them: what `smf` lists of it but the take's own tempo, port and start-state
    /// events (clock ticks become tempo, active sensing and the like are dropped).
    public private(set) var written = 0
    private var lastFrame: UInt32?
    /// Frames from the start to `lastFrame`, unwrapped (JACK frame times wrap at 2^32).
    private var position: UInt64 = 0
    private var tempo: ClockTempoTrack
    private var channels: ChannelStateTracker
    private var started: Set<UInt8> = []
    private var openSysex: Set<UInt8> = []
    private let setup: @Sendable (UInt8, ChannelState) -> [MIDIMessage]

    /// `startFrame`: the JACK frame time when recording began (earlier events are not recorded); nil when
    /// unknown (no server yet): the first event is the start. `tempo` and `channels`: the clock and channel
    /// state seen before the take (fed whether or not a take runs); `setup` gives the messages that restore
    /// a channel's state (the program that selects what plays).
    public init(sampleRate: Double, startFrame: UInt32?, options: MIDITakeOptions = MIDITakeOptions(),
                tempo: ClockTempoTrack = ClockTempoTrack(), channels: ChannelStateTracker = ChannelStateTracker(),
                setup: @escaping @Sendable (UInt8, ChannelState) -> [MIDIMessage] = { $1.setupMessages(channel: $0) }) {
        self.sampleRate = sampleRate > 0 ? sampleRate : 48_000
        self.options = options
        self.tempo = tempo
        self.channels = channels
        self.setup = setup
        lastFrame = startFrame
        initialMicrosecondsPerQuarter = options.raw ? StandardMIDIFile.defaultMicrosecondsPerQuarterNote
            : tempo.microsecondsPerQuarter ?? StandardMIDIFile.defaultMicrosecondsPerQuarterNote
        guard !options.raw else { return }
        for ch in 0..<16 where channels[ch].isSet {
            started.insert(UInt8(ch))
            events += setup(UInt8(ch), channels[ch]).map { TakeEvent(seconds: 0, port: nil, event: .message($0)) }
        }
    }

    /// The tempo the take starts with: the clock's when one was running, else 120 BPM.
    public let initialMicrosecondsPerQuarter: UInt32

    /// Adds a monitor event whose whole message (a sysex with its payload) is `message`
    /// (`MonitorEvent.message(takingSysex:)`). Messages the lifecycle gate dropped were never received, so
    /// they are skipped.
    public mutating func add(_ event: MonitorEvent, message: MIDIMessage?) {
        // `out` repeats a message already recorded from its source.
        guard !ended, !event.lost, event.source != .out, let message else { return }
        let lastFrame = self.lastFrame ?? event.frameTime
        let step = Int32(bitPattern: event.frameTime &- lastFrame)
        if step < 0 {
            // Before the start, or a hair out of order between sources.
            guard count > 0 else { return }
        } else {
            position += UInt64(step)
            self.lastFrame = event.frameTime
        }
        count += 1
        add(message, at: Double(position) / sampleRate, port: event.source.rawValue)
    }

    /// True once `end` placed the take's End of Track: nothing is added after it.
    public private(set) var ended = false

    /// Ends the take at JACK frame time `frame` (the stop), so that its End of Track is there and not at its
    /// last event: a MIDI take and the audio take of the same press last as long. A frame before the last
    /// event (or none: no server) ends it at its last event, as a take without `end` does.
    public mutating func end(atFrame frame: UInt32?) {
        guard !ended else { return }
        ended = true
        guard count > 0 else { return }  // nothing received: no take, nothing to end
        if let frame, let lastFrame {
            let step = Int32(bitPattern: frame &- lastFrame)
            if step > 0 { position += UInt64(step); self.lastFrame = frame }
        }
        events.append(TakeEvent(seconds: duration, port: nil, event: .meta(StandardMIDIFile.MetaEvent(type: StandardMIDIFile.MetaType.endOfTrack, data: []))))
    }

    /// Adds a message received at `seconds` from `port`.
    public mutating func add(_ message: MIDIMessage, at seconds: Double, port: UInt8) {
        guard !ended else { return }
        func append(_ e: StandardMIDIFile.Event, port: UInt8? = port) {
            events.append(TakeEvent(seconds: seconds, port: port, event: e))
            written += 1
        }
        if options.raw { append(.message(message)); return }
        if let set = tempo.settle(now: seconds) { insertTempo(set) }
        func marker(_ text: String) { append(.meta(StandardMIDIFile.MetaEvent(type: StandardMIDIFile.MetaType.marker, data: Array(text.utf8))), port: nil) }
        switch message {
        case .timingClock, .start, .continue, .stop:
            let status = message.bytes[0]
            if let set = tempo.receive(status, at: seconds) { insertTempo(set) }
            switch message {
            case .start: marker("Start")
            case .continue: marker("Continue")
            case .stop: marker("Stop")
            default: break
            }
        case .songPosition(let m): marker("Song Position \(m.position)")
        case .songSelect(let m): marker("Song Select \(m.song)")
        case .activeSensing, .tuneRequest, .mtcQuarterFrame, .systemReset: break
        case .systemExclusive(let sysex):
            if openSysex.contains(port) {
                append(.escape(sysex.data.map { $0 & 0x7F } + (sysex.isTerminated ? [SystemStatus.endOfExclusive] : [])))
            } else {
                append(.sysex(sysex))
            }
            if sysex.isTerminated { openSysex.remove(port) } else { openSysex.insert(port) }
        default:
            if let ch = message.channel.map({ $0 & 0x0F }), !started.contains(ch) {
                started.insert(ch)
                // The channel's state as the take began (nothing on it has changed since): tick 0 in the file.
                for m in setup(ch, channels[Int(ch)]) { events.append(TakeEvent(seconds: seconds, port: port, event: .message(m), isSetup: true)) }
            }
            channels.apply(message)
            append(.message(message))
        }
    }

    /// A Set Tempo at its time, which may be a clock tick before the last event (the first tick of a run).
    private mutating func insertTempo(_ set: (seconds: Double, microseconds: UInt32)) {
        let event = TakeEvent(seconds: set.seconds, port: nil, event: .meta(StandardMIDIFile.tempoEvent(set.microseconds)))
        let index = events.lastIndex { $0.seconds <= set.seconds }.map { $0 + 1 } ?? 0
        events.insert(event, at: index)
    }

    /// Seconds from the start to the last event.
    public var duration: Double { Double(position) / sampleRate }

    /// Hands over the events added since the last call and forgets them; while a clock's first tempo is
    /// being measured (a beat), the events from its first tick on wait, so that the tempo goes before them
    /// (`all`: everything, when the take ends).
    public mutating func takeEvents(all: Bool = false) -> [TakeEvent] {
        if !all, let start = tempo.runStart {
            let split = events.firstIndex { $0.seconds >= start } ?? events.count
            defer { events.removeFirst(split) }
            return Array(events[..<split])
        }
        defer { events = [] }
        return events
    }

    /// The whole take as a file (the events not yet taken), as the streaming writer would leave it.
    public func fileBytes() -> [UInt8] {
        SMFStreamWriter.finished(SMFStreamWriter.stream(events, options: options, initialTempo: initialMicrosecondsPerQuarter), options: options)
    }
}

/// Records MIDI to a file as it arrives: events go to memory from the UI thread (`add`), and a thread of
/// its own appends them to an `SMFStreamWriter` every half second, so memory stays bounded on long takes
/// and a crash or SIGKILL leaves a valid file with all but the last half second or so.
final class MIDIRecorder: @unchecked Sendable {
    let path: String
    let started = ContinuousClock.now
    static let flushInterval = 0.5
    /// Events kept in memory after the file failed, for the fallback file (beyond: counted, not kept).
    static let maximumHeldEvents = 1_000_000

    private let recording: Mutex<MIDIRecording>
    private let writer: SMFStreamWriter
    private let failure = Mutex<String?>(nil)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    // The flush thread's own, then `stop`'s once it has finished.
    private var held: [TakeEvent] = []
    private var heldDropped = 0

    /// Creates the file (a path that cannot be written fails here) and starts the flush thread.
    init(path: String, recording: MIDIRecording) throws(SystemError) {
        self.path = path
        writer = try SMFStreamWriter(path: path, options: recording.options, initialTempo: recording.initialMicrosecondsPerQuarter)
        self.recording = Mutex(recording)
        let thread = Thread { [self] in run() }
        thread.name = "backbeat-midi-recorder"
        thread.start()
    }

    func add(_ event: MonitorEvent, message: MIDIMessage?) { recording.withLock { $0.add(event, message: message) } }

    /// Messages received so far, and the events the take holds for them.
    var count: Int { recording.withLock { $0.count } }
    var events: Int { recording.withLock { $0.written } }
    var seconds: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Writes what is left and closes the file. When the file failed or was removed while recording, writes
    /// everything to the temporary directory instead and says so. Throws only when that fails too. Nothing
    /// recorded, or nothing that reached the file: whatever was at `path` before stays as it was.
    /// `endFrame`: the JACK frame time of the stop, where the take's End of Track goes.
    func stop(endFrame: UInt32? = nil) throws(SystemError) -> CaptureSummary {
        recording.withLock { $0.end(atFrame: endFrame) }
        if !stopping.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
        finished.wait()
        finished.signal()  // a second stop returns at once
        let count = self.count, events = self.events
        let seconds = self.seconds
        var problem = failure.withLock { $0 }
        if problem == nil && writer.isRemoved { problem = "cannot write \(path): it was removed while recording" }
        if problem == nil && count == 0 {
            // Nothing was played: no file is left to mistake for a take, and none is replaced.
            writer.discard()
            return CaptureSummary(path: path, requestedPath: path, seconds: seconds, count: 0, framesDropped: 0, problem: nil,
                                  message: "nothing recorded: no MIDI arrived, so no take was saved to \(path)")
        }
        // The whole take as the stream holds it, read back before the file is closed: the fallback copy's
        // source if anything below fails.
        let streamed: [UInt8]
        do {
            streamed = try writer.contents(appending: held)
        } catch {
            writer.discard()
            let kept = writer.isPublished ? "; \(path) keeps the take up to the last half second written" : ""
            throw SystemError("\(problem.map { $0 + "; " } ?? "")the MIDI recording is lost: \(error.description)\(kept)")
        }
        if problem == nil {
            do {
                try finish(streamed)
                return CaptureSummary(path: path, requestedPath: path, seconds: seconds, count: events, framesDropped: 0, problem: nil,
                                      message: "saved \(events) MIDI event\(events == 1 ? "" : "s") (\(CaptureController.format(seconds)) s) to \(path)")
            } catch {
                problem = error.description
            }
        }
        let reason = problem ?? ""
        let fallback = CaptureFiles.fallbackPath(for: path)
        // A take that never reached its own file (the disk was full from the start) leaves nothing there: its
        // temporary file goes, whatever was at `path` stays. One that did keeps what was written.
        if writer.isPublished { try? writer.close() } else { writer.discard() }
        do {
            try OutputFile.write(SMFStreamWriter.finished(streamed, options: writer.options), to: fallback)
        } catch {
            throw SystemError("\(reason); the MIDI recording is lost: \(String(describing: error))")
        }
        let lost = heldDropped > 0 ? " (\(heldDropped) after the first \(Self.maximumHeldEvents) held in memory were lost)" : ""
        let kept = max(0, events - heldDropped)
        return CaptureSummary(path: fallback, requestedPath: path, seconds: seconds, count: kept, framesDropped: 0,
                              problem: reason, message: "\(reason); saved the \(kept) MIDI event\(kept == 1 ? "" : "s") to \(fallback) instead\(lost)")
    }

    /// Closes the streamed file; a format 1 take is then rewritten from `streamed` (beside it, renamed into
    /// place, so a crash meanwhile leaves the streamed take).
    private func finish(_ streamed: [UInt8]) throws(SystemError) {
        try writer.publish()  // MIDI arrived (active sensing alone leaves no events): the take is at `path` all the same
        try writer.close()
        let bytes = SMFStreamWriter.finished(streamed, options: writer.options)
        guard bytes != streamed else { return }
        try OutputFile.write(bytes, to: path, replacingReadFiles: true)
    }

    private func run() {
        while !stopping.load(ordering: .acquiring) {
            _ = wake.wait(timeout: .now() + Self.flushInterval)
            flush()
        }
        flush(all: true)
        finished.signal()
    }

    private func flush(all: Bool = false) {
        let batch = recording.withLock { $0.takeEvents(all: all) }
        guard !batch.isEmpty else { return }
        if failure.withLock({ $0 }) == nil {
            do {
                try writer.append(batch)
            } catch {
                failure.withLock { $0 = error.description }
                return hold(batch)
            }
            // The events are in the stream now, whether or not it can take the path's place.
            do { try writer.publish() } catch { failure.withLock { $0 = error.description } }
            return
        }
        hold(batch)
    }

    /// Keeps `batch` in memory for the fallback copy (beyond the bound: counted, not kept).
    private func hold(_ batch: [TakeEvent]) {
        let room = max(0, Self.maximumHeldEvents - held.count)
        held += batch.prefix(room)
        heldDropped += batch.count - min(room, batch.count)
    }
}

enum CaptureFiles {
    /// Checks that `path` can be created or overwritten, by creating a probe file next to it. Nothing is
    /// left behind. A path that is not a regular file (a device node, a FIFO) is refused: a take is a file.
    static func checkWritable(_ path: String) throws(SystemError) {
        guard !path.isEmpty else { throw SystemError("cannot record to an empty file name") }
        // A take may not replace a file Backbeat reads (its SoundFont, config, theme, preset or scenario) or
        // writes (its log).
        try OutputFile.refuseInputs([], output: path)
        try OutputFile.requireRegular(path, what: "a take")
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw SystemError("cannot write \(path): the directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else { throw SystemError("cannot write \(path): \(directory) is not a directory") }
        var existing: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &existing) {
            if existing.boolValue { throw SystemError("cannot write \(path): it is a directory") }
            do {
                try FileDescriptor.open(FilePath(path), .writeOnly, options: [.append, .closeOnExec, .nonBlocking]).close()
            } catch {
                throw SystemError("cannot write \(path)", error)
            }
        }
        let probe = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).probe").path
        do {
            try FileDescriptor.open(FilePath(probe), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                    permissions: [.ownerReadWrite, .groupRead, .otherRead]).close()
        } catch {
            throw SystemError("cannot write \(path)", error)
        }
        unlink(probe)
    }

    /// Where a recording goes when its own file cannot be written: the temporary directory.
    static func fallbackPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let stamp = Int(Date().timeIntervalSince1970)
        let name = "backbeat-\(stamp)-\(getpid())-\(url.lastPathComponent.isEmpty ? "recording.mid" : url.lastPathComponent)"
        return FileManager.default.temporaryDirectory.appendingPathComponent(name).path
    }
}
