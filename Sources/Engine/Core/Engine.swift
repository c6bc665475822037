import DSP
import Foundation
import MIDI
import Realtime
import Synchronization

/// Runs the synth against an audio backend: JACK (finds or starts the server, owns the client, reconnects
/// when the server comes back) or an ALSA PCM device. The real-time side is `RealtimeContext`; everything
/// here runs on other threads.
///
/// The JACK connection is decided by a `SupervisorStateMachine` value under `state`'s lock, and every
/// slow step (starting a private server, `jack_client_open`, activation, closing) is performed outside the
/// lock, so `status()` never waits for I/O.
public final class Engine: @unchecked Sendable {
    public let options: EngineOptions
    /// The instruments changed live (Engine+InstrumentChange.swift).
    let liveChanges = Mutex<[(channel: Int, path: String)]>([])
    public let synth: Synth
    let context: RealtimeContext
    let log: @Sendable (String) -> Void
    /// The ALSA sequencer and PCM backend (`ALSAParts`).
    let alsa = ALSAParts()
    private let serverName: String

    private typealias Supervisor = SupervisorStateMachine<JackSession, PrivateJackServer>
    private struct State {
        var supervisor = Supervisor()
        var server: ServerDescription
        /// The rate the synth and meters were prepared for (0: not yet).
        var preparedRate = 0
        /// The rate of the last backend that ran (kept while JACK is away, for the status line).
        var sampleRate = 0
        /// The supervisor thread runs and `stop()` must wait for it.
        var supervisorRunning = false
    }
    private let state: Mutex<State>
    /// Open once `stop()` asked the supervisor thread to end.
    private let supervisorStop = AtomicGate(open: false)
    private let supervisorWake = DispatchSemaphore(value: 0)
    private let supervisorExited = DispatchSemaphore(value: 0)

    /// Decodes a SoundFont 3 font's samples for the channels' presets (nil without such a font).
    private let sampleLoader: SoundFontSampleLoader?
    /// Reads a streamed SFZ instrument's samples from disk as notes ask for them (nil without one).
    let streamLoader: SampleStreamLoader?

    /// `log` receives one-line messages meant for the user (server started, lost, reconnected).
    public init(options: EngineOptions, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.log = log
        serverName = options.resolvedServerName
        var font = options.soundFont
        if options.liveInstrumentChanges, let single = font, single.layers.isEmpty {
            // A live change adds to a stack and keeps its indices; a single font's zones are in its file's order.
            var pins: [Int: Int32] = [:]
            for (ch, key) in single.channelPresetKeys.enumerated() where key >= 0 { pins[ch] = key }
            font = SoundFont.stacked([single], always: true).pinning(pins, played: single.playedChannels)
        }
        synth = Synth(voices: options.voices, patch: options.patch, channel: options.channel, soundFont: font,
                      liveChanges: options.liveInstrumentChanges)
        // A SoundFont 3 font's samples are decoded ahead of the notes on a thread of their own.
        let loader = SoundFontSampleLoader(synth: synth, log: log)
        sampleLoader = loader
        streamLoader = SampleStreamLoader(font: synth.soundFont, log: log)
            ?? (options.liveInstrumentChanges ? SampleStreamLoader(log: log) : nil)
        synth.setEffects(reverb: options.reverb, chorus: options.chorus)
        synth.setChannelOutputs(options.outputs == .channels && options.driver == .jack)
        synth.setInterpolation(options.interpolation)
        context = RealtimeContext(synth: synth)
        demo = DemoPlayer(ring: context.demoRing)
        state = Mutex(State(server: ServerDescription(name: serverName, isPrivate: false, driver: nil)))
        loader?.start()
        streamLoader?.start()
    }

    deinit { stop() }

    /// Producer ends: each ring has one producer thread (keyboard: the UI thread; alsa: its reader; demo: the sequencer).
    public var keyboardRing: SPSCRing<ControlEvent> { context.keyboardRing }
    public var alsaRing: SPSCRing<ControlEvent> { context.alsaRing }
    public var demoRing: SPSCRing<ControlEvent> { context.demoRing }
    /// The built-in demo, playing into `demoRing` (its only producer): `demo.start()`, `demo.stop()`.
    public let demo: DemoPlayer

    /// Lifecycle gates, read by the callback: closed MIDI is dropped (and counted lost), closed audio is silence.
    /// Releasing stores pair with the callback's acquiring loads: an event pushed on a control ring before the
    /// gates open (the lifecycle's release of every voice) is applied no later than the first open period.
    public func setGates(midiDelivered: Bool, audioPlaying: Bool) {
        context.midiGate.set(open: midiDelivered)
        context.audioGate.set(open: audioPlaying)
    }

    /// Prepares the synth and the meters for `rate`, once per rate. Every backend calls it before it starts
    /// its real-time thread (the context must not be in use).
    func prepare(sampleRate rate: Int) {
        let needed = state.withLock { state in
            defer { state.preparedRate = rate; state.sampleRate = rate }
            return state.preparedRate != rate
        }
        guard needed else { return }
        synth.prepare(sampleRate: Double(rate), maxFrames: 1024)
        context.loudness.prepare(sampleRate: Double(rate))
        context.maxFrames = 1024
    }

    /// Starts the backend `options.driver` names (and the ALSA sequencer as `options.midiInput` asks). For
    /// JACK: finds or starts the server, opens the client, connects, activates, then supervises it. Call from
    /// the main thread, which lives as long as Backbeat (see `PrivateJackServer.start` on threads).
    public func start() throws {
        if options.driver == .alsa && options.outputs == .channels {
            log("--outputs channels: the per-channel outputs are JACK ports; the ALSA driver plays the main output only")
        }
        try startALSA()
        if options.driver == .alsa { return }
        do {
            try startJACK()
        } catch {
            stopALSA()
            throw error
        }
    }

    private func startJACK() throws {
        PrivateJackServer.quietLibjack()
        let name = serverName
        if let problem = JackServerNameRule.problem(name) {
            let source = options.serverName?.isEmpty == false ? "--server" : "JACK_DEFAULT_SERVER"
            throw EngineError.invalidServerName(source: source, name: name, problem: problem)
        }
        guard state.withLock({ $0.supervisor.startRequested() }) else { return }
        let session: JackSession
        do {
            // Another Backbeat starting at the same moment waits here, then finds this one's server and joins.
            let started = try PrivateJackServer.withStartLock { () throws -> PrivateJackServer? in
                guard !PrivateJackServer.isRunning(name: name) else { return nil }
                guard options.startServer else {
                    throw EngineError.clientOpenFailed(server: name, status: .serverFailed)
                }
                // On a PipeWire desktop a private jackd would play to nobody: say how to join PipeWire.
                if let pipeWire = PipeWireDesktop.refusal() { throw pipeWire }
                // What earlier private servers that died left behind (registry slots, shared memory) would
                // keep this one from starting.
                for line in PrivateJackServer.cleanUpAfterDeadServers() { log(line) }
                return try PrivateJackServer.start(name: name, rate: options.rate, period: options.period)
            }
            if let server = started {
                let action = state.withLock { state in
                    state.server = ServerDescription(name: name, isPrivate: true, driver: server.driver)
                    return state.supervisor.serverStarted(server)
                }
                log("started a private JACK server '\(name)' (\(server.driver) driver, \(options.rate) Hz, \(options.period) frames, pid \(server.pid), log \(server.logPath)): none was running")
                if case .close = action { perform(action); return }  // stopped meanwhile
            } else {
                log("using the running JACK server '\(name)'")
            }
            session = try openSession()
            do { try connectInitial(session) } catch {
                session.close()
                context.ports = nil
                throw error
            }
        } catch {
            perform(state.withLock { $0.supervisor.startFailed() })
            throw error
        }
        let connections = session.connections().mapValues(Set.init)
        let action = state.withLock { state in
            let action = state.supervisor.clientOpened(session, connections: connections)
            if case .none = action { state.supervisorRunning = true }
            return action
        }
        if case .close = action { perform(action); return }  // stopped meanwhile
        log("ready: client '\(session.actualClientName)' on JACK server '\(name)', \(session.sampleRate) Hz, \(session.bufferSize) frames")
        let thread = Thread { [self] in superviseLoop() }
        thread.name = "backbeat-supervisor"
        thread.start()
    }

    /// Stops the backend: the ALSA parts, then the JACK client and a private server. A client or server the
    /// supervisor thread is working with it closes itself when it reports; this waits for it. Idempotent.
    public func stop() {
        demo.stop()
        sampleLoader?.stop()
        streamLoader?.stop()
        supervisorStop.open()
        supervisorWake.signal()
        stopALSA()
        let (action, waitForSupervisor) = state.withLock { state in
            defer { state.supervisorRunning = false }
            return (state.supervisor.stop(), state.supervisorRunning)
        }
        perform(action)
        if waitForSupervisor { supervisorExited.wait() }
    }

    /// The backend running now, if any (called under `state`'s lock).
    private func backend(_ state: borrowing State) -> (any AudioBackend)? {
        if let session = state.supervisor.session { return session }
        return alsa.pcm
    }

    /// A snapshot for the header and `--headless`: reads only, never waits for a server or a client.
    public func status() -> EngineStatus {
        let context = self.context
        return state.withLock { state in
            let backend = backend(state)
            let rate = backend?.sampleRate ?? state.sampleRate
            let period = backend?.periodFrames ?? 0
            let periodNanos = rate > 0 && period > 0 ? Double(period) / Double(rate) * 1e9 : 0
            let last = Double(context.counters.lastCallbackNanos.load(ordering: .relaxed))
            let longest = Double(context.counters.takeLongestCallbackNanos())
            return EngineStatus(
                server: state.server,
                clientName: state.supervisor.session?.actualClientName ?? options.clientName,
                connected: backend != nil,
                sampleRate: rate,
                periodFrames: period,
                jackLoad: backend?.deviceLoad ?? 0,
                callbackLoad: periodNanos > 0 ? last / periodNanos : 0,
                maxCallbackLoad: periodNanos > 0 ? longest / periodNanos : 0,
                xruns: context.counters.xruns.load(ordering: .relaxed),
                voicesInUse: context.counters.activeVoices.load(ordering: .relaxed),
                voiceCapacity: options.voices,
                midiReceived: context.counters.midiReceived.load(ordering: .relaxed),
                midiLost: context.counters.midiLost.load(ordering: .relaxed),
                ringDrops: context.counters.uiRingDrops.load(ordering: .relaxed) + keyboardRing.overruns + alsaRing.overruns + demoRing.overruns
                    + context.playerRing.overruns,
                driver: options.driver.rawValue, alsaPCM: alsa.pcmStatus, alsaMIDI: alsa.midiStatus
            )
        }
    }

    /// Hands every event the callback reported since the last call to `body` (single consumer: one thread).
    public func drainEvents(_ body: (EngineEvent) -> Void) {
        while let event = context.uiRing.pop() { body(event) }
    }

    /// The whole message of a monitor event, a sysex with its payload (see `MonitorEvent.message(takingSysex:)`):
    /// every reader of `drainEvents` calls it once per MIDI event, so the sysex byte ring stays in step.
    public func message(of event: MonitorEvent) -> MIDIMessage? { event.message(takingSysex: takeSysex) }

    /// The payload of a sysex the monitor reported (`sysexBytesQueued` bytes, F0 included).
    public func takeSysex(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count {
            guard let byte = context.sysexRing.pop() else { break }
            bytes.append(byte)
        }
        return bytes
    }

    /// Starts or stops handing Backbeat's output to the capture ring (see `drainCapture`).
    public func setAudioCapture(_ on: Bool) { context.captureOn.set(open: on) }

    /// Moves captured frames into `buffer` (consumer: one disk thread); returns how many.
    public func drainCapture(into buffer: UnsafeMutableBufferPointer<StereoFrame>) -> Int {
        context.captureRing.pop(into: buffer)
    }

    /// Frames lost because the disk thread fell behind, since the engine started.
    public var captureFramesDropped: Int { context.counters.captureFramesDropped.load(ordering: .relaxed) }

    /// Durations of every callback since the start (or the last `resetCallbackDurations`), in ns buckets.
    public var callbackDurations: LatencyHistogram { context.callbackDurations }

    /// The current sample rate (0 before a backend ran).
    public var sampleRate: Int { state.withLock { backend($0)?.sampleRate ?? $0.sampleRate } }

    /// The backend's current frame time (for monitors that print times relative to their start).
    public func frameTime() -> UInt32? { state.withLock { backend($0)?.frameTime } }

    /// The other ends of each of Backbeat's JACK ports' connections, keyed by the port's short name
    /// (`midi_in`, `out_L`, `out_R`); nil when no JACK client is open. For saving a session.
    public func connections() -> [String: [String]]? { state.withLock { $0.supervisor.session?.connections() } }

    /// Connects `port` (our port's short name) with `other` (a full JACK port name), in the direction the
    /// port has: for restoring a session. Throws when no client is open or JACK refuses. Decided under the
    /// lock (`PortConnection`), `jack_connect` called outside it: `status()` never waits for the server.
    public func connect(port: String, with other: String) throws {
        let decision = state.withLock { state in
            PortConnection.decide(port: port, with: other, session: state.supervisor.session, clientName: \.actualClientName)
        }
        switch decision {
        case let .refuse(error): throw error
        case let .connect(session, source, destination): try session.connect(source, destination)
        }
    }
}

// MARK: - JACK: opening, connecting, supervising

extension Engine {
    /// Opens a client, prepares the context for its rate, installs the callbacks and activates.
    private func openSession() throws -> JackSession {
        let session = try JackSession(clientName: options.clientName, serverName: serverName,
                                      channelOutputs: options.outputs == .channels)
        prepare(sampleRate: session.sampleRate)
        context.ports = session.ports
        context.midiThru = options.midiThru
        context.midiOutActive = true
        context.serverGone.close()
        do {
            try session.activate(context: context)
        } catch {
            session.close()
            context.ports = nil
            throw error
        }
        return session
    }

    private func connectInitial(_ session: JackSession) throws {
        let midiIn = session.fullName(session.ports.midiIn)
        let outs = [session.fullName(session.ports.outLeft), session.fullName(session.ports.outRight)]
        for source in options.connectMIDI { try session.connect(source, midiIn) }
        if !options.connectAudio.isEmpty {
            for (index, out) in outs.enumerated() {
                try session.connect(out, options.connectAudio[index % options.connectAudio.count])
            }
        } else if options.autoconnect {
            let playback = session.physicalPorts(kind: .audio, input: true)
            for (index, out) in outs.enumerated() where !playback.isEmpty {
                try session.connect(out, playback[min(index, playback.count - 1)])
            }
            if options.connectMIDI.isEmpty && options.midiInput != .alsa {  // --midi alsa: no JACK MIDI sources
                for source in session.physicalPorts(kind: .midi, input: false) {
                    try? session.connect(source, midiIn)
                }
            }
        }
    }

    /// The supervisor thread: every 200 ms asks the state machine what to do and does it, outside the lock.
    /// A private server it restarts is spawned on this thread, which lives until `stop()` has what it holds
    /// closed (see `PrivateJackServer.start` on threads).
    func superviseLoop() {
        var ticks = 0
        while !supervisorStop.isOpen {
            _ = supervisorWake.wait(timeout: .now() + .milliseconds(200))
            ticks += 1
            let gone = context.serverGone.isOpen
            var action = state.withLock { $0.supervisor.tick(serverGone: gone, remember: ticks % 5 == 0, now: .now) }
            while true {
                if case .none = action { break }
                action = perform(action)
            }
        }
        supervisorExited.signal()
    }

    /// Performs `action` (I/O, outside the lock) and returns the state machine's answer to the report.
    @discardableResult
    private func perform(_ action: SupervisorStateMachine<JackSession, PrivateJackServer>.Action)
        -> SupervisorStateMachine<JackSession, PrivateJackServer>.Action {
        switch action {
        case .none:
            return .none
        case let .close(session, server):
            if let session {
                session.close()
                context.ports = nil
            }
            server?.stop()
            return .none
        case let .closeDeadClient(session):
            session.close()
            context.ports = nil
            log("JACK server '\(serverName)' went away; Backbeat keeps running and reconnects when it is back")
            return state.withLock { $0.supervisor.clientClosed() }
        case let .rememberConnections(session):
            let connections = session.connections().mapValues(Set.init)
            return state.withLock { $0.supervisor.connectionsChecked(connections) }
        case let .restoreConnections(session, wanted):
            restoreConnections(session, wanted: wanted)
            return state.withLock { $0.supervisor.connectionsChecked(nil) }
        case let .reconnect(privateServer):
            return reconnect(privateServer: privateServer)
        }
    }

    /// Restarts a private server that died, then opens a client if the server runs.
    private func reconnect(privateServer: PrivateJackServer?) -> SupervisorStateMachine<JackSession, PrivateJackServer>.Action {
        var server = privateServer
        if let old = privateServer, old.exitStatusIfExited() != nil {
            old.stop()  // its watchdog, and what it left if it was killed
            if let restarted = try? PrivateJackServer.withStartLock({ () throws -> PrivateJackServer? in
                   PrivateJackServer.isRunning(name: serverName) ? nil
                       : try PrivateJackServer.start(name: serverName, rate: options.rate, period: options.period)
               }) ?? nil {
                server = restarted
                log("restarted the private JACK server '\(serverName)'")
            }
        }
        var session: JackSession?
        if PrivateJackServer.isRunning(name: serverName) {
            do { session = try openSession() } catch {
                log("reconnecting to JACK server '\(serverName)' failed: \(error)")
            }
        }
        let next = state.withLock { $0.supervisor.reconnected(session: session, server: server, now: .now) }
        guard session != nil, case .restoreConnections = next else { return next }
        let after = perform(next)
        log("reconnected to JACK server '\(serverName)'")
        return after
    }

    /// Connects whatever we had before that exists again (other clients may come back later: retried).
    private func restoreConnections(_ session: JackSession, wanted: [String: Set<String>]) {
        let current = session.connections()
        let ours: [String: OpaquePointer] = [
            JackSession.midiInName: session.ports.midiIn,
            JackSession.midiOutName: session.ports.midiOut,
            JackSession.outLeftName: session.ports.outLeft,
            JackSession.outRightName: session.ports.outRight,
        ].merging(session.channelPorts) { first, _ in first }
        for (short, others) in wanted {
            guard let port = ours[short] else { continue }
            let full = session.fullName(port)
            for other in others where !(current[short] ?? []).contains(other) && session.portExists(other) {
                if short == JackSession.midiInName {
                    try? session.connect(other, full)
                } else {
                    try? session.connect(full, other)
                }
            }
        }
    }
}
