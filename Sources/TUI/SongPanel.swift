import Engine
import TextOutput

/// The song player's panel, over the MIDI monitor while a song plays: the file (and the song's title), its
/// position and length as time and bar:beat, a progress bar, tempo and time signature as they change, the last
/// marker, the parts' track names (folded on word boundaries where the panel has rows for them), the lyrics line
/// by line in time (the line before, the line being sung with its sung part lit, the next), and where the
/// screen has room a piano roll of the next seconds, a row per channel (SongPanel+Roll.swift).
public enum SongPanel {
    /// How the panel's inner rows are shared: the fact lines (tempo, signature, marker, tracks) shown, the
    /// lyrics' rows, and the channels the piano roll shows.
    struct Plan: Equatable {
        var facts: [String]
        var lyricRows: Int
        var roll: [UInt8]
        var innerHeight: Int { 2 + facts.count + lyricRows + roll.count }
    }

    /// Rows it takes of the monitor's `rect`: none where the monitor would keep fewer than 7 of its own; else 7,
    /// and more for folded facts, a third lyrics line and the piano roll while the monitor keeps at least 9
    /// rows and a third of `rect` (at 80x24 the panel stays 7 rows).
    static func height(_ status: SongPlayer.Status, song: Song?, in rect: Rect) -> Int {
        guard rect.height >= 14 else { return 0 }
        let most = rect.height - max(9, rect.height / 3)
        return plan(status, song: song, width: rect.width - 4, rows: most - 2).innerHeight + 2
    }

    /// The rows at least 5 (`rows` inner rows at most): the first fact line and two lyrics rows come first,
    /// then the other fact lines, the third lyrics row, and the roll (2 channels at least, 60 columns wide).
    static func plan(_ status: SongPlayer.Status, song: Song?, width: Int, rows: Int) -> Plan {
        let all = LifecycleText.wrap(facts(status, song: song), width: max(width, 1))
        var extra = max(rows - 5, 0)
        let more = min(max(all.count - 1, 0), extra)
        extra -= more
        var plan = Plan(facts: Array(all.prefix(1 + more)), lyricRows: 2, roll: [])
        if plan.facts.count < all.count, var last = plan.facts.last {  // the list goes on: say so, whole words kept
            last = last.count + 2 <= width ? last + " …" : last.fitWords(width - 2) + " …"
            plan.facts[plan.facts.count - 1] = last
        }
        if let text = song?.text, text.lines.count > 1, extra > 0 { plan.lyricRows = 3; extra -= 1 }
        if let song, width >= rollMinimumWidth, extra >= 2 {
            plan.roll = rollChannels(song, from: status.position, seconds: rollSeconds(status), rows: extra)
        }
        return plan
    }

    /// Tempo, time signature, transposition, the last marker and the parts' track names, as one text.
    static func facts(_ status: SongPlayer.Status, song: Song?) -> String {
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
        return facts.joined(separator: " · ")
    }

    public static func draw(_ status: SongPlayer.Status, song: Song?, into grid: inout Grid, rect: Rect, context: DrawContext) {
        let queue = status.count > 1 ? " \(status.index + 1)/\(status.count)" : ""
        context.frame(&grid, rect, " Song\(queue) ")
        let inner = rect.inset(1)
        guard inner.width > 10, inner.height >= 5 else { return }
        let x = inner.x + 1, width = inner.width - 2
        let plan = plan(status, song: song, width: width, rows: inner.height)
        // The file (and the song's title where it fits), where it is and how long it is.
        let state = status.finished ? " ended" : status.paused ? " paused" : ""
        var place = "\(Song.clock(status.position))/\(Song.clock(status.duration))"
        if let bar = status.bar, let beat = status.beat, let song, song.bars != nil {
            place += "  bar \(bar):\(Int(beat.rounded(.down)))/\(song.place(at: song.duration)?.bar ?? bar)"
        }
        let name = TerminalText.sanitized(status.name), room = max(width - place.count - state.count - 2, 8)
        let titled = song?.text?.title.map { name + " — " + TerminalText.sanitized($0) }
        let at = grid.put(x, inner.y, String.firstFitting((titled.map { [$0] } ?? []) + [name], width: room), .title)
        grid.put(at + 2, inner.y, place + state, .headerValue, limit: max(x + width - at - 2, 0))
        // The progress bar.
        let fraction = status.duration > 0 ? min(max(status.position / status.duration, 0), 1) : 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        for i in 0..<width {
            grid.put(x + i, inner.y + 1, String(Character(i < filled ? context.glyphs.barFull : context.glyphs.barEmpty)), i < filled ? .meterLow : .meterTrack)
        }
        var y = inner.y + 2
        for line in plan.facts {
            grid.put(x, y, line, .dim, limit: width)
            y += 1
        }
        drawLyrics(song?.text, at: status.position, rows: plan.lyricRows, into: &grid, x: x, y: y, width: width)
        drawRoll(plan.roll, song: song, status: status, into: &grid, x: x, y: y + plan.lyricRows, width: width, context: context)
    }

    /// The line before, the one sung (its sung part lit) and, in a third row, the next (in the second before
    /// the first line begins).
    static func drawLyrics(_ text: SongText?, at position: Double, rows: Int, into grid: inout Grid, x: Int, y: Int, width: Int) {
        guard let text, !text.lines.isEmpty else {
            grid.put(x, y, "no lyrics in this file", .dim, limit: width)
            return
        }
        let now = text.line(at: position)
        let index = now?.index ?? -1
        if index > 0 { grid.put(x, y, TerminalText.sanitized(text.lines[index - 1].text).fitWords(width), .dim, limit: width) }
        if let now {
            let line = text.lines[now.index].syllables
            let sung = TerminalText.sanitized(line.prefix(now.sung).map(\.text).joined())
            let rest = TerminalText.sanitized(line.dropFirst(now.sung).map(\.text).joined())
            let after = grid.put(x, y + 1, sung, .selected, limit: width)
            grid.put(after, y + 1, rest.fitWords(max(x + width - after, 0)), .normal, limit: max(x + width - after, 0))
        }
        if index + 1 < text.lines.count, rows > 2 || index < 0 {
            grid.put(x, index < 0 ? y + 1 : y + 2, TerminalText.sanitized(text.lines[index + 1].text).fitWords(width), .dim, limit: width)
        }
    }
}
