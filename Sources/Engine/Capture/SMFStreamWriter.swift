import Foundation
import Glibc
import MIDI
import SystemPackage

/// A take written as the events arrive, so that a crash or SIGKILL leaves a valid file with everything
/// written until then.
///
/// While recording, the file is a format 0 file (one track) that always ends with an End-of-Track. Each
/// `append` keeps the file valid after every single write, so a process killed between two writes still
/// leaves a readable file:
/// 1. the new events (the first without its delta time) and a new End-of-Track go after the old
///    End-of-Track, beyond the track chunk's length (readers ignore bytes after the last chunk);
/// 2. the chunk's length grows to cover them (readers stop at the old End-of-Track, still in place);
/// 3. the old End-of-Track's four bytes become the first new event's delta time, padded to four bytes
///    (`80 80 80 0n` is a valid variable-length quantity), which joins the old and new events.
/// Only the new events are in memory at a time (a half second's worth), so memory stays bounded.
///
/// Each event's port is marked in the stream by a sequencer-specific meta event (`FF 7F 04 7D 42 42 pp`:
/// 7D is the ID for non-commercial use, "BB" Backbeat, pp the port) where the port changes; readers skip
/// it. A format 1 take (the default) is made from that stream when recording stops (`finished`): a tempo
/// track with the take's Set Tempo and marker events, then one named track per port, written to a temporary
/// file beside the take and renamed over it, so the take is whole at every moment; this reads the finished
/// file back once (its size in memory, a few MB for an hour of dense playing).
///
/// Timing: 960 ticks per quarter note through the take's tempo map (its Set Tempo events; 120 BPM until
/// the first), so a take recorded against a clock lines up with the sender's bars.
final class SMFStreamWriter {
    let path: String
    static let ticksPerQuarterNote: UInt16 = 960
    /// MThd (14 bytes), then the MTrk chunk's type and length (8 bytes).
    static let headerSize = 22
    /// The sequencer-specific meta event that marks the port of the events after it: its data before the port.
    static let portTag: [UInt8] = [0x7D, 0x42, 0x42]
    /// The sequencer-specific meta event that marks the next event as channel state of the take's start
    /// (`TakeEvent.isSetup`), moved to tick 0 when the take is finished.
    static let setupTag: [UInt8] = [0x7D, 0x42, 0x53]

    /// The take: a temporary file beside `path`, put in place (`publish`) once it holds events (so an empty
    /// take, or one that fails before its first event, leaves whatever was at `path` as it was).
    private let output: OutputFile
    private var fd: FileDescriptor { FileDescriptor(rawValue: output.fd) }
    /// Bytes of the track chunk's data, the final End-of-Track included.
    private(set) var trackLength = 0
    private(set) var events = 0
    private var encoder: Encoder
    let options: MIDITakeOptions

    /// Writes a file with no events yet (`initialTempo` at tick 0) beside `path`, which must be a regular
    /// file or not exist; `path` itself is untouched until the first events are written.
    init(path: String, options: MIDITakeOptions = MIDITakeOptions(),
         initialTempo: UInt32 = StandardMIDIFile.defaultMicrosecondsPerQuarterNote) throws(SystemError) {
        self.path = path
        self.options = options
        encoder = Encoder(tempo: initialTempo, tagPorts: !options.raw)
        output = try OutputFile(path: path, mode: .growing, replacingReadFiles: false, what: "a MIDI take")
        let start = Self.start(initialTempo: initialTempo)
        do {
            try writeAll(start, at: 0)
        } catch {
            output.discard()  // the temporary file goes; `path` was never touched
            throw error
        }
        trackLength = start.count - Self.headerSize
    }

    deinit { output.discard() }

    /// A file with no events: the header, the tempo at tick 0 and an End-of-Track.
    static func start(initialTempo: UInt32) -> [UInt8] {
        var track = SMFEncoder.Track()
        track.append(.meta(StandardMIDIFile.tempoEvent(initialTempo)), at: 0)
        track.end()
        return SMFEncoder.header(format: 0, tracks: 1, division: .ticksPerQuarterNote(ticksPerQuarterNote))
            + SMFEncoder.trackChunk(track.bytes)
    }

    /// The streamed file of `events` written in one go (what `append` leaves after them).
    static func stream(_ events: [TakeEvent], options: MIDITakeOptions, initialTempo: UInt32) -> [UInt8] {
        var bytes = start(initialTempo: initialTempo)
        var encoder = Encoder(tempo: initialTempo, tagPorts: !options.raw)
        join(&bytes, encoder.encode(events))
        return bytes
    }

    /// `bytes` (a streamed file) with `encoded` joined at its end, its length updated.
    private static func join(_ bytes: inout [UInt8], _ encoded: (firstDelta: UInt32, body: [UInt8])) {
        guard !encoded.body.isEmpty else { return }
        bytes.removeLast(SMFEncoder.endOfTrack.count)
        SMFEncoder.appendVLQ(encoded.firstDelta, to: &bytes)
        bytes += encoded.body
        bytes.replaceSubrange(18..<22, with: SMFEncoder.bigEndian(UInt32(bytes.count - headerSize)))
    }

    /// Appends events (in time order). On an error the file keeps the events of the earlier appends and
    /// stays valid.
    func append(_ batch: [TakeEvent]) throws(SystemError) {
        guard !batch.isEmpty else { return }
        var next = encoder
        let (firstDelta, body) = next.encode(batch)
        let oldEnd = Self.headerSize + trackLength
        let newLength = trackLength + body.count
        do {
            try writeAll(body, at: oldEnd)                                  // 1. beyond the chunk
            try writeAll(SMFEncoder.bigEndian(UInt32(newLength)), at: 18)   // 2. the chunk covers it
        } catch {
            // Back to the file as it was: its old length and nothing after the chunk.
            _ = try? writeAll(SMFEncoder.bigEndian(UInt32(trackLength)), at: 18)
            _ = try? fd.resize(to: Int64(oldEnd))
            throw error
        }
        try writeAll(SMFEncoder.paddedVLQ(firstDelta), at: oldEnd - 4)      // 3. join
        trackLength = newLength
        encoder = next
        events += batch.count
    }

    /// Puts the take at `path` (the recorder calls it after each append that wrote events; once done, it
    /// does nothing). A failure leaves the events in the stream, which a fallback copy reads back.
    func publish() throws(SystemError) { try output.publish() }

    /// Whether the take is at `path` (its first events were written).
    var isPublished: Bool { output.isPublished }

    /// Seconds to ticks through the tempo map, port marks, running status: the state carried from one
    /// append to the next.
    struct Encoder {
        var tempo: Double
        var tempoTick: UInt64 = 0
        var tempoSeconds = 0.0
        var lastTick: UInt64 = 0
        var lastSeconds = 0.0
        var port: UInt8?
        let tagPorts: Bool

        init(tempo: UInt32, tagPorts: Bool) {
            self.tempo = Double(max(1, tempo))
            self.tagPorts = tagPorts
        }

        /// The tick of `seconds` (never before the last one).
        mutating func tick(at seconds: Double) -> UInt64 {
            let s = seconds.isFinite ? max(seconds, lastSeconds) : lastSeconds
            let exact = ((s - tempoSeconds) * Double(SMFStreamWriter.ticksPerQuarterNote) * 1_000_000 / tempo).rounded()
            let offset = exact.isFinite && exact > 0 ? UInt64(min(exact, 1e15)) : 0
            lastSeconds = s
            lastTick = max(lastTick, tempoTick + offset)
            return lastTick
        }

        /// The first event's delta time, then the rest with their delta times and a final End-of-Track (the
        /// batch's own when it ends with one: the take's stop, `MIDIRecording.end`; nothing follows it).
        mutating func encode(_ batch: [TakeEvent]) -> (firstDelta: UInt32, body: [UInt8]) {
            var track = SMFEncoder.Track(from: lastTick, firstDeltaApart: true)
            for item in batch {
                let at = self.tick(at: item.seconds)
                if tagPorts, let p = item.port, p != port {
                    port = p
                    track.append(.meta(StandardMIDIFile.MetaEvent(type: StandardMIDIFile.MetaType.sequencerSpecific, data: SMFStreamWriter.portTag + [p])), at: at)
                }
                if tagPorts && item.isSetup && at > 0 {
                    track.append(.meta(StandardMIDIFile.MetaEvent(type: StandardMIDIFile.MetaType.sequencerSpecific, data: SMFStreamWriter.setupTag)), at: at)
                }
                track.append(item.event, at: at)
                if case .meta(let meta) = item.event, let t = meta.tempo {
                    tempoTick = at
                    tempoSeconds = lastSeconds
                    tempo = Double(t)
                }
            }
            let ended = batch.last.map { if case .meta(let meta) = $0.event { meta.isEndOfTrack } else { false } } ?? false
            if !ended { track.end() }
            return (track.firstDelta ?? 0, track.bytes)
        }
    }

    /// The file as it is now, with `batch` appended in memory (for a copy elsewhere when this file failed).
    func contents(appending batch: [TakeEvent]) throws(SystemError) -> [UInt8] {
        var bytes = try contents()
        guard !batch.isEmpty else { return bytes }
        var next = encoder
        Self.join(&bytes, next.encode(batch))
        return bytes
    }

    /// Names of the ports' tracks in a format 1 take.
    static func trackName(port: UInt8) -> String {
        switch MIDISource(rawValue: port) {
        case .jack: "JACK midi_in"
        case .alsa: "ALSA sequencer midi_in"
        case .keyboard: "computer keyboard"
        case .demo: "demo"
        case .player: "song player"
        case .out, nil: "port \(port)"
        }
    }

    /// A streamed take as the file it becomes when recording stops: format 1 (a tempo track named "tempo",
    /// with the Set Tempo and marker events, then a track per port in the order they first played, named
    /// after it; the channel state written at the start goes to the first port's track) or format 0 (one
    /// track), with every channel's state at tick 0 and no port or setup marks. Raw takes, and bytes that do
    /// not read back, are kept as they are.
    static func finished(_ stream: [UInt8], options: MIDITakeOptions) -> [UInt8] {
        guard !options.raw, let file = try? StandardMIDIFile(bytes: stream), file.tracks.count == 1 else { return stream }
        typealias E = StandardMIDIFile.TrackEvent
        func tag(_ event: E) -> [UInt8]? {
            guard case .meta(let meta) = event.event, meta.type == StandardMIDIFile.MetaType.sequencerSpecific, meta.data.count >= 3,
                  [portTag, setupTag].contains(Array(meta.data.prefix(3))) else { return nil }
            return meta.data
        }
        /// `events` with `setup` (made tick 0) after its leading tick-0 meta events (track name, tempo).
        func withSetup(_ events: [E], _ setup: [E]) -> [E] {
            let at = events.firstIndex { e in if case .meta = e.event { e.tick > 0 } else { true } } ?? events.count
            var out = events
            out.insert(contentsOf: setup.map { E(tick: 0, event: $0.event) }, at: at)
            return out
        }
        var conductor: [E] = []
        var ports: [UInt8] = []
        var tracks: [UInt8: [E]] = [:]
        var setups: [UInt8: [E]] = [:]
        var all: [E] = []       // format 0: every event but the marks, in order
        var allSetup: [E] = []  // format 0: the state moved to tick 0
        var unplaced: [E] = []  // channel state before the first port mark
        var port: UInt8?
        var nextIsSetup = false
        for event in file.tracks[0] {
            if let data = tag(event) {
                if Array(data.prefix(3)) == setupTag { nextIsSetup = true; continue }
                guard data.count == 4 else { continue }
                let p = data[3]
                if tracks[p] == nil {
                    ports.append(p)
                    tracks[p] = [E(tick: 0, event: .meta(.init(type: StandardMIDIFile.MetaType.trackName, data: Array(trackName(port: p).utf8))))]
                    if ports.count == 1 { tracks[p]! += unplaced; unplaced = [] }
                }
                port = p
                continue
            }
            let isSetup = nextIsSetup
            nextIsSetup = false
            if isSetup { allSetup.append(event) } else { all.append(event) }
            switch event.event {
            case .meta(let meta) where meta.isEndOfTrack:
                conductor.append(event)
                for p in ports { tracks[p]!.append(event) }
            case .meta:
                conductor.append(event)
            default:
                if let port {
                    if isSetup { setups[port, default: []].append(event) } else { tracks[port]!.append(event) }
                } else {
                    unplaced.append(event)
                }
            }
        }
        guard options.format == 1 else {
            return StandardMIDIFile(format: 0, division: file.division, tracks: [withSetup(all, allSetup)]).encoded()
        }
        conductor.insert(E(tick: 0, event: .meta(.init(type: StandardMIDIFile.MetaType.trackName, data: Array("tempo".utf8)))), at: 0)
        conductor.insert(contentsOf: unplaced, at: 1)  // no port ever played: the state stays with the tempo track
        let portTracks = ports.map { withSetup(tracks[$0]!, setups[$0] ?? []) }
        return StandardMIDIFile(format: 1, division: file.division, tracks: [conductor] + portTracks).encoded()
    }

    /// The file's bytes as they are now (a complete, valid file).
    func contents() throws(SystemError) -> [UInt8] {
        let count = Self.headerSize + trackLength
        var bytes = [UInt8](repeating: 0, count: count)
        let read: Int
        do {
            read = try bytes.withUnsafeMutableBytes { try fd.readAll(fromAbsoluteOffset: 0, into: $0) }
        } catch {
            throw SystemError("cannot read back \(path)", error)
        }
        guard read == count else { throw SystemError("cannot read back \(path): it is shorter than written") }
        return bytes
    }

    /// True when the file no longer has a name (it or its directory was removed while recording).
    var isRemoved: Bool {
        var info = stat()
        return fstat(fd.rawValue, &info) == 0 && info.st_nlink == 0
    }

    /// Flushes to the disk and closes: a take with events stays at `path`; one without is removed (only the
    /// temporary file this writer created: `path` keeps what it had). Idempotent.
    func close() throws(SystemError) {
        guard output.isPublished else { return output.discard() }
        try output.commit()
    }

    /// Closes; the temporary file of a take with no events goes. Idempotent.
    func discard() { output.discard() }

    private func writeAll(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
        do { try fd.writeAll(toAbsoluteOffset: Int64(offset), bytes) } catch { throw SystemError("cannot write \(path)", error) }
    }
}
