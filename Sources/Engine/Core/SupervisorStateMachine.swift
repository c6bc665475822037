/// The engine's JACK connection as a value, in the shape swift-nio uses for its state machines: the owner
/// reports what happened, the value decides and returns what to do, and the owner does that I/O (starting a
/// private server, `jack_client_open`, activation, closing) *outside* its lock. A status read takes the lock
/// only to read this value, so it never waits for a server to start or a client to open.
///
/// Every state that hands a session or a server to a thread doing I/O marks it in flight, so a `stop()`
/// arriving meanwhile does not close it under that thread's feet: the thread gets the close back as the
/// answer to its report (`.close`), and performs it itself.
///
/// Generic over the session and the server so that the transitions are tested without JACK.
struct SupervisorStateMachine<Session: AnyObject, Server: AnyObject> {
    fileprivate enum State {
        /// Nothing started yet.
        case idle
        /// `start()` is finding or starting the server and opening the client (outside the lock).
        case starting(server: Server?)
        /// A client is open and active.
        case running(Session, server: Server?, restoreUntil: ContinuousClock.Instant?)
        /// The supervisor is reading or restoring the session's connections (outside the lock).
        case checking(Session, server: Server?, restoreUntil: ContinuousClock.Instant?)
        /// The server went away; the supervisor is closing the dead client (outside the lock).
        case closing(server: Server?)
        /// No client: waiting for the server to come back.
        case disconnected(server: Server?)
        /// The supervisor is restarting a private server that died and opening a client (outside the lock).
        case reconnecting(server: Server?)
        /// `stop()` came while another thread had I/O in flight with these: that thread hands them back when it
        /// reports, and is told to close them.
        case stopping(Session?, server: Server?)
        case stopped
    }

    /// What the owner must do next.
    enum Action {
        case none
        /// Close the session (if any), then stop the server (if any): a stop, a failed start, or a result that
        /// arrived after a stop.
        case close(Session?, stopServer: Server?)
        /// The server went away: close this client, then report `clientClosed()`.
        case closeDeadClient(Session)
        /// Read the session's connections, then report `connectionsChecked(_:)`.
        case rememberConnections(Session)
        /// Connect again what `wanted` lists and is missing, then report `connectionsChecked(nil)`.
        case restoreConnections(Session, wanted: [String: Set<String>])
        /// Restart `privateServer` if it exited, then open a client if the server runs; report `reconnected`.
        case reconnect(privateServer: Server?)
    }

    private var state = State.idle
    /// Our port's short name -> the other ends, kept while connected, restored after a reconnect.
    private(set) var wantedConnections: [String: Set<String>] = [:]
    /// How long after a reconnect the supervisor keeps restoring connections (other clients come back later).
    static var restoreWindow: Duration { .seconds(30) }

    init() {}

    // MARK: - Reads (for status; no I/O)

    /// The open client, when one is (also while the supervisor reads its connections).
    var session: Session? {
        switch state {
        case let .running(session, _, _), let .checking(session, _, _): session
        default: nil
        }
    }

    /// The private server Backbeat started, if any.
    var privateServer: Server? {
        switch state {
        case let .starting(server), let .running(_, server, _), let .checking(_, server, _), let .closing(server),
             let .disconnected(server), let .reconnecting(server): server
        case .idle, .stopping, .stopped: nil
        }
    }

    var isStopped: Bool {
        switch state {
        case .stopping, .stopped: true
        default: false
        }
    }

    /// A short name for the state, for tests and diagnostics.
    var stateName: String {
        switch state {
        case .idle: "idle"
        case .starting: "starting"
        case .running: "running"
        case .checking: "checking"
        case .closing: "closing"
        case .disconnected: "disconnected"
        case .reconnecting: "reconnecting"
        case .stopping: "stopping"
        case .stopped: "stopped"
        }
    }

    // MARK: - Starting

    /// `start()` begins; false when the engine was started or stopped already.
    mutating func startRequested() -> Bool {
        guard case .idle = state else { return false }
        state = .starting(server: nil)
        return true
    }

    /// `start()` started a private server (the owner holds it until this returns).
    mutating func serverStarted(_ server: Server) -> Action {
        switch state {
        case .starting:
            state = .starting(server: server)
            return .none
        default:
            return stopped(closing: nil, server: server)
        }
    }

    /// `start()` opened, activated and connected the client; `connections` as they are now.
    mutating func clientOpened(_ session: Session, connections: [String: Set<String>]) -> Action {
        switch state {
        case let .starting(server):
            wantedConnections = connections
            state = .running(session, server: server, restoreUntil: nil)
            return .none
        case let .stopping(_, server):
            return stopped(closing: session, server: server)
        default:
            return .close(session, stopServer: nil)
        }
    }

    /// `start()` failed: whatever it started is stopped, and the engine can be started again.
    mutating func startFailed() -> Action {
        switch state {
        case let .starting(server):
            state = .idle
            return .close(nil, stopServer: server)
        case let .stopping(_, server):
            return stopped(closing: nil, server: server)
        default:
            return .none
        }
    }

    // MARK: - Supervising

    /// The supervisor's periodic look: `serverGone` from JACK's shutdown callback; `remember` every few ticks.
    mutating func tick(serverGone: Bool, remember: Bool, now: ContinuousClock.Instant) -> Action {
        switch state {
        case let .running(session, server, restoreUntil):
            if serverGone {
                state = .closing(server: server)
                return .closeDeadClient(session)
            }
            if let until = restoreUntil {
                state = .checking(session, server: server, restoreUntil: now > until ? nil : until)
                return .restoreConnections(session, wanted: wantedConnections)
            }
            if remember {
                state = .checking(session, server: server, restoreUntil: nil)
                return .rememberConnections(session)
            }
            return .none
        case let .disconnected(server):
            state = .reconnecting(server: server)
            return .reconnect(privateServer: server)
        default:
            return .none
        }
    }

    /// The connections were read (`connections`) or restored (nil).
    mutating func connectionsChecked(_ connections: [String: Set<String>]?) -> Action {
        switch state {
        case let .checking(session, server, restoreUntil):
            if let connections { wantedConnections = connections }
            state = .running(session, server: server, restoreUntil: restoreUntil)
            return .none
        case let .stopping(session, server):
            return stopped(closing: session, server: server)
        default:
            return .none
        }
    }

    /// The dead client is closed.
    mutating func clientClosed() -> Action {
        switch state {
        case let .closing(server):
            state = .disconnected(server: server)
            return .none
        case let .stopping(_, server):
            return stopped(closing: nil, server: server)
        default:
            return .none
        }
    }

    /// The reconnect attempt ended: `server` is the private server now (restarted, the same, or nil when it
    /// could not be restarted); `session` the new client, nil while the server is not back.
    mutating func reconnected(session: Session?, server: Server?, now: ContinuousClock.Instant) -> Action {
        switch state {
        case .reconnecting:
            if let session {
                state = .running(session, server: server, restoreUntil: now + Self.restoreWindow)
                return .restoreConnections(session, wanted: wantedConnections)
            }
            state = .disconnected(server: server)
            return .none
        default:
            return stopped(closing: session, server: server)
        }
    }

    // MARK: - Stopping

    /// The engine is stopped for good: closes `session` and stops `server` (either may be nil).
    private mutating func stopped(closing session: Session?, server: Server?) -> Action {
        state = .stopped
        return .close(session, stopServer: server)
    }

    /// Stops: returns what to close now. What another thread is using (I/O in flight) that thread hands back
    /// when it reports, and the answer to its report is the close.
    mutating func stop() -> Action {
        switch state {
        case .idle:
            state = .stopped
            return .none
        case let .running(session, server, _):
            return stopped(closing: session, server: server)
        case let .disconnected(server):
            return stopped(closing: nil, server: server)
        case let .checking(session, server, _):
            state = .stopping(session, server: server)
            return .none
        case let .starting(server), let .closing(server), let .reconnecting(server):
            state = .stopping(nil, server: server)
            return .none
        case .stopping, .stopped:
            return .none
        }
    }

    /// True while `stop()` waits for another thread to hand back what it holds.
    var isWaitingForHandBack: Bool {
        if case .stopping = state { return true }
        return false
    }
}

extension SupervisorStateMachine.Action: Sendable where Session: Sendable, Server: Sendable {}
extension SupervisorStateMachine: Sendable where Session: Sendable, Server: Sendable {}
extension SupervisorStateMachine.State: Sendable where Session: Sendable, Server: Sendable {}
