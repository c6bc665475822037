import Testing

@testable import Engine

/// The supervisor's decisions, without JACK: stand-in session and server objects go in, actions come out.
@Suite struct SupervisorStateMachineTests {
    final class Session {}
    final class Server {}
    typealias Machine = SupervisorStateMachine<Session, Server>
    let now = ContinuousClock.now

    /// A machine that started a private server and opened a client.
    func running(_ session: Session = Session(), server: Server = Server()) -> Machine {
        var machine = Machine()
        let started = machine.startRequested()
        #expect(started)
        guard case .none = machine.serverStarted(server) else { Issue.record("serverStarted acted"); return machine }
        guard case .none = machine.clientOpened(session, connections: ["out_L": ["system:playback_1"]]) else {
            Issue.record("clientOpened acted"); return machine
        }
        return machine
    }

    @Test func startOpensAndStatusSeesTheSessionAndServer() {
        let session = Session(), server = Server()
        let machine = running(session, server: server)
        #expect(machine.stateName == "running")
        #expect(machine.session === session)
        #expect(machine.privateServer === server)
        #expect(machine.wantedConnections == ["out_L": ["system:playback_1"]])
    }

    @Test func aSecondStartIsRefused() {
        var machine = running()
        let startedAgain = machine.startRequested()
        #expect(!startedAgain)
    }

    @Test func failedStartStopsTheServerItStartedAndMayStartAgain() {
        var machine = Machine()
        let server = Server()
        _ = machine.startRequested()
        _ = machine.serverStarted(server)
        guard case let .close(session, stopServer) = machine.startFailed() else { Issue.record("no close"); return }
        #expect(session == nil && stopServer === server)
        #expect(machine.stateName == "idle")
        let restarted = machine.startRequested()
        #expect(restarted)
    }

    @Test func idleTicksRememberConnectionsEveryFewTicks() {
        var machine = running()
        guard case .none = machine.tick(serverGone: false, remember: false, now: now) else { Issue.record("acted"); return }
        guard case .rememberConnections = machine.tick(serverGone: false, remember: true, now: now) else {
            Issue.record("did not remember"); return
        }
        #expect(machine.stateName == "checking")
        #expect(machine.session != nil, "status still sees the client while its connections are read")
        _ = machine.connectionsChecked(["midi_in": ["a:b"]])
        #expect(machine.stateName == "running")
        #expect(machine.wantedConnections == ["midi_in": ["a:b"]])
    }

    @Test func serverGoneClosesTheClientThenReconnectsAndRestores() {
        let server = Server()
        var machine = running(server: server)
        guard case .closeDeadClient = machine.tick(serverGone: true, remember: false, now: now) else {
            Issue.record("did not close the dead client"); return
        }
        #expect(machine.session == nil, "status never sees a client being closed")
        _ = machine.clientClosed()
        #expect(machine.stateName == "disconnected")
        guard case let .reconnect(privateServer) = machine.tick(serverGone: false, remember: false, now: now) else {
            Issue.record("did not reconnect"); return
        }
        #expect(privateServer === server)
        #expect(machine.stateName == "reconnecting")
        // The server is not back yet: wait, then try again.
        _ = machine.reconnected(session: nil, server: server, now: now)
        #expect(machine.stateName == "disconnected")
        guard case .reconnect = machine.tick(serverGone: false, remember: false, now: now) else { Issue.record("no retry"); return }
        let restarted = Server(), session = Session()
        guard case let .restoreConnections(restoring, wanted) = machine.reconnected(session: session, server: restarted, now: now) else {
            Issue.record("did not restore"); return
        }
        #expect(restoring === session)
        #expect(wanted == ["out_L": ["system:playback_1"]])
        #expect(machine.privateServer === restarted)
        // Restoring continues on each tick for the restore window, then stops.
        guard case .restoreConnections = machine.tick(serverGone: false, remember: true, now: now + .seconds(1)) else {
            Issue.record("restore window ended early"); return
        }
        _ = machine.connectionsChecked(nil)
        guard case .restoreConnections = machine.tick(serverGone: false, remember: false, now: now + .seconds(31)) else {
            Issue.record("no last restore"); return
        }
        _ = machine.connectionsChecked(nil)
        guard case .rememberConnections = machine.tick(serverGone: false, remember: true, now: now + .seconds(32)) else {
            Issue.record("still restoring after the window"); return
        }
    }

    @Test func stopWhileRunningClosesBoth() {
        let session = Session(), server = Server()
        var machine = running(session, server: server)
        guard case let .close(closing, stopServer) = machine.stop() else { Issue.record("no close"); return }
        #expect(closing === session && stopServer === server)
        #expect(machine.stateName == "stopped")
        guard case .none = machine.stop() else { Issue.record("second stop acted"); return }
    }

    /// A stop while the supervisor uses the session outside the lock must not close it under its feet: the
    /// supervisor hands it back when it reports, and closes it.
    @Test func stopDuringConnectionCheckWaitsForTheHandBack() {
        let session = Session(), server = Server()
        var machine = running(session, server: server)
        _ = machine.tick(serverGone: false, remember: true, now: now)
        guard case .none = machine.stop() else { Issue.record("closed a session in use"); return }
        #expect(machine.isWaitingForHandBack)
        #expect(machine.session == nil)
        guard case let .close(closing, stopServer) = machine.connectionsChecked([:]) else { Issue.record("no close"); return }
        #expect(closing === session && stopServer === server)
        #expect(machine.stateName == "stopped")
    }

    @Test func stopDuringReconnectClosesWhatTheReconnectMade() {
        var machine = running()
        _ = machine.tick(serverGone: true, remember: false, now: now)
        _ = machine.clientClosed()
        _ = machine.tick(serverGone: false, remember: false, now: now)
        guard case .none = machine.stop() else { Issue.record("acted during a reconnect"); return }
        let session = Session(), restarted = Server()
        guard case let .close(closing, stopServer) = machine.reconnected(session: session, server: restarted, now: now) else {
            Issue.record("no close"); return
        }
        #expect(closing === session && stopServer === restarted)
        #expect(machine.stateName == "stopped")
    }

    @Test func stopDuringStartClosesWhatStartMade() {
        var machine = Machine()
        _ = machine.startRequested()
        let server = Server(), session = Session()
        _ = machine.serverStarted(server)
        guard case .none = machine.stop() else { Issue.record("acted during start"); return }
        guard case let .close(closing, stopServer) = machine.clientOpened(session, connections: [:]) else {
            Issue.record("no close"); return
        }
        #expect(closing === session && stopServer === server)
        #expect(machine.isStopped)
    }

    @Test func stopWhileClosingADeadClientStopsTheServerAfterwards() {
        let server = Server()
        var machine = running(server: server)
        _ = machine.tick(serverGone: true, remember: false, now: now)
        guard case .none = machine.stop() else { Issue.record("acted while closing"); return }
        guard case let .close(closing, stopServer) = machine.clientClosed() else { Issue.record("no close"); return }
        #expect(closing == nil && stopServer === server)
    }

    @Test func ticksAfterStopDoNothing() {
        var machine = running()
        _ = machine.stop()
        guard case .none = machine.tick(serverGone: true, remember: true, now: now) else { Issue.record("acted"); return }
    }
}
