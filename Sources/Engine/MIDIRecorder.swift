import Foundation
import MIDI

/// A capture problem, naming the file and the reason.
public struct CaptureError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What the monitor received while recording, kept in memory with its timing and written as a format 0
/// Standard MIDI File at the end. Times come from the events' JACK frame times, so they are as exact as
/// the engine saw them (demo and keyboard events take effect at the start of a period).
public struct MIDIRecording: Sendable {
    public let sampleRate: Double
    /// Seconds from the start of the recording, and the message.
    public private(set) var events: [(seconds: Double, message: ShortMessage)] = []
    private var lastFrame: UInt32?
    /// Frames from the start to `lastFrame`, unwrapped (JACK frame times wrap at 2^32).
    private var position: UInt64 = 0

    /// `startFrame`: the JACK frame time when recording began (earlier events are not recorded); nil when
    /// unknown (no server yet): the first event is the start.
    public init(sampleRate: Double, startFrame: UInt32?) {
        self.sampleRate = sampleRate > 0 ? sampleRate : 48_000
        lastFrame = startFrame
    }

    /// Adds a monitor event. Messages the lifecycle gate dropped were never received, so they are skipped,
    /// as are sysex (their payload travels separately).
    public mutating func add(_ event: MonitorEvent) {
        guard !event.lost, event.message.status != 0xF0 else { return }
        let lastFrame = self.lastFrame ?? event.frameTime
        let step = Int32(bitPattern: event.frameTime &- lastFrame)
        if step < 0 {
            // Before the start, or a hair out of order between sources.
            guard !events.isEmpty else { return }
        } else {
            position += UInt64(step)
            self.lastFrame = event.frameTime
        }
        events.append((Double(position) / sampleRate, event.message))
    }

    public var duration: Double { events.last?.seconds ?? 0 }

    /// The file: format 0, 960 ticks per quarter note at 120 BPM (about half a millisecond per tick).
    public func fileBytes() -> [UInt8] {
        let messages: [(seconds: Double, message: MIDIMessage)] = events.compactMap { item in
            MIDIMessage(item.message).map { (item.seconds, $0) }
        }
        return StandardMIDIFile.format0(messages, ticksPerQuarterNote: 960)
    }
}

enum CaptureFiles {
    /// Checks that `path` can be created or overwritten, by creating a probe file next to it. Nothing is
    /// left behind.
    static func checkWritable(_ path: String) throws(CaptureError) {
        guard !path.isEmpty else { throw CaptureError("cannot record to an empty file name") }
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

    /// Writes a complete file or none: a temporary file in the same directory, then rename(2).
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CaptureError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try Data(bytes).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CaptureError("cannot write \(path): \(WAVFile.reason(error))")
        }
        if rename(temporary.path, path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CaptureError("cannot write \(path): \(reason)")
        }
    }

    /// Where a recording goes when its own file cannot be written: the temporary directory.
    static func fallbackPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let stamp = Int(Date().timeIntervalSince1970)
        let name = "backbeat-\(stamp)-\(getpid())-\(url.lastPathComponent.isEmpty ? "recording.mid" : url.lastPathComponent)"
        return FileManager.default.temporaryDirectory.appendingPathComponent(name).path
    }
}
