import CJack
import DSP
import Foundation
import MIDI
import Realtime
import Synchronization

/// How the engine is set up; the command line fills it.
public struct EngineOptions: Sendable {
    public var clientName = "backbeat"
    /// nil: `$JACK_DEFAULT_SERVER`, else "default".
    public var serverName: String?
    public var connectMIDI: [String] = []
    public var connectAudio: [String] = []
    public var autoconnect = true
    /// For a private server.
    public var rate = 48_000
    public var period = 256
    /// Start a private server when none runs under that name.
    public var startServer = true
    public var voices = 64
    public var channel: UInt8?
    public var patch = 0
    // ALSA (ALSAEngine.swift): the audio driver, the MIDI inputs, the PCM device.
    public var driver: AudioDriver = .jack
    public var midiInput: MIDIInputSelection = .auto
    /// ALSA sequencer sources to subscribe ("CLIENT:PORT", names or numbers), again whenever they come back.
    public var alsaConnect: [String] = []
    /// ALSA PCM device for `driver == .alsa` (with `rate`, `period` and `alsaPeriods`).
    public var alsaDevice = "default"
    public var alsaPeriods = 2

    public init() {}

    public var resolvedServerName: String {
        if let serverName, !serverName.isEmpty { return serverName }
        if let name = ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"], !name.isEmpty { return name }
        return "default"
    }
}

/// A snapshot of what the engine is doing, for the header and `--headless`.
public struct EngineStatus: Sendable {
    public var server: ServerDescription
    public var clientName: String
    public var connected: Bool
    public var sampleRate: Int
    public var periodFrames: Int
    /// JACK's own DSP load estimate, percent.
    public var jackLoad: Float
    /// The last and the longest callback since the previous snapshot, as a fraction of the period.
    public var callbackLoad: Double
    public var maxCallbackLoad: Double
    public var xruns: Int
    public var voicesInUse: Int
    public var voiceCapacity: Int
    public var midiReceived: Int
    public var midiLost: Int
    public var ringDrops: Int
    // ALSA (ALSAEngine.swift)
    /// The audio driver running: "jack" or "alsa".
    public var driver = "jack"
    /// With the ALSA driver: device, sample format, buffer, scheduling.
    public var alsaPCM: String?
    /// The ALSA MIDI line for the header: the sequencer port, or "ALSA MIDI unavailable: <reason>"; nil when
    /// not asked for.
    public var alsaMIDI: String?
}

/// Runs the synth against JACK: finds or starts the server, owns the client, restarts it when the server
/// comes back. The real-time side is `RealtimeContext.process`; everything here runs on other threads.
public final class Engine: @unchecked Sendable {
    public let options: EngineOptions
    public let synth: Synth
    let context: RealtimeContext
    let log: @Sendable (String) -> Void
    /// ALSA sequencer and PCM (ALSAEngine.swift).
    let alsa = ALSAParts()

    private struct State {
        var session: JackSession?
        var server: ServerDescription
        var privateServer: PrivateJackServer?
        var sampleRate = 0
        var preparedRate = 0
        /// Our port's short name -> the other ends, kept while connected, restored after a reconnect.
        var wantedConnections: [String: Set<String>] = [:]
        var restoreUntil: ContinuousClock.Instant?
        var stopped = false
    }
    private let state: Mutex<State>
    private let supervisorStop = Atomic<Bool>(false)
    private let supervisorWake = DispatchSemaphore(value: 0)
    private var supervisor: Thread?

    /// `log` receives one-line messages meant for the user (server started, lost, reconnected).
    public init(options: EngineOptions, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.log = log
        synth = Synth(voices: options.voices, patch: options.patch, channel: options.channel)
        context = RealtimeContext(synth: synth)
        demo = DemoPlayer(ring: context.demoRing)
        state = Mutex(State(server: ServerDescription(name: options.resolvedServerName, isPrivate: false, driver: nil)))
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
        context.midiGate.store(midiDelivered, ordering: .releasing)
        context.audioGate.store(audioPlaying, ordering: .releasing)
    }

    /// Finds or starts the server, opens the client, connects, activates. Call from the main thread (a private
    /// server's parent-death signal is tied to the thread that spawns it).
    public func start() throws {
        // ALSA (ALSAEngine.swift): the sequencer per --midi; with --driver alsa the PCM instead of JACK.
        try startALSA()
        if options.driver == .alsa { return }
        var startedJACK = false
        defer { if !startedJACK { stopALSA() } }
        PrivateJackServer.quietLibjack()
        let name = options.resolvedServerName
        if let problem = JackServerNameRule.problem(name) {
            let source = options.serverName?.isEmpty == false ? "--server" : "JACK_DEFAULT_SERVER"
            throw EngineError.invalidOption("\(source) \(String(reflecting: name)) is not a JACK server name: \(problem)")
        }
        if !PrivateJackServer.isRunning(name: name) {
            guard options.startServer else {
                throw EngineError.clientOpenFailed(server: name, status: .serverFailed)
            }
            // What earlier private servers that died left behind (registry slots, shared memory) would
            // keep this one from starting.
            for line in PrivateJackServer.cleanUpAfterDeadServers() { log(line) }
            let server = try PrivateJackServer.start(name: name, rate: options.rate, period: options.period)
            state.withLock {
                $0.privateServer = server
                $0.server = ServerDescription(name: name, isPrivate: true, driver: server.driver)
            }
            log("started a private JACK server '\(name)' (\(server.driver) driver, \(options.rate) Hz, \(options.period) frames, pid \(server.pid), log \(server.logPath)): none was running")
        } else {
            log("using the running JACK server '\(name)'")
        }
        let ready = try state.withLock { state in
            try open(&state, initial: true)
            return "ready: client '\(state.session?.actualClientName ?? options.clientName)' on JACK server '\(name)', \(state.sampleRate) Hz, \(state.session?.bufferSize ?? 0) frames"
        }
        log(ready)
        let thread = Thread { [self] in superviseLoop() }
        thread.name = "backbeat-supervisor"
        supervisor = thread
        thread.start()
        startedJACK = true
    }

    /// Deactivates and closes the client, then stops a private server. Idempotent.
    public func stop() {
        demo.stop()
        supervisorStop.store(true, ordering: .releasing)
        supervisorWake.signal()
        stopALSA()  // ALSA (ALSAEngine.swift): PCM thread and sequencer reader
        let toStop: PrivateJackServer? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            state.session?.close()
            state.session = nil
            context.ports = nil
            defer { state.privateServer = nil }
            return state.privateServer
        }
        toStop?.stop()
    }

    public func status() -> EngineStatus {
        let context = self.context
        return state.withLock { state in
            let pcm = alsa.pcm  // ALSA driver
            let rate = state.session?.sampleRate ?? pcm?.rate ?? state.sampleRate
            let period = state.session?.bufferSize ?? pcm?.periodFrames ?? 0
            let periodNanos = rate > 0 && period > 0 ? Double(period) / Double(rate) * 1e9 : 0
            let last = Double(context.counters.lastCallbackNanos.load(ordering: .relaxed))
            let longest = Double(context.counters.maxCallbackNanos.exchange(0, ordering: .relaxed))
            return EngineStatus(
                server: state.server,
                clientName: state.session?.actualClientName ?? options.clientName,
                connected: state.session != nil || pcm != nil,
                sampleRate: rate,
                periodFrames: period,
                jackLoad: state.session?.cpuLoad ?? 0,
                callbackLoad: periodNanos > 0 ? last / periodNanos : 0,
                maxCallbackLoad: periodNanos > 0 ? longest / periodNanos : 0,
                xruns: context.counters.xruns.load(ordering: .relaxed),
                voicesInUse: context.counters.activeVoices.load(ordering: .relaxed),
                voiceCapacity: options.voices,
                midiReceived: context.counters.midiReceived.load(ordering: .relaxed),
                midiLost: context.counters.midiLost.load(ordering: .relaxed),
                ringDrops: context.counters.uiRingDrops.load(ordering: .relaxed) + keyboardRing.overruns + alsaRing.overruns + demoRing.overruns,
                driver: options.driver.rawValue, alsaPCM: alsa.pcmStatus, alsaMIDI: alsa.midiStatus
            )
        }
    }

    /// Hands every event the callback reported since the last call to `body` (single consumer: one thread).
    public func drainEvents(_ body: (EngineEvent) -> Void) {
        while let event = context.uiRing.pop() { body(event) }
    }

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
    public func setAudioCapture(_ on: Bool) { context.captureOn.store(on, ordering: .releasing) }

    /// Moves captured frames into `buffer` (consumer: one disk thread); returns how many.
    public func drainCapture(into buffer: UnsafeMutableBufferPointer<StereoFrame>) -> Int {
        context.captureRing.pop(into: buffer)
    }

    /// Frames lost because the disk thread fell behind, since the engine started.
    public var captureFramesDropped: Int { context.counters.captureFramesDropped.load(ordering: .relaxed) }

    /// Durations of every callback since the start (or the last `resetCallbackDurations`), in ns buckets.
    public var callbackDurations: LatencyHistogram { context.callbackDurations }

    /// The current sample rate (0 while no server is connected).
    public var sampleRate: Int { alsa.pcm?.rate ?? state.withLock { $0.sampleRate } }

    /// JACK's current frame time (for monitors that print times relative to their start).
    public func frameTime() -> UInt32? {
        if let pcm = alsa.pcm { return UInt32(truncatingIfNeeded: pcm.framesWritten.load(ordering: .relaxed)) }  // ALSA driver
        return state.withLock { state in state.session.map { jack_frame_time($0.client) } }
    }

    // MARK: - Opening, connecting, reconnecting

    private func open(_ state: inout State, initial: Bool) throws {
        let session = try JackSession(clientName: options.clientName, serverName: state.server.name)
        let rate = session.sampleRate
        if rate != state.preparedRate {
            synth.prepare(sampleRate: Double(rate), maxFrames: 1024)
            context.loudness.prepare(sampleRate: Double(rate))
            context.maxFrames = 1024
            state.preparedRate = rate
        }
        state.sampleRate = rate
        context.ports = session.ports
        context.serverGone.store(false, ordering: .releasing)
        do {
            try session.activate(context: context, onShutdown: backbeatShutdownCallback)
        } catch {
            session.close()
            context.ports = nil
            throw error
        }
        state.session = session
        if initial {
            do { try connectInitial(session, &state) } catch {
                session.close()
                state.session = nil
                context.ports = nil
                throw error
            }
        }
    }

    private func connectInitial(_ session: JackSession, _ state: inout State) throws {
        let midiIn = session.fullName(session.ports.midiIn)
        let outs = [session.fullName(session.ports.outLeft), session.fullName(session.ports.outRight)]
        for source in options.connectMIDI { try session.connect(source, midiIn) }
        if !options.connectAudio.isEmpty {
            for (index, out) in outs.enumerated() {
                try session.connect(out, options.connectAudio[index % options.connectAudio.count])
            }
        } else if options.autoconnect {
            let playback = session.ports(type: backbeat_jack_audio_type(), flags: JackPortIsPhysical, JackPortIsInput)
            for (index, out) in outs.enumerated() where !playback.isEmpty {
                try session.connect(out, playback[min(index, playback.count - 1)])
            }
            if options.connectMIDI.isEmpty && options.midiInput != .alsa {  // --midi alsa: no JACK MIDI sources
                for source in session.ports(type: backbeat_jack_midi_type(), flags: JackPortIsPhysical, JackPortIsOutput) {
                    try? session.connect(source, midiIn)
                }
            }
        }
        state.wantedConnections = session.connections().mapValues(Set.init)
    }

    private func superviseLoop() {
        var ticks = 0
        while !supervisorStop.load(ordering: .acquiring) {
            _ = supervisorWake.wait(timeout: .now() + .milliseconds(200))
            if supervisorStop.load(ordering: .acquiring) { break }
            ticks += 1
            state.withLock { state in
                guard !state.stopped else { return }
                supervise(&state, remember: ticks % 5 == 0)
            }
        }
    }

    private func supervise(_ state: inout State, remember: Bool) {
        if let session = state.session {
            if context.serverGone.load(ordering: .acquiring) {
                session.close()
                state.session = nil
                context.ports = nil
                log("JACK server '\(state.server.name)' went away; Backbeat keeps running and reconnects when it is back")
                return
            }
            if let until = state.restoreUntil {
                restoreConnections(session, &state)
                if ContinuousClock.now > until { state.restoreUntil = nil }
            } else if remember {
                state.wantedConnections = session.connections().mapValues(Set.init)
            }
            return
        }
        // No client: restart a private server that died, then try to reconnect.
        if let server = state.privateServer, server.exitStatusIfExited() != nil {
            server.stop()  // its watchdog, and what it left if it was killed
            if !PrivateJackServer.isRunning(name: state.server.name),
               let restarted = try? PrivateJackServer.start(name: state.server.name, rate: options.rate, period: options.period) {
                state.privateServer = restarted
                log("restarted the private JACK server '\(state.server.name)'")
            }
        }
        guard PrivateJackServer.isRunning(name: state.server.name) else { return }
        do {
            try open(&state, initial: false)
            state.restoreUntil = ContinuousClock.now + .seconds(30)
            if let session = state.session { restoreConnections(session, &state) }
            log("reconnected to JACK server '\(state.server.name)'")
        } catch {
            log("reconnecting to JACK server '\(state.server.name)' failed: \(error)")
        }
    }

    /// Connects whatever we had before that exists again (other clients may come back later: retried).
    private func restoreConnections(_ session: JackSession, _ state: inout State) {
        let current = session.connections()
        let ours: [String: OpaquePointer] = [
            JackSession.midiInName: session.ports.midiIn,
            JackSession.outLeftName: session.ports.outLeft,
            JackSession.outRightName: session.ports.outRight,
        ]
        for (short, others) in state.wantedConnections {
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
