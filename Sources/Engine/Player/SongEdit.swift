import MIDI

/// Where a song starts playing: a bar (1 is the first) or a time in seconds.
public enum SongStart: Sendable, Equatable {
    case bar(Int)
    case seconds(Double)

    /// `BAR` (a whole number from 1) or `M:SS` (minutes, then seconds, which may have a fraction); nil otherwise.
    public init?(_ text: String) {
        if let bar = Int(text), bar >= 1, text.allSatisfy(\.isASCII) {
            self = .bar(bar)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let minutes = Int(parts[0]), minutes >= 0, parts[1].count >= 2,
              let seconds = Double(parts[1]), seconds >= 0, seconds < 60, parts[1].allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        self = .seconds(Double(minutes) * 60 + seconds)
    }
}

/// What `play` and `render` change in a song before playing it, the same for both so that an offline render
/// reproduces what was heard: where it starts (with every channel's state chased up to there), its tempo, a
/// transposition, and the channels muted or soloed.
public struct SongEdit: Sendable, Equatable {
    public var start: SongStart?
    /// Tempo scale: 1 plays as written, 2 twice as fast.
    public var tempo = 1.0
    /// Semitones added to every note, drum parts excepted (-24...24): channel 10 and any channel a bank select
    /// or a GS rhythm part message made one at that point (`DrumParts`).
    public var transpose = 0
    /// Channels (0...15) whose notes are left out; `soloed`, when not empty, leaves out every other channel's.
    public var muted: Set<UInt8> = []
    public var soloed: Set<UInt8> = []

    public init() {}

    /// Whether it changes anything.
    public var isEmpty: Bool { self == SongEdit() }

    /// Seconds from the song's start at which `start` begins (0 without one, and for a bar of a file without bars):
    /// bars are the song's own (`Song.bars`), or `file`'s.
    public func startSeconds(in song: Song, file: StandardMIDIFile?) -> Double {
        switch start {
        case .bar(let bar)?: (song.bars ?? file.flatMap(BarClock.init))?.seconds(atBar: bar) ?? 0
        case .seconds(let seconds)?: seconds
        case nil: 0
        }
    }

    /// Why `start` cannot be played in `song` (as read, before any edit), or nil: a start at or past the song's
    /// end, which would play nothing, is refused with the song's length in bars and time; a bar in a file timed in
    /// SMPTE frames, which has no bars, too.
    public func startRefusal(for song: Song, file: StandardMIDIFile?) -> String? {
        guard let start else { return nil }
        let asked: String
        switch start {
        case .bar(let bar):
            asked = "bar \(bar)"
            if bar > 1 && (song.bars ?? file.flatMap(BarClock.init)) == nil { return "--start \(bar): \(song.name) is timed in SMPTE frames and has no bars; give a time (M:SS)" }
        case .seconds(let seconds): asked = Song.clock(seconds, fraction: seconds != seconds.rounded(.down))
        }
        let from = startSeconds(in: song, file: file)
        guard from > 0, from >= song.duration else { return nil }
        return "--start \(asked) is past the end of \(song.name), which is \(song.lengthText) long"
    }

    /// `song` edited. Before the start point only what sets a channel's state is kept (programs, banks,
    /// controllers, pitch bend, RPN/NRPN, pressure, system exclusive), at time 0 in its order, so the song starts
    /// as it sounds when played from the top there; notes before it are left out. `file` gives the bars.
    public func apply(to song: Song, file: StandardMIDIFile?) -> Song {
        guard !isEmpty else { return song }
        let from = startSeconds(in: song, file: file)
        var drums = DrumParts()
        let scale = tempo > 0 && tempo.isFinite ? tempo : 1
        var messages: [TimedMessage] = []
        messages.reserveCapacity(song.messages.count)
        for var timed in song.messages {
            let message = timed.message
            drums.update(message, sysex: timed.sysex)
            let isNote = message.kind == .noteOn || message.kind == .noteOff || message.kind == .polyPressure
            if timed.seconds < from {
                // Chase: the state, not the notes.
                if isNote { continue }
                timed.seconds = 0
            } else {
                timed.seconds = (timed.seconds - from) / scale
            }
            if isNote {
                let channel = message.channel
                if muted.contains(channel) || !soloed.isEmpty && !soloed.contains(channel) { continue }
                if transpose != 0 && !drums.isDrumPart(channel) {
                    let key = Int(message.data1) + transpose
                    guard (0...127).contains(key) else { continue }
                    timed.message = ShortMessage(status: message.status, data1: UInt8(key), data2: message.data2)
                }
            }
            messages.append(timed)
        }
        // Bars stay where they are only when times do.
        var edited = Song(name: song.name, messages: messages, duration: max(song.duration - from, 0) / scale,
                          bars: from == 0 && scale == 1 ? song.bars : nil)
        edited.text = from == 0 && scale == 1 ? song.text : nil
        return edited
    }
}
