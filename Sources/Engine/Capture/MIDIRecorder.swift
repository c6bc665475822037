import Foundation
import MIDI
import Synchronization

/// A capture problem, naming the file and the reason.
public struct CaptureError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What the monitor received while recording, with its timing: the events not yet handed on (`takeEvents`,
/// which `MIDIRecorder` calls to write them as it goes), or all of them for `fileBytes`. Times come from the
/// events' JACK frame times, so they are as exact as the engine saw them (demo and keyboard events take
/// effect at the start of a period).
public struct MIDIRecording: Sendable {
    public let sampleRate: Double
    /// Seconds from the start of the recording, and the message (since the last `takeEvents`).
    public private(set) var events: [(seconds: Double, message: MIDIMessage)] = []
    /// Events recorded since the start, taken or not.
    public private(set) var count = 0
    private var lastFrame: UInt32?
    /// Frames from the start to `lastFrame`, unwrapped (JACK frame times wrap at 2^32).
    private var position: UInt64 = 0

    /// `startFrame`: the JACK frame time when recording began (earlier events are not recorded); nil when
    /// unknown (no server yet): the first event is the start.
    public init(sampleRate: Double, startFrame: UInt32?) {
        self.sampleRate = sampleRate > 0 ? sampleRate : 48_000
        lastFrame = startFrame
    }

    /// Adds a monitor event whose whole message (a sysex with its payload) is `message`
    /// (`MonitorEvent.message(takingSysex:)`). Messages the lifecycle gate dropped were never received, so
    /// they are skipped.
    public mutating func add(_ event: MonitorEvent, message: MIDIMessage?) {
        // `out` repeats a message already recorded from its source.
        guard !event.lost, event.source != .out, let message else { return }
        let lastFrame = self.lastFrame ?? event.frameTime
        let step = Int32(bitPattern: event.frameTime &- lastFrame)
        if step < 0 {
            // Before the start, or a hair out of order between sources.
            guard count > 0 else { return }
        } else {
            position += UInt64(step)
            self.lastFrame = event.frameTime
        }
        events.append((Double(position) / sampleRate, message))
        count += 1
    }

    /// Seconds from the start to the last event.
    public var duration: Double { Double(position) / sampleRate }

    /// Hands over the events added since the last call and forgets them.
    public mutating func takeEvents() -> [(seconds: Double, message: MIDIMessage)] {
        defer { events = [] }
        return events
    }

    /// The file: format 0, 960 ticks per quarter note at 120 BPM (about half a millisecond per tick).
    public func fileBytes() -> [UInt8] {
        StandardMIDIFile.format0(events, ticksPerQuarterNote: 960)
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
    private var held: [(seconds: Double, message: MIDIMessage)] = []
    private var heldDropped = 0

    /// Creates the file (a path that cannot be written fails here) and starts the flush thread.
    init(path: String, sampleRate: Double, startFrame: UInt32?) throws(CaptureError) {
        self.path = path
        writer = try SMFStreamWriter(path: path)
        recording = Mutex(MIDIRecording(sampleRate: sampleRate, startFrame: startFrame))
        let thread = Thread { [self] in run() }
        thread.name = "backbeat-midi-recorder"
        thread.start()
    }

    func add(_ event: MonitorEvent, message: MIDIMessage?) { recording.withLock { $0.add(event, message: message) } }

    /// Events recorded so far.
    var count: Int { recording.withLock { $0.count } }
    var seconds: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Writes what is left and closes the file. When the file failed or was removed while recording, writes
    /// everything to the temporary directory instead and says so. Throws only when that fails too.
    func stop() throws(CaptureError) -> CaptureSummary {
        if !stopping.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
        finished.wait()
        finished.signal()  // a second stop returns at once
        let count = self.count
        let seconds = self.seconds
        var problem = failure.withLock { $0 }
        if problem == nil && writer.isRemoved { problem = "cannot write \(path): it was removed while recording" }
        if problem == nil {
            do {
                try writer.close()
                return CaptureSummary(path: path, requestedPath: path, seconds: seconds, count: count, framesDropped: 0, problem: nil,
                                      message: "saved \(count) MIDI events (\(CaptureController.format(seconds)) s) to \(path)")
            } catch {
                problem = error.description
            }
        }
        let reason = problem ?? ""
        let fallback = CaptureFiles.fallbackPath(for: path)
        do {
            let bytes = try writer.contents(appending: held)
            // None of the take reached its own file (the disk was full from the start): the copy holds it all,
            // so no empty file is left where the take was asked to go.
            let emptyHere = writer.events == 0 && !writer.isRemoved
            try? writer.close()
            try OutputFile.write(bytes, to: fallback)
            if emptyHere { unlink(path) }
        } catch {
            throw CaptureError("\(reason); the MIDI recording is lost: \(String(describing: error))")
        }
        let lost = heldDropped > 0 ? " (\(heldDropped) after the first \(Self.maximumHeldEvents) held in memory were lost)" : ""
        return CaptureSummary(path: fallback, requestedPath: path, seconds: seconds, count: count - heldDropped, framesDropped: 0,
                              problem: reason, message: "\(reason); saved the \(count - heldDropped) MIDI events to \(fallback) instead\(lost)")
    }

    private func run() {
        while !stopping.load(ordering: .acquiring) {
            _ = wake.wait(timeout: .now() + Self.flushInterval)
            flush()
        }
        flush()
        finished.signal()
    }

    private func flush() {
        let batch = recording.withLock { $0.takeEvents() }
        guard !batch.isEmpty else { return }
        if failure.withLock({ $0 }) == nil {
            do {
                try writer.append(batch)
                return
            } catch {
                failure.withLock { $0 = error.description }
            }
        }
        let room = max(0, Self.maximumHeldEvents - held.count)
        held += batch.prefix(room)
        heldDropped += batch.count - min(room, batch.count)
    }
}

enum CaptureFiles {
    /// Checks that `path` can be created or overwritten, by creating a probe file next to it. Nothing is
    /// left behind.
    static func checkWritable(_ path: String) throws(CaptureError) {
        guard !path.isEmpty else { throw CaptureError("cannot record to an empty file name") }
        // A take may not replace a file Backbeat reads (its SoundFont, config, theme, preset or scenario).
        do { try OutputFile.refuseInputs([], output: path) } catch { throw CaptureError(error.description) }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw CaptureError("cannot write \(path): the directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else { throw CaptureError("cannot write \(path): \(directory) is not a directory") }
        var existing: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &existing) {
            if existing.boolValue { throw CaptureError("cannot write \(path): it is a directory") }
            let fd = open(path, O_WRONLY | O_APPEND)
            guard fd >= 0 else { throw CaptureError("cannot write \(path): \(String(cString: strerror(errno)))") }
            close(fd)
        }
        let probe = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).probe").path
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw CaptureError("cannot write \(path): \(String(cString: strerror(errno)))") }
        close(fd)
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
