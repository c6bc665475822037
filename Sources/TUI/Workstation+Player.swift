import Engine
import TextOutput

// The song player's keys that need more than a request: `J` types a bar or a time in the status line and goes
// there (with every channel's state chased, as `--start` does), and the A/B loop's `V` `N` `C`.
extension Workstation {
    func startSeekPrompt() {
        guard let player = actions.songPlayer, !player.isFinished else { return say(SessionActions.noSong) }
        seekPrompt = ""
    }

    /// The status line is a one-line editor while a place is asked for: digits, `:` and `.`.
    func handleSeekPrompt(_ key: Key) {
        guard let text = seekPrompt else { return }
        switch PromptKey.apply(key, to: text, accepts: { text, c in
            ((c.isASCII && c.isNumber) || c == ":" || c == ".") && text.count < 12
        }) {
        case .editing(let edited): seekPrompt = edited
        case .cancelled: seekPrompt = nil; say("no jump")
        case .entered(let place): seekPrompt = nil; say(seek(to: place))
        case .quit: quitRequested = true
        }
    }

    /// What the prompt shows: what was typed and what it takes.
    public var seekPromptLine: String? {
        seekPrompt.map { "jump to bar or M:SS: \($0)_   (Enter goes there; Esc cancels)" }
    }

    /// Sends the player to `text` (a bar, or M:SS); what the status line says.
    func seek(to text: String) -> String {
        guard let player = actions.songPlayer, !player.isFinished else { return SessionActions.noSong }
        guard let start = SongStart(text) else {
            return "\"\(TerminalText.sanitized(text))\" is no place: type a bar (1, 12, ...) or a time as M:SS (1:05, 0:30.5)"
        }
        if let refusal = player.seekRefusal(start) { return refusal }
        player.send(.seek(start))
        switch start {
        case .bar(let bar): return "to bar \(bar)"
        case .seconds(let seconds): return "to \(Song.clock(seconds, fraction: seconds != seconds.rounded(.down)))"
        }
    }

    /// The A/B loop's keys; what the status line says.
    func abLoop(_ key: ABLoop) -> String {
        guard let player = actions.songPlayer, !player.isFinished else { return SessionActions.noSong }
        switch key {
        case .setA:
            guard let a = player.setLoopStart() else { return SessionActions.noSong }
            return "loop A at \(Song.clock(a, fraction: true)) (N sets B and loops)"
        case .setB:
            guard let b = player.setLoopEnd() else { return "B must come after A (V sets A where the song is)" }
            let a = player.status()?.loopA ?? 0
            return "looping \(Song.clock(a, fraction: true))-\(Song.clock(b, fraction: true)) (C ends the loop)"
        case .clear:
            player.clearLoop()
            return "loop off: the song plays on"
        }
    }

    /// The song panel over the top of the monitor's `rect` while a song plays; the rect left for the monitor.
    func drawSong(into grid: inout Grid, above rect: Rect) -> Rect {
        guard let player = actions.songPlayer, let status = player.status() else { return rect }
        let song = player.currentSong()
        let height = SongPanel.height(status, song: song, in: rect)
        guard height > 0 else { return rect }
        SongPanel.draw(status, song: song, into: &grid, rect: Rect(x: rect.x, y: rect.y, width: rect.width, height: height),
                       context: DrawContext(glyphs: glyphs, focused: false))
        return Rect(x: rect.x, y: rect.y + height, width: rect.width, height: rect.height - height)
    }
}
