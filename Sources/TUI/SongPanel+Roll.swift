import Engine

// The song panel's piano roll: the next few seconds of the song, a row per channel (the channels the song
// plays notes on, those sounding in the window first when not all fit). Time runs left to right from now; a
// note's start shows its pitch's letter (the highest note starting there; a drum channel's hits a lamp), a note
// held on shows a line.
extension SongPanel {
    /// The roll needs this many columns (its labels and 40 of time) to be worth showing.
    static let rollMinimumWidth = 60
    static let rollLabelWidth = 4

    /// The window: 4 seconds as heard (the file's seconds scaled by the tempo).
    static func rollSeconds(_ status: SongPlayer.Status) -> Double { 4 * Double(max(status.tempo, 1)) / 100 }

    /// The channels the roll shows at `from`, at most `rows` of them, in channel order.
    static func rollChannels(_ song: Song, from: Double, seconds: Double, rows: Int) -> [UInt8] {
        let used = (0..<16).filter { song.notes.channels & (1 << UInt16($0)) != 0 }.map(UInt8.init)
        guard used.count > rows else { return used }
        let sounding = Set(song.notes.sounding(from: from, to: from + seconds).map(\.channel))
        let first = used.filter(sounding.contains), then = used.filter { !sounding.contains($0) }
        return Array((first + then).prefix(rows)).sorted()
    }

    static func drawRoll(_ channels: [UInt8], song: Song?, status: SongPlayer.Status, into grid: inout Grid, x: Int, y: Int,
                         width: Int, context: DrawContext) {
        guard let song, !channels.isEmpty else { return }
        let columns = width - rollLabelWidth, seconds = rollSeconds(status)
        guard columns > 0 else { return }
        let step = seconds / Double(columns), from = status.position
        let notes = song.notes.sounding(from: from, to: from + seconds)
        for (row, channel) in channels.enumerated() {
            let label = String(Int(channel) + 1)
            grid.put(x, y + row, String(repeating: " ", count: 2 - label.count) + label + " ", .dim)
            grid.put(x + 3, y + row, String(Character(context.glyphs.vertical)), .border)
            var cells = [Character](repeating: " ", count: columns)
            var onsets = [UInt8?](repeating: nil, count: columns)
            for note in notes where note.channel == channel {
                let first = max(Int(((note.start - from) / step).rounded(.down)), 0)
                let last = min(Int(((note.end - from) / step).rounded(.up)) - 1, columns - 1)
                if first > last { continue }
                for c in first...last where onsets[c] == nil { cells[c] = Character(context.glyphs.horizontal) }
                if note.start >= from, first < columns, onsets[first].map({ note.key > $0 }) ?? true {
                    onsets[first] = note.key
                    cells[first] = channel == 9 ? Character(context.glyphs.lamp) : Self.letter(note.key)
                }
            }
            for c in 0..<columns where cells[c] != " " {
                grid.put(x + rollLabelWidth + c, y + row, String(cells[c]), onsets[c] != nil ? .monitorNote : .normal)
            }
        }
    }

    /// A pitch's letter: C D E F G A B, the sharps as the letter below them in lower case (c# is `c`).
    static func letter(_ key: UInt8) -> Character {
        Array("CcDdEFfGgAaB")[Int(key % 12)]
    }
}
