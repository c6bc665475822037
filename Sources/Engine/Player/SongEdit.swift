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
    /// Semitones added to every note, drum channel 10 excepted (-24...24).
    public var transpose = 0
    /// Channels (0...15) whose notes are left out; `soloed`, when not empty, leaves out every other channel's.
    public var muted: Set<UInt8> = []
    public var soloed: Set<UInt8> = []

    public init() {}

    /// Whether it changes anything.
    public var isEmpty: Bool { self == SongEdit() }

    /// Drum channel 10, which a transposition leaves as it is.
    static let drumChannel: UInt8 = 9

    /// `song` edited. Before the start point only what sets a channel's state is kept (programs, banks,
    /// controllers, pitch bend, RPN/NRPN, pressure, system exclusive), at time 0 in its order, so the song starts
    /// as it sounds when played from the top there; notes before it are left out. `file` gives the bars.
    public func apply(to song: Song, file: StandardMIDIFile?) -> Song {
        guard !isEmpty else { return song }
        let from: Double
        switch start {
        case .bar(let bar)?: from = file?.seconds(atBar: bar) ?? 0
        case .seconds(let seconds)?: from = seconds
        case nil: from = 0
        }
        let scale = tempo > 0 && tempo.isFinite ? tempo : 1
        var messages: [TimedMessage] = []
        messages.reserveCapacity(song.messages.count)
        for var timed in song.messages {
            let message = timed.message
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
                if transpose != 0 && channel != Self.drumChannel {
                    let key = Int(message.data1) + transpose
                    guard (0...127).contains(key) else { continue }
                    timed.message = ShortMessage(status: message.status, data1: UInt8(key), data2: message.data2)
                }
            }
            messages.append(timed)
        }
        // Bars stay where they are only when times do.
        return Song(name: song.name, messages: messages, duration: max(song.duration - from, 0) / scale,
                    bars: from == 0 && scale == 1 ? song.bars : nil)
    }
}
