// The one live gating of Backbeat by the lifecycle simulator, for the workstation and for
// `backbeat --headless --scenario`: Backbeat's streams, the audibility threshold, a simulated clock with
// pause, single step and speed, narration that follows the state, and the gates and actions the engine must
// apply, returned as values (the caller does the I/O).
import Foundation

/// What the engine lets through now.
public struct LiveGates: Equatable, Sendable {
    /// MIDI input reaches the synth (false: dropped and counted lost).
    public var midiDelivered: Bool
    /// The synth's output plays (false: silence).
    public var audioPlaying: Bool
}

/// Something the engine must do once, before it applies the gates that come with it.
public enum LiveAction: Equatable, Sendable {
    /// The app runs again after a time without code (suspended, terminated): note-offs sent meanwhile were
    /// lost, so release every voice on every channel Backbeat listens to (all notes off, sustain pedal up),
    /// as an iOS app does when it resumes.
    case releaseAllVoices
}

/// A note a scenario's `midi:S` step plays on Backbeat's synth: sent through the same control ring as the
/// computer keyboard's notes, so the real-time callback's lifecycle gate delivers it or drops it (counted lost).
public enum LiveNote: Equatable, Sendable {
    /// Note on, velocity 100, channel 1.
    case on(UInt8)
    /// Its note off, a quarter second (simulated) later; sent only for a note on that was delivered.
    case off(UInt8)
}

/// One frame's result: the gates now, the actions due before them and the notes to send after them.
public struct LiveUpdate: Equatable, Sendable {
    public var gates: LiveGates
    public var actions: [LiveAction]
    /// Sent after the gates are applied, so a note meets the gate of the state it was played in.
    public var notes: [LiveNote] = []
}

/// Messages a MIDI stream received since the scenario started: delivered to the app, or lost.
public struct MIDICount: Equatable, Sendable {
    public var stream: String
    public var delivered = 0
    public var lost = 0
}

/// The lifecycle simulator running live: Backbeat's own app (synth, MIDI inputs, demo, plus virtual streams
/// switched on by keys) or a scenario file played in real time. Time is simulated: `update(wall:)` moves it
/// by the wall clock times `speed` unless paused; `perform(.step, ...)` jumps to the next scheduled change.
public final class LiveSession {
    enum Driver {
        case free(LifecycleSimulator)
        case scenario(ScenarioPlayer)
    }

    /// Backbeat's synth: its playing state is the audio gate (paused by an interruption, stopped by a key).
    public static let synthStream = "synth"
    public static let demoStream = "demo"
    /// Backbeat's MIDI inputs, all `midi-in` streams.
    public static let midiStreams = ["jack", "alsa", "keys", demoStream]
    /// The synth counts as audible above this level (dBFS), for `silent-keepalive`.
    public static let audibleThresholdDB: Float = -60
    /// How far back the panel's strip looks, in seconds.
    public static let stripSeconds = 60
    /// The speed factors `slower` and `faster` step through.
    public static let speeds: [Double] = [0.25, 0.5, 1, 2, 4, 8]

    /// A linear peak (1 = full scale) in dBFS.
    public static func decibels(_ peak: Float) -> Float {
        peak > 0 ? 20 * log10(peak) : -.infinity
    }

    var driver: Driver
    /// The scenario's title, when one plays.
    public let scenarioTitle: String?
    /// State changes in order: the strip and "time in state" read them.
    public private(set) var history: [(time: Double, state: AppState)] = []
    /// Callbacks fired, oldest first (the last 64).
    public private(set) var callbacks: [(time: Double, names: [String])] = []
    public private(set) var narration: Narration? {
        didSet { if keepsTimeline, let narration { narrations.append(narration) } }
    }
    private var narrations: [Narration] = []
    /// The latest reason, unknown rule or remark, in words.
    public internal(set) var remark: String?
    public private(set) var expectationsPassed = 0
    public private(set) var expectationsFailed = 0
    /// Bumped whenever something the panel shows changed.
    public internal(set) var version = 0
    /// Simulated seconds.
    public private(set) var now: Double = 0
    public internal(set) var isPaused = false
    /// Whether another app's non-mixable audio plays (the `o` key toggles it).
    public internal(set) var otherAppAudioPlaying = false
    public internal(set) var speed: Double = 1
    /// When the scenario finished (every step and expectation done, nothing more scheduled).
    public private(set) var finishedAt: Double?
    private var lastWall: Double?
    /// Keep every timeline line and narration for `takeTimeline()` and `takeNarrations()` (headless prints
    /// them; the workstation does not ask).
    public var keepsTimeline = false
    private var timeline: [TimelineLine] = []
    private var pendingActions: [LiveAction] = []
    private var pendingNotes: [LiveNote] = []
    /// Note offs due: simulated time and note.
    private var noteOffs: [(time: Double, note: UInt8)] = []
    /// Per `midi-in` stream of a scenario, in configuration order: messages of its `midi:S` steps delivered
    /// and lost since the scenario started (empty for Backbeat's own app).
    public private(set) var midiCounts: [MIDICount] = []
    /// How long a scenario's note sounds, in simulated seconds.
    public static let noteSeconds = 0.25
    private var hasRun = false
    private var wasRunning = false
    private var lastAlive: [String] = []
    var detachedVideo = false

    /// Backbeat's streams and the defaults: SwiftUI scenePhase, background modes [audio], category playback
    /// without mixWithOthers (an app that plays in background). The app resumes its synth on interruption
    /// ended, as a well-behaved player does.
    /// `midiInputs`: the MIDI inputs that exist in this run (`midiStreams` by default); one that does not
    /// (ALSA MIDI unavailable, no JACK with the ALSA driver) is not listed as a stream, let alone a running one.
    public static func defaultConfiguration(demoPlaying: Bool = false, midiInputs: [String] = midiStreams) -> LifecycleConfiguration {
        LifecycleConfiguration(
            style: .swiftui, backgroundModes: [.audio], category: .playback,
            streams: [StreamConfig(name: synthStream, kind: .audioOutput, playing: true, audible: false)]
                + midiStreams.filter(midiInputs.contains).map { StreamConfig(name: $0, kind: .midiIn, playing: $0 == demoStream ? demoPlaying : true) },
            handlers: [Handler(on: .interruptionEnded, actions: [.play(synthStream)])])
    }

    /// Backbeat's own app, launched at simulated time `now`.
    public init(configuration: LifecycleConfiguration = LiveSession.defaultConfiguration(), launchAt now: Double = 0) {
        scenarioTitle = nil
        driver = .free(LifecycleSimulator(configuration: configuration))
        self.now = now
        history = [(now, .notRunning)]
        _ = perform(.event(.launch), at: now)
    }

    /// A scenario played in real time: its steps happen as time reaches them (the first `update` applies
    /// those at 0, so a launch at 0 opens the gates before anything plays).
    public init(scenario: Scenario) {
        scenarioTitle = scenario.title
        driver = .scenario(ScenarioPlayer(scenario))
        history = [(0, .notRunning)]
        midiCounts = scenario.configuration.streams.filter { $0.kind == .midiIn }.map { MIDICount(stream: $0.name) }
    }

    public var simulator: LifecycleSimulator {
        switch driver {
        case .free(let s): s
        case .scenario(let p): p.simulator
        }
    }

    public var state: AppState { simulator.state }
    /// Seconds since the state last changed.
    public var timeInState: Double { now - (history.last?.time ?? 0) }
    public var isScenario: Bool { scenarioTitle != nil }
    public var scenarioFinished: Bool { finishedAt != nil }
    /// Expectations checked so far.
    public var expectationsChecked: Int { expectationsPassed + expectationsFailed }

    /// The gates: MIDI is delivered while the app runs code; the synth plays while the app runs code AND its
    /// stream really plays (an interruption pauses it, the audio mode's absence pauses it at background, a
    /// key stops it). Without a `synth` stream (a scenario about other streams) audio follows the state.
    public var gates: LiveGates {
        let sim = simulator
        let synthPlays = sim.isRunning(Self.synthStream) ?? true
        return LiveGates(midiDelivered: sim.midiInputDelivered, audioPlaying: sim.audioOutputPlays && synthPlays)
    }

    // MARK: - Time

    /// One frame: moves simulated time by the wall clock (seconds, any origin), feeds Backbeat's real
    /// streams in, and returns the gates with the actions to do before applying them.
    public func update(wall: Double, synthLevelDB: Float? = nil, demoPlaying: Bool? = nil) -> LiveUpdate {
        clock(wall: wall)
        if let demoPlaying { setDemo(demoPlaying, at: now) }
        if let synthLevelDB { setSynthLevel(synthLevelDB, at: now) }
        advance(to: now)
        return LiveUpdate(gates: gates, actions: takeActions(), notes: takeNotes())
    }

    /// The notes due (each returned once): note ons of `midi:S` steps, note offs a quarter second later.
    public func takeNotes() -> [LiveNote] {
        defer { pendingNotes = [] }
        return pendingNotes
    }

    /// "keys 2 delivered, 1 lost · jack 0 delivered, 0 lost" (nil without a scenario MIDI stream).
    public var midiCountsText: String? {
        midiCounts.isEmpty ? nil : midiCounts.map { "\($0.stream) \($0.delivered) delivered, \($0.lost) lost" }.joined(separator: " · ")
    }

    /// The timeline lines since the last call (only with `keepsTimeline`), for `--json`-style output.
    public func takeTimeline() -> [TimelineLine] {
        defer { timeline = [] }
        return timeline
    }

    /// Every narration since the last call, in order (only with `keepsTimeline`).
    public func takeNarrations() -> [Narration] {
        defer { narrations = [] }
        return narrations
    }

    /// The actions due (each returned once).
    public func takeActions() -> [LiveAction] {
        defer { pendingActions = [] }
        return pendingActions
    }

    func clock(wall: Double) {
        if let last = lastWall, !isPaused, wall > last { advance(to: now + (wall - last) * speed) }
        lastWall = wall
    }

    /// Lets simulated time pass to `time`: scenario steps, suspension after the grace period, task expiry.
    public func advance(to time: Double) {
        guard time >= now else { return }
        now = time
        switch driver {
        case .free(var s):
            let entries = s.advance(to: time)
            driver = .free(s)
            take(entries.map(TimelineLine.entry))
        case .scenario(var p):
            let lines = p.advance(to: time)
            driver = .scenario(p)
            take(lines)
        }
        while let i = noteOffs.firstIndex(where: { $0.time <= time }) {
            pendingNotes.append(.off(noteOffs.remove(at: i).note))
        }
        checkFinished()
    }

    /// When the next scheduled change happens: a scenario step or expectation, a suspension, a task expiry.
    public var nextScheduled: Double? {
        var times: [Double] = []
        if case .scenario(let p) = driver {
            if let t = p.scenario.steps.map(\.at).filter({ $0 > now }).min() { times.append(t) }
            if let t = p.scenario.expectations.map(\.at).filter({ $0 > now }).min() { times.append(t) }
        }
        if let t = simulator.nextDeadline, t > now { times.append(t) }
        return times.min()
    }

    private func checkFinished() {
        guard finishedAt == nil, case .scenario(let p) = driver, p.isFinished, simulator.nextDeadline == nil else { return }
        // When the last thing happened, not when a frame noticed it.
        let last = [p.scenario.steps.map(\.at).max(), p.scenario.expectations.map(\.at).max(), history.last?.time]
        finishedAt = min(now, last.compactMap { $0 }.max() ?? now)
        let failed = expectationsFailed > 0 ? ", \(expectationsFailed) FAILED" : ""
        let end = "The scenario has finished (\(expectationsPassed) of \(expectationsChecked) expectations passed\(failed)); Backbeat keeps running and the event keys still act."
        // Words said at this very moment (a step's, the release on resume) stay, with the end after them.
        if let n = narration, n.time == finishedAt {
            say(Self.joined(n.fromScenario ? "“\(Self.sentence(n.text))”" : n.text, end), scenario: false)
        } else {
            say(end, scenario: false)
        }
    }

    // MARK: - Backbeat's real streams

    /// The synth's real level (dBFS): audible above `audibleThresholdDB` (only when there is a `synth` stream).
    public func setSynthLevel(_ db: Float, at time: Double) {
        guard let synth = simulator.streamFlags(of: Self.synthStream) else { return }
        let audible = db > Self.audibleThresholdDB
        guard audible != synth.isAudible else { return }
        change(at: time) { sim in sim.setAudible(Self.synthStream, audible, at: time) }
    }

    /// The demo sequencer started or stopped (only when there is a `demo` stream).
    public func setDemo(_ playing: Bool, at time: Double) {
        guard let demo = simulator.streamFlags(of: Self.demoStream), demo.isOn != playing else { return }
        if playing && !state.runsCode { return }  // a suspended app starts nothing
        change(at: time) { sim in sim.setStream(Self.demoStream, on: playing, at: time) }
    }

    // MARK: - Changes and what they say

    @discardableResult
    func change(at time: Double, _ body: (inout LifecycleSimulator) -> [TimelineEntry]) -> [TimelineEntry] {
        let entries: [TimelineEntry]
        switch driver {
        case .free(var s):
            entries = body(&s)
            driver = .free(s)
        case .scenario(var p):
            entries = replay(&p, body: body, at: time)
            driver = .scenario(p)
        }
        now = max(now, time)
        take(entries.map(TimelineLine.entry))
        return entries
    }

    /// The scenario player takes only events and audibility (the configuration is the file's): a change is
    /// tried on a copy, and the event or audibility it amounts to goes through the player.
    private func replay(_ p: inout ScenarioPlayer, body: (inout LifecycleSimulator) -> [TimelineEntry], at time: Double) -> [TimelineEntry] {
        var copy = p.simulator
        let entries = body(&copy)
        guard let last = entries.last, let event = last.event else { return [] }
        if let parsed = LifecycleEvent(parsing: event) { return p.apply(parsed, at: time) }
        if event.hasSuffix(" audible") || event.hasSuffix(" inaudible") {
            return p.setAudible(event.hasSuffix(" audible"), stream: Self.synthStream, at: time)
        }
        return []
    }

    private func take(_ lines: [TimelineLine]) {
        if keepsTimeline { timeline += lines }
        for line in lines {
            version += 1
            switch line {
            case .expectation(let x):
                if x.passed { expectationsPassed += 1 } else { expectationsFailed += 1 }
                remark = "expect at \(TimelineFormat.number(x.time)) s: \(x.passed ? "PASS" : "FAIL") \(x.detail)"
            case .entry(let e):
                let changedState = e.state != history.last?.state
                if changedState { history.append((e.time, e.state)) }
                if history.count > 512 { history.removeFirst(history.count - 512) }
                if !e.callbacks.isEmpty {
                    callbacks.append((e.time, e.callbacks))
                    if callbacks.count > 64 { callbacks.removeFirst(callbacks.count - 64) }
                }
                if let text = e.unknownRule ?? e.reason ?? e.notes.first, !text.isEmpty { remark = text }
                narrate(e, changedState: changedState)
                playMIDIStep(e)
            }
        }
    }

    /// A scenario's `midi:S` step on a `midi-in` stream plays its note live: a message the simulator
    /// delivers is sent to the synth (the gate is open: it sounds); one lost because the app runs no code is
    /// sent too and dropped at the closed gate (the engine counts it lost); one lost because the stream is off
    /// is not sent. Each is counted on its stream.
    private func playMIDIStep(_ e: TimelineEntry) {
        guard isScenario, let event = e.event, event.hasPrefix("midi:"), let delivered = e.delivered,
              let i = midiCounts.firstIndex(where: { "midi:" + $0.stream == event }) else { return }
        let note = UInt8(clamping: e.note ?? 60)
        if delivered {
            midiCounts[i].delivered += 1
            pendingNotes.append(.on(note))
            noteOffs.append((e.time + Self.noteSeconds, note))
        } else {
            midiCounts[i].lost += 1
            if !e.state.runsCode { pendingNotes.append(.on(note)) }
        }
    }

    /// The scenario's `say` when the entry has one; else Backbeat's own sentence whenever the state or what
    /// keeps the app alive changed, so that nothing said earlier outlives the situation it described.
    private func narrate(_ e: TimelineEntry, changedState: Bool) {
        let resumed = e.state.runsCode && !wasRunning && hasRun
        wasRunning = e.state.runsCode
        if e.state.runsCode { hasRun = true }
        let aliveChanged = e.aliveBy != lastAlive
        lastAlive = e.aliveBy
        var text: String?
        var fromScenario = false
        if let say = e.narration {
            text = say
            fromScenario = true
        } else if changedState || (aliveChanged && e.state == .background) {
            text = Self.describe(e)
        }
        if resumed {
            pendingActions.append(.releaseAllVoices)
            let why = "Backbeat releases every voice (all notes off, sustain pedal up, all 16 channels): note-offs sent while the app ran no code were lost, and those notes would hang."
            text = text.map { Self.joined($0, why) } ?? why
        }
        // Back in the foreground with the synth stream stopped (`a`): MIDI is delivered, yet nothing sounds.
        if changedState, e.state == .active, let synth = simulator.status(of: Self.synthStream), !synth.isOn {
            let still = "The synth is still stopped, so nothing sounds: a (Lifecycle panel) plays it again."
            text = text.map { Self.joined($0, still) } ?? still
        }
        if let text { narration = Narration(text: text, time: e.time, fromScenario: fromScenario && !resumed) }
    }

    func say(_ text: String, scenario: Bool) {
        narration = Narration(text: text, time: now, fromScenario: scenario)
        version += 1
    }

    /// Backbeat's sentence for the situation after an entry.
    static func describe(_ e: TimelineEntry) -> String {
        let reason = e.reason.map { $0.isEmpty ? "" : ": " + $0 } ?? ""
        switch e.state {
        case .active: return "Active\(reason). MIDI is delivered."
        case .inactive: return "Inactive\(reason). Still in the foreground: MIDI is delivered."
        case .background:
            if e.aliveBy.isEmpty {
                return "In background and nothing keeps the app alive: it is suspended \(Int(LifecycleSimulator.gracePeriod)) s later unless something starts."
            }
            return "In background, kept alive by \(e.aliveBy.joined(separator: ", ")): MIDI still arrives."
        case .suspended: return "Suspended\(reason). The app runs no code: MIDI sent to it is lost and Backbeat is silent."
        case .terminated: return "Terminated\(reason). Nothing plays; only launch brings it back."
        case .notRunning: return "Not running."
        }
    }

    /// The state at simulated `time`, from the history (nil before it starts).
    public func state(at time: Double) -> AppState? {
        guard let first = history.first, time >= first.time else { return nil }
        return history.last(where: { $0.time <= time })?.state
    }

    /// One line on what to do next, for the panel: why the default app cannot be suspended and the key
    /// that changes it, what brings a suspended app back, the scenario's end.
    public var hint: String? {
        if let finishedAt {
            return "scenario finished at \(TimelineFormat.number(finishedAt)) s: \(expectationsPassed) of \(expectationsChecked) expectations passed"
        }
        let sim = simulator
        switch sim.state {
        case .active, .inactive:
            guard !isScenario, let synth = sim.status(of: Self.synthStream) else { return nil }
            if synth.keepsAlive {
                return "The playing synth keeps the app alive in background, so it is never suspended: a stops the synth (Backbeat goes silent), then h and it is suspended \(Int(LifecycleSimulator.gracePeriod)) s later."
            }
            if !synth.isOn { return "The synth is stopped, so nothing keeps the app alive: h and it is suspended \(Int(LifecycleSimulator.gracePeriod)) s later; a plays the synth again." }
            return nil
        case .background:
            guard !isScenario, sim.aliveBy.contains(Self.synthStream) else { return nil }
            return "Kept alive by the playing synth: a stops it, and the app is suspended \(Int(LifecycleSimulator.gracePeriod)) s later."
        case .suspended:
            return isScenario ? nil : "f brings the app back; Backbeat then releases every voice (note-offs were lost)."
        case .terminated:
            return isScenario ? nil : "L launches the app again."
        case .notRunning:
            return nil
        }
    }

    /// "speed 1x", "PAUSED at 12.0 s · speed 2x".
    public var clockText: String {
        let factor = speed == speed.rounded() ? String(Int(speed)) : String(speed)
        return (isPaused ? "PAUSED · " : "") + "speed \(factor)x"
    }
}
