import MIDI

/// A Standard MIDI File as the song player plays it: the synth's input from the file (the same messages
/// `backbeat render` plays, `OfflineRenderer.messages(of:)`) and its length.
public struct Song: Sendable {
    /// What the player shows: the file's name.
    public var name: String
    public var messages: [TimedMessage]
    /// Seconds to the song's end: its last End-of-Track or its last message, whichever is later.
    public var duration: Double
    /// Its bars, for seeking by bar (nil: a file timed in SMPTE frames, or a song whose times were changed).
    public var bars: BarClock?
    /// Its lyrics, markers and track names (nil: a song whose times were changed, or made without a file).
    public var text: SongText?
    /// Its notes in time, for the piano roll.
    public var notes: SongNotes

    public init(name: String, messages: [TimedMessage], duration: Double, bars: BarClock? = nil) {
        self.name = name
        self.messages = messages
        self.duration = max(duration, OfflineRenderer.duration(of: messages))
        self.bars = bars
        notes = SongNotes(messages, duration: self.duration)
    }

    public init(name: String, file: StandardMIDIFile) {
        self.init(name: name, messages: OfflineRenderer.messages(of: file), duration: file.duration, bars: BarClock(file))
        text = SongText(file)
    }

    /// Its length as a musician says it: `32 bars, 1:04` (bars counted to its last sounding one), or `1:04` in a
    /// song without bars.
    public var lengthText: String {
        guard let bars else { return Song.clock(duration) }
        let count = duration > 0 ? bars.bar(at: max(duration - 1e-6, 0)) : 0
        return "\(count) bar\(count == 1 ? "" : "s"), \(Song.clock(duration))"
    }

    /// The bar and beat playing `seconds` from the start (`BarClock.place`), nil in a song without bars. At the
    /// song's very end (a position the player clamps there) it is the last bar's end, not the bar after it.
    public func place(at seconds: Double) -> (bar: Int, beat: Double)? {
        bars?.place(at: max(min(seconds, duration - 1e-6), 0))
    }

    /// Seconds as m:ss (with `fraction`, m:ss.s).
    public static func clock(_ seconds: Double, fraction: Bool = false) -> String {
        let value = seconds.isFinite ? max(seconds, 0) : 0
        let whole = Int(value)
        let text = "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
        guard fraction else { return text }
        return text + ".\(min(Int(((value - Double(whole)) * 10).rounded(.down)), 9))"
    }
}

/// A song's messages at the backend's frames: the tempo map's seconds become frames exactly as the offline
/// render makes them (`OfflineRenderer.framed`), counted from the frame time the song starts at, so a message
/// `n` frames after the first in a render is `n` frames after it live.
public struct SongSchedule: Sendable {
    /// The messages in time order, at frames from the song's start.
    public let events: [FramedMessage]
    /// Frames from the start to the song's end (`Song.duration`), at least to its last message.
    public let length: Int

    public init(_ song: Song, sampleRate: Double) {
        events = OfflineRenderer.framed(song.messages, sampleRate: sampleRate)
        length = max(OfflineRenderer.frame(at: song.duration, sampleRate: sampleRate), events.last?.frame ?? 0)
    }

    /// The frame time of event `index` when the song starts at `start` (wrapping, as frame times do).
    public func frameTime(of index: Int, start: UInt32) -> UInt32 {
        start &+ UInt32(truncatingIfNeeded: events[index].frame)
    }

    /// The event `index` for the callback, when the song starts at `start`.
    public func playerEvent(_ index: Int, start: UInt32, toSynth: Bool) -> PlayerEvent {
        let event = events[index]
        return PlayerEvent(frameTime: frameTime(of: index, start: start), message: event.message,
                           sysexLength: UInt32(truncatingIfNeeded: event.sysex.count), toSynth: toSynth)
    }
}
