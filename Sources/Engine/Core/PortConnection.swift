/// `Engine.connect(port:with:)`, decided under the engine's state lock and performed outside it: the
/// decision is this value, the caller makes the `jack_connect` call after the lock is released (the
/// supervisor's shape, after swift-nio's state machines: decide, return an action, do the I/O outside).
/// Generic over the session so the decision is tested without a JACK server.
enum PortConnection<Session> {
    /// Connect `source` to `destination` with `Session`'s client.
    case connect(Session, source: String, destination: String)
    /// Nothing to connect with: the error to throw.
    case refuse(EngineError)

    /// Connects `port` (our port's short name) with `other` (a full JACK port name) in the direction `port`
    /// has: into `midi_in`, out of every other port. `session`: the open client, nil when none is;
    /// `clientName`: the name the server gave it.
    static func decide(port: String, with other: String, session: Session?, clientName: (Session) -> String) -> Self {
        guard let session else { return .refuse(.noSuchPort(port)) }
        let ours = clientName(session) + ":" + port
        return port == JackSession.midiInName
            ? .connect(session, source: other, destination: ours)
            : .connect(session, source: ours, destination: other)
    }
}
