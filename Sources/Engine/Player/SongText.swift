import MIDI

/// What a song says besides its notes, in time: its lyrics line by line (lyric meta events, FF 05, or the text
/// events, FF 01, of a .kar file), its markers (FF 06), its title and its tracks' names (FF 03), for the player's panel.
public struct SongText: Sendable, Equatable {
    /// One line of lyrics: its syllables at their times (seconds from the song's start).
    public struct Line: Sendable, Equatable {
        public var syllables: [(seconds: Double, text: String)]
        public var start: Double { syllables.first?.seconds ?? 0 }
        public var text: String { syllables.map(\.text).joined() }
        public static func == (a: Line, b: Line) -> Bool { a.syllables.elementsEqual(b.syllables) { $0 == $1 } }
    }

    public var lines: [Line] = []
    public var markers: [(seconds: Double, text: String)] = []
    /// The parts' track names; the first track's name of a format 0 or 1 file is the song's title (SMF's
    /// sequence name, on the conductor track), not a part's.
    public var trackNames: [String] = []
    public var title: String?

    public static func == (a: SongText, b: SongText) -> Bool {
        a.lines == b.lines && a.trackNames == b.trackNames && a.title == b.title && a.markers.elementsEqual(b.markers) { $0 == $1 }
    }

    public init() {}

    /// The file's lyrics: its lyric events when it has any, else its text events as a .kar file has them, where
    /// `\` starts a paragraph and `/` a line, and `@` starts a header (title, language, info: left out). In a
    /// lyric event a carriage return or line feed ends the line.
    public init(_ file: StandardMIDIFile) {
        var lyrics: [(Double, String)] = [], texts: [(Double, String)] = []
        for event in file.timedEvents() {
            guard case .meta(let meta) = event.event, let text = meta.text else { continue }
            switch meta.type {
            case 0x05: lyrics.append((event.seconds, text))
            case 0x01 where !text.hasPrefix("@"): texts.append((event.seconds, text))
            case 0x06: markers.append((event.seconds, text.trimmingSpaces))
            case 0x03 where event.tick == 0 && !text.trimmingSpaces.isEmpty:
                if event.track == 0 && file.format < 2 { title = title ?? text.trimmingSpaces } else { trackNames.append(text.trimmingSpaces) }
            default: break
            }
        }
        var current: [(seconds: Double, text: String)] = []
        func endLine() {
            if current.contains(where: { !$0.text.trimmingSpaces.isEmpty }) { lines.append(Line(syllables: current)) }
            current = []
        }
        for (seconds, raw) in lyrics.isEmpty ? texts : lyrics {
            var text = Substring(raw)
            if text.first == "\\" || text.first == "/" { endLine(); text = text.dropFirst() }
            let pieces = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" })
            for (i, piece) in pieces.enumerated() {
                if i > 0 { endLine() }
                if !piece.isEmpty { current.append((seconds, String(piece))) }
            }
        }
        endLine()
    }

    /// The line sung at `seconds` (the last one begun; nil before the first), and how many of its syllables
    /// have been sung.
    public func line(at seconds: Double) -> (index: Int, sung: Int)? {
        guard let index = lines.lastIndex(where: { $0.start <= seconds }) else { return nil }
        return (index, lines[index].syllables.filter { $0.seconds <= seconds }.count)
    }

    /// The last marker passed at `seconds`.
    public func marker(at seconds: Double) -> String? { markers.last { $0.seconds <= seconds }?.text }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
