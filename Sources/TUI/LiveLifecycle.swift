import Lifecycle

/// What a key in the lifecycle panel does.
public enum LifecycleKey: Equatable, Sendable {
    /// A user or system event of LIFECYCLE.md section 1.
    case event(LifecycleEvent)
    /// Another app starts playing audio: the simulator has no such event (see `LiveLifecycle.perform`).
    case otherAppAudio
    case cycleStyle, cycleModes, cycleCategory, toggleMix
    /// Virtual streams: keep-alive player (off, empty, near-silent), video player (off, attached, detached),
    /// standard location updates, a background task.
    case keepAlive, video, location, backgroundTask
}

/// The lifecycle simulator running live against the clock, with Backbeat's own streams (the synth's output,
/// the MIDI inputs, the demo sequencer) plus virtual ones switched on by keys; or a scenario file played in
/// real time through `ScenarioPlayer`, as `backbeat --headless --scenario` does. It keeps what the panel
/// shows: state history (the strip), callbacks in order, narration, the last remark.
public final class LiveLifecycle {
    private enum Driver {
        case free(LifecycleSimulator)
        case scenario(ScenarioPlayer)
    }

    public static let synthStream = "synth"
    public static let demoStream = "demo"
    /// The synth counts as audible above this meter level (dBFS).
    public static let audibleThresholdDB: Float = -60
    /// How far back the strip looks, in seconds.
    public static let stripSeconds = 60

    private var driver: Driver
    /// The scenario's title, when one plays.
    public let scenarioTitle: String?
    /// State changes in order: the strip and "time in state" read them.
    public private(set) var history: [(time: Double, state: AppState)] = []
    /// Callbacks fired, oldest first (the last 64).
    public private(set) var callbacks: [(time: Double, names: [String])] = []
    /// The scenario's latest `say`.
    public private(set) var narration: String?
    /// The latest reason, unknown rule or remark, in words.
    public private(set) var remark: String?
    public private(set) var expectationsPassed = 0
    public private(set) var expectationsFailed = 0
    /// Bumped whenever something the panel shows changed.
    public private(set) var version = 0
    public private(set) var now: Double = 0

    /// Backbeat's streams and the defaults the panel shows: SwiftUI scenePhase, background modes [audio],
    /// category playback without mixWithOthers (an app that plays in background, Backbeat's synth). The
    /// app resumes its synth on interruption ended, as a well-behaved player does.
    public static func defaultConfiguration(demoPlaying: Bool = false) -> LifecycleConfiguration {
        LifecycleConfiguration(
            style: .swiftui, backgroundModes: [.audio], category: .playback,
            streams: [StreamConfig(name: synthStream, kind: .audioOutput, playing: true, audible: false),
                      StreamConfig(name: "jack", kind: .midiIn, playing: true),
                      StreamConfig(name: "alsa", kind: .midiIn, playing: true),
                      StreamConfig(name: "keys", kind: .midiIn, playing: true),
                      StreamConfig(name: demoStream, kind: .midiIn, playing: demoPlaying)],
            handlers: [Handler(on: .interruptionEnded, actions: [.play(synthStream)])])
    }

    /// Backbeat's own app, launched at `now`.
    public init(configuration: LifecycleConfiguration = LiveLifecycle.defaultConfiguration(), launchAt now: Double = 0) {
        scenarioTitle = nil
        driver = .free(LifecycleSimulator(configuration: configuration))
        self.now = now
        history = [(now, .notRunning)]
        _ = perform(.event(.launch), at: now)
    }

    /// A scenario played in real time: its steps happen as `advance(to:)` reaches them.
    public init(scenario: Scenario) {
        scenarioTitle = scenario.title
        driver = .scenario(ScenarioPlayer(scenario))
        history = [(0, .notRunning)]
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
    public var scenarioFinished: Bool { if case .scenario(let p) = driver { p.isFinished } else { false } }

    // MARK: - Time and Backbeat's real streams

    /// Lets time pass: scenario steps, suspension after the grace period, task expiry.
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
    }

    /// The synth's real level: audible above -60 dBFS (only when there is a `synth` stream).
    public func setSynthLevel(_ db: Float, at time: Double) {
        guard let synth = simulator.status(of: Self.synthStream) else { return }
        let audible = db > Self.audibleThresholdDB
        guard audible != synth.isAudible else { return }
        change(at: time) { sim in sim.setAudible(Self.synthStream, audible, at: time) }
    }

    /// The demo sequencer started or stopped (only when there is a `demo` stream).
    public func setDemo(_ playing: Bool, at time: Double) {
        guard let demo = simulator.status(of: Self.demoStream), demo.isOn != playing else { return }
        if playing && !state.runsCode { return }  // a suspended app starts nothing
        change(at: time) { sim in sim.setStream(Self.demoStream, on: playing, at: time) }
    }

    // MARK: - Keys

    /// Performs a key's action at `time`; returns the status line's message.
    @discardableResult
    public func perform(_ key: LifecycleKey, at time: Double) -> String {
        advance(to: time)
        let config = simulator.configuration
        switch key {
        case .event(let event):
            let entries = change(at: time) { sim in sim.apply(event, at: time) }
            guard let e = entries.last else { return "\(event): nothing happened" }
            var message = "\(event): " + (e.callbacks.isEmpty ? "no callback" : e.callbacks.joined(separator: ", ")) + " → \(e.state.rawValue)"
            if let u = e.unknownRule { message += " · \(u)" } else if let n = e.notes.first { message += " · \(n)" }
            return message
        case .otherAppAudio:
            // LIFECYCLE.md section 3 says a non-mixable playback session is interrupted by a non-mixable
            // foreground app, but the simulator has no event for it: say so rather than guess.
            let text = "unknown rule: other app's audio has no event in the simulator (LIFECYCLE.md: a non-mixable session is interrupted by a non-mixable foreground app); nothing simulated"
            remark = text
            version += 1
            return text
        case .cycleStyle:
            guard !isScenario else { return scenarioOwnsConfiguration }
            let all = LifecycleStyle.allCases
            let next = all[(all.firstIndex(of: config.style)! + 1) % all.count]
            change(at: time) { sim in sim.setStyle(next, at: time) }
            return "lifecycle style \(next.rawValue)"
        case .cycleModes:
            guard !isScenario else { return scenarioOwnsConfiguration }
            let cycle: [[BackgroundMode]] = [[.audio], [.audio, .location], [.location], []]
            let i = cycle.firstIndex(of: config.backgroundModes) ?? -1
            let next = cycle[(i + 1) % cycle.count]
            change(at: time) { sim in sim.setBackgroundModes(next, at: time) }
            return "background modes [\(next.map(\.rawValue).joined(separator: ", "))]"
        case .cycleCategory:
            guard !isScenario else { return scenarioOwnsConfiguration }
            let all = SessionCategory.allCases
            let next = all[(all.firstIndex(of: config.category)! + 1) % all.count]
            change(at: time) { sim in sim.setCategory(next, at: time) }
            return "audio session category \(next.rawValue)"
        case .toggleMix:
            guard !isScenario else { return scenarioOwnsConfiguration }
            let mix = !config.options.contains(.mixWithOthers)
            change(at: time) { sim in sim.setMixWithOthers(mix, at: time) }
            return "mixWithOthers \(mix ? "on" : "off")"
        case .keepAlive:
            guard !isScenario else { return scenarioOwnsConfiguration }
            // Off, then MIDIKit's empty player (never plays), then Ditto's near-silent one, then off.
            let on = simulator.status(of: "keepalive")?.isOn ?? false
            let content = config.streams.first { $0.name == "keepalive" }?.content
            if on && content == .nearSilent {
                change(at: time) { sim in sim.setStream("keepalive", on: false, at: time) }
                return "keep-alive player stopped"
            }
            let next: PlayerContent = on ? .nearSilent : .empty
            change(at: time) { sim in
                sim.addStream(StreamConfig(name: "keepalive", kind: .keepalivePlayer, content: next, playing: true), at: time)
            }
            return "keep-alive player: \(next.rawValue) content, playing"
        case .video:
            guard !isScenario else { return scenarioOwnsConfiguration }
            // Off, then playing attached to its layer, then detached (plays its audio in background), then off.
            let on = simulator.status(of: "video")?.isOn ?? false
            if !on {
                detachedVideo = false
                change(at: time) { sim in
                    sim.addStream(StreamConfig(name: "video", kind: .videoPlayer, content: .audible, playing: true), at: time)
                }
                return "video player playing, attached to its layer"
            }
            if !detachedVideo {
                detachedVideo = true
                change(at: time) { sim in sim.setVideoAttached("video", false, at: time) }
                return "video player detached from its layer"
            }
            detachedVideo = false
            change(at: time) { sim in sim.setStream("video", on: false, at: time) }
            return "video player stopped"
        case .location:
            guard !isScenario else { return scenarioOwnsConfiguration }
            return toggle("location", kind: .location, what: "location updates", at: time)
        case .backgroundTask:
            guard !isScenario else { return scenarioOwnsConfiguration }
            return toggle("task", kind: .backgroundTask, what: "background task", at: time)
        }
    }

    private var detachedVideo = false
    private let scenarioOwnsConfiguration = "the scenario sets the configuration and streams: only events while it plays"

    private func toggle(_ name: String, kind: StreamKind, what: String, at time: Double) -> String {
        if simulator.status(of: name) == nil {
            change(at: time) { sim in sim.addStream(StreamConfig(name: name, kind: kind, playing: true), at: time) }
        } else {
            let on = !(simulator.status(of: name)?.isOn ?? false)
            change(at: time) { sim in sim.setStream(name, on: on, at: time) }
        }
        let status = simulator.status(of: name)
        return "\(what) \(status?.isOn == true ? "on" : "off")" + (status.map { ": \($0.why)" } ?? "")
    }

    @discardableResult
    private func change(at time: Double, _ body: (inout LifecycleSimulator) -> [TimelineEntry]) -> [TimelineEntry] {
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

    /// The scenario player takes only events and audibility (the configuration is the file's): a change
    /// is tried on a copy, and the event or audibility it amounts to goes through the player.
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
        for line in lines {
            version += 1
            switch line {
            case .expectation(let x):
                if x.passed { expectationsPassed += 1 } else { expectationsFailed += 1 }
                remark = "expect at \(TimelineFormat.number(x.time)) s: \(x.passed ? "PASS" : "FAIL") \(x.detail)"
            case .entry(let e):
                if e.state != history.last?.state { history.append((e.time, e.state)) }
                if history.count > 512 { history.removeFirst(history.count - 512) }
                if !e.callbacks.isEmpty {
                    callbacks.append((e.time, e.callbacks))
                    if callbacks.count > 64 { callbacks.removeFirst(callbacks.count - 64) }
                }
                if let n = e.narration { narration = n }
                if let text = e.unknownRule ?? e.reason ?? e.notes.first, !text.isEmpty { remark = text }
            }
        }
    }

    /// The state at `time` from the history (nil before it starts).
    public func state(at time: Double) -> AppState? {
        guard let first = history.first, time >= first.time else { return nil }
        return history.last(where: { $0.time <= time })?.state
    }
}
