import Engine
import TextOutput

/// The song player's panel, over the MIDI monitor while a song plays: the file, its position and length as time
/// and bar:beat, a progress bar, tempo and time signature as they change, the last marker, the track names,
/// and the lyrics line by line in time (the line before, the line being sung with its sung part lit, the next).
public enum SongPanel {
    /// Rows it takes of the monitor's `rect`: all 7 where the monitor keeps 7 of its own, else none.
    static func height(in rect: Rect) -> Int { rect.height >= 14 ? 7 : 0 }

    public static func draw(_ status: SongPlayer.Status, song: Song?, into grid: inout Grid, rect: Rect, context: DrawContext) {
        let queue = status.count > 1 ? " \(status.index + 1)/\(status.count)" : ""
        context.frame(&grid, rect, " Song\(queue) ")
        let inner = rect.inset(1)
        guard inner.width > 10, inner.height >= 5 else { return }
        let x = inner.x + 1, width = inner.width - 2
        // The file, where it is and how long it is.
        let state = status.finished ? " ended" : status.paused ? " paused" : ""
        var place = "\(Song.clock(status.position))/\(Song.clock(status.duration))"
        if let bar = status.bar, let beat = status.beat, let bars = song?.bars {
            let total = bars.bar(at: max(status.duration - 1e-6, 0))
            place += "  bar \(bar):\(Int(beat.rounded(.down)))/\(total)"
        }
        let name = TerminalText.sanitized(status.name)
        let at = grid.put(x, inner.y, name.fitWords(max(width - place.count - state.count - 2, 8)), .title)
        grid.put(at + 2, inner.y, place + state, .headerValue, limit: max(x + width - at - 2, 0))
        // The progress bar.
        let fraction = status.duration > 0 ? min(max(status.position / status.duration, 0), 1) : 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        for i in 0..<width {
            grid.put(x + i, inner.y + 1, String(Character(i < filled ? context.glyphs.barFull : context.glyphs.barEmpty)), i < filled ? .meterLow : .meterTrack)
        }
        // Tempo, time signature, marker, tracks.
        var facts: [String] = []
        if let bars = song?.bars {
            let bpm = bars.bpm(at: status.position) * Double(status.tempo) / 100
            let signature = bars.signature(at: status.position)
            facts.append("\(Int(bpm.rounded())) BPM" + (status.tempo != 100 ? " (\(status.tempo)%)" : ""))
            facts.append("\(signature.numerator)/\(signature.denominator)")
        }
        if status.transpose != 0 { facts.append((status.transpose > 0 ? "+" : "") + "\(status.transpose) st") }
        if let marker = song?.text?.marker(at: status.position) { facts.append("marker: " + TerminalText.sanitized(marker)) }
        if let tracks = song?.text?.trackNames, !tracks.isEmpty { facts.append("tracks: " + TerminalText.sanitized(tracks.joined(separator: ", "))) }
        grid.put(x, inner.y + 2, facts.joined(separator: " · ").fitWords(width), .dim, limit: width)
        // The lyrics: the line before, the one sung (its sung part lit), the next.
        guard let text = song?.text, !text.lines.isEmpty else {
            grid.put(x, inner.y + 3, "no lyrics in this file", .dim, limit: width)
            return
        }
        let now = text.line(at: status.position)
        let index = now?.index ?? -1
        if index > 0 { grid.put(x, inner.y + 3, TerminalText.sanitized(text.lines[index - 1].text).fitWords(width), .dim, limit: width) }
        if let now {
            let line = text.lines[now.index].syllables
            let sung = TerminalText.sanitized(line.prefix(now.sung).map(\.text).joined())
            let rest = TerminalText.sanitized(line.dropFirst(now.sung).map(\.text).joined())
            let after = grid.put(x, inner.y + 4, sung, .selected, limit: width)
            grid.put(after, inner.y + 4, rest.fitWords(max(x + width - after, 0)), .normal, limit: max(x + width - after, 0))
        }
        if index + 1 < text.lines.count, inner.height > 5 || index < 0 {
            let y = index < 0 ? inner.y + 4 : inner.y + 5
            if y < inner.maxY { grid.put(x, y, TerminalText.sanitized(text.lines[index + 1].text).fitWords(width), .dim, limit: width) }
        }
    }
}
