import Engine

extension SessionActions {
    static let noSong = "no song is playing: backbeat play FILE.mid plays one"

    /// Hands a transport key to the song player; what the status line says until the player's own line returns.
    public func transport(_ request: SongPlayer.Transport) -> String {
        guard let player, !player.isFinished else { return Self.noSong }
        player.send(request)
        switch request {
        case .togglePause: return player.status()?.paused == true ? "resuming" : "paused (K resumes)"
        case .bars(let bars): return bars < 0 ? "one bar back" : "one bar forward"
        case .songs(let songs): return songs < 0 ? "previous file" : "next file"
        case .restart: return "from the start"
        case .tempo(let percent): return percent < 0 ? "tempo slower" : "tempo faster"
        case .transpose(let semitones): return semitones < 0 ? "a semitone down" : "a semitone up"
        case .seek: return "going there"
        case .loopHere: return "looping"
        }
    }
}
