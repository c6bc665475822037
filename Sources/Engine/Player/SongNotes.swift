/// A song's notes as spans of time, for the player's piano roll: each note from its note-on to its note-off
/// (a note-on of velocity 0 is a note-off; a note never released ends with the song). Made once per song, off
/// the real-time thread.
public struct SongNotes: Sendable, Equatable {
    public struct Note: Sendable, Equatable {
        /// 0...15.
        public var channel: UInt8
        public var key: UInt8
        public var start: Double, end: Double
    }

    /// In order of their start.
    public let notes: [Note]
    /// The channels that play any note (bit n: channel n).
    public let channels: UInt16
    /// The longest note's length: the notes sounding at a time began at most this long before it.
    let longest: Double

    public init(_ messages: [TimedMessage], duration: Double) {
        var open = [Int?](repeating: nil, count: 16 * 128)  // an index into `found` per channel and key
        var found: [Note] = []
        for m in messages where m.message.isChannelMessage {
            let status = m.message.status & 0xF0, slot = Int(m.message.channel) * 128 + Int(m.message.data1 & 0x7F)
            guard status == 0x80 || status == 0x90 else { continue }
            if let i = open[slot] {  // a release, or a note struck again: the sounding one ends here
                found[i].end = m.seconds
                open[slot] = nil
            }
            if status == 0x90 && m.message.data2 > 0 {
                open[slot] = found.count
                found.append(Note(channel: m.message.channel, key: m.message.data1 & 0x7F, start: m.seconds, end: duration))
            }
        }
        notes = found  // the messages are in time order, so their notes are too
        longest = found.reduce(0) { max($0, $1.end - $1.start) }
        channels = found.reduce(0) { $0 | 1 << UInt16($1.channel) }
    }

    /// The notes sounding at some time in `from ..< to`, in order of their start.
    public func sounding(from: Double, to: Double) -> [Note] {
        // The first note that can still sound at `from`: one starting at most `longest` before it.
        var low = 0, high = notes.count
        while low < high {
            let mid = (low + high) / 2
            if notes[mid].start < from - longest { low = mid + 1 } else { high = mid }
        }
        var out: [Note] = []
        for note in notes[low...] {
            if note.start >= to { break }
            if note.end > from { out.append(note) }
        }
        return out
    }
}
