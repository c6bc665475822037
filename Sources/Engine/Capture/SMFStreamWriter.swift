import Foundation
import Glibc
import MIDI

/// A format 0 Standard MIDI File written as the events arrive, so that a crash or SIGKILL leaves a valid
/// file with everything written until then.
///
/// The file always ends its track with an End-of-Track. Each `append` keeps the file valid after every
/// single write, so a process killed between two writes still leaves a readable file:
/// 1. the new events (the first without its delta time) and a new End-of-Track go after the old
///    End-of-Track, beyond the track chunk's length (readers ignore bytes after the last chunk);
/// 2. the chunk's length grows to cover them (readers stop at the old End-of-Track, still in place);
/// 3. the old End-of-Track's four bytes become the first new event's delta time, padded to four bytes
///    (`80 80 80 0n` is a valid variable-length quantity), which joins the old and new events.
/// Timing: 960 ticks per quarter note at 120 BPM (1920 ticks per second, about half a millisecond a tick),
/// the same as a whole file written by `StandardMIDIFile.format0`.
final class SMFStreamWriter {
    let path: String
    static let ticksPerQuarterNote: UInt16 = 960
    static let microsecondsPerQuarterNote: UInt32 = StandardMIDIFile.defaultMicrosecondsPerQuarterNote
    static let ticksPerSecond = Double(ticksPerQuarterNote) * 1_000_000 / Double(microsecondsPerQuarterNote)
    /// MThd (14 bytes), then the MTrk chunk's type and length (8 bytes).
    static let headerSize = 22
    static let endOfTrack: [UInt8] = [0x00, 0xFF, 0x2F, 0x00]

    private let fd: Int32
    private var closed = false
    /// Bytes of the track chunk's data, the final End-of-Track included.
    private(set) var trackLength = 0
    private(set) var events = 0
    private var lastTick: UInt64 = 0

    /// Creates (or truncates) the file and writes a file with no events yet.
    init(path: String) throws(CaptureError) {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)  // read back for a fallback copy
        guard fd >= 0 else { throw CaptureError("cannot write \(path): \(String(cString: strerror(errno)))") }
        let tempo = Self.microsecondsPerQuarterNote
        let track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, UInt8(tempo >> 16 & 0xFF), UInt8(tempo >> 8 & 0xFF), UInt8(tempo & 0xFF)]
            + Self.endOfTrack
        let tpq = Self.ticksPerQuarterNote
        let header: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, UInt8(tpq >> 8), UInt8(tpq & 0xFF)]
            + Array("MTrk".utf8) + Self.bigEndian(UInt32(track.count))
        do {
            try writeAll(header + track, at: 0)
        } catch {
            Glibc.close(fd)
            closed = true
            unlink(path)  // created (or emptied) just now and holding nothing: no empty file is left behind
            throw error
        }
        trackLength = track.count
    }

    deinit { if !closed { Glibc.close(fd) } }

    /// Appends events (seconds from the start of the recording, in order). On an error the file keeps
    /// the events of the earlier appends and stays valid.
    func append(_ batch: [(seconds: Double, message: MIDIMessage)]) throws(CaptureError) {
        guard !batch.isEmpty else { return }
        let (firstDelta, body, tick) = encode(batch)
        let oldEnd = Self.headerSize + trackLength
        let newLength = trackLength + body.count
        do {
            try writeAll(body, at: oldEnd)                                  // 1. beyond the chunk
            try writeAll(Self.bigEndian(UInt32(newLength)), at: 18)         // 2. the chunk covers it
        } catch {
            // Back to the file as it was: its old length and nothing after the chunk.
            _ = try? writeAll(Self.bigEndian(UInt32(trackLength)), at: 18)
            _ = ftruncate(fd, off_t(oldEnd))
            throw error
        }
        try writeAll(Self.paddedVLQ(firstDelta), at: oldEnd - 4)            // 3. join
        trackLength = newLength
        lastTick = tick
        events += batch.count
    }

    /// The events of `batch` after the last tick written: the first one's delta time, the rest of the
    /// batch with the others' delta times and a final End-of-Track, and the batch's last tick.
    private func encode(_ batch: [(seconds: Double, message: MIDIMessage)]) -> (UInt32, [UInt8], UInt64) {
        var body: [UInt8] = []
        var firstDelta: UInt32 = 0
        var tick = lastTick
        var runningStatus: UInt8 = 0
        for (index, item) in batch.enumerated() {
            let exact = (item.seconds * Self.ticksPerSecond).rounded()
            let at = exact.isFinite && exact > 0 ? UInt64(min(exact, 1e15)) : 0
            let delta = UInt32(min(at >= tick ? at - tick : 0, 0x0FFF_FFFF))
            tick = max(at, tick)
            if index == 0 { firstDelta = delta } else { StandardMIDIFile.appendVLQ(delta, to: &body) }
            StandardMIDIFile.appendEvent(item.message, runningStatus: &runningStatus, to: &body)
        }
        return (firstDelta, body + Self.endOfTrack, tick)
    }

    /// The file as it is now, with `batch` appended in memory (for a copy elsewhere when this file failed).
    func contents(appending batch: [(seconds: Double, message: MIDIMessage)]) throws(CaptureError) -> [UInt8] {
        var bytes = try contents()
        guard !batch.isEmpty else { return bytes }
        let (firstDelta, body, _) = encode(batch)
        bytes.removeLast(Self.endOfTrack.count)
        StandardMIDIFile.appendVLQ(firstDelta, to: &bytes)
        bytes += body
        bytes.replaceSubrange(18..<22, with: Self.bigEndian(UInt32(bytes.count - Self.headerSize)))
        return bytes
    }

    /// The file's bytes as they are now (a complete, valid file).
    func contents() throws(CaptureError) -> [UInt8] {
        let count = Self.headerSize + trackLength
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw CaptureError("cannot read back \(path): \(n < 0 ? String(cString: strerror(errno)) : "it is shorter than written")") }
            done += n
        }
        return bytes
    }

    /// True when the file no longer has a name (it or its directory was removed while recording).
    var isRemoved: Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && info.st_nlink == 0
    }

    /// Flushes to the disk and closes. Idempotent.
    func close() throws(CaptureError) {
        guard !closed else { return }
        closed = true
        defer { Glibc.close(fd) }
        if fsync(fd) != 0 && errno != EINVAL { throw CaptureError("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    /// A variable-length quantity in exactly four bytes (leading 0x80 bytes pad it).
    static func paddedVLQ(_ value: UInt32) -> [UInt8] {
        let v = min(value, 0x0FFF_FFFF)
        return [UInt8(v >> 21 & 0x7F) | 0x80, UInt8(v >> 14 & 0x7F) | 0x80, UInt8(v >> 7 & 0x7F) | 0x80, UInt8(v & 0x7F)]
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private func writeAll(_ bytes: [UInt8], at offset: Int) throws(CaptureError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CaptureError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }
}
