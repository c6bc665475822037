// The simulator: a value you drive by hand. Time only moves when `advance(to:)` or `apply(_:at:)` is called,
// and every effect comes back as data (`TimelineEntry`), never as I/O (the swift-nio state-machine style).

/// The simulated iOS app. Drive it with `apply(_:at:)` and `advance(to:)`; read `state`, `aliveBy`,
/// `streamStatuses`, and the two gates `midiInputDelivered` and `audioOutputPlays`.
public struct LifecycleSimulator: Sendable {
    /// The current configuration (change it with the `set…` methods).
    public private(set) var configuration: LifecycleConfiguration
    /// Simulated seconds since the start.
    public internal(set) var now: Double = 0
    /// Every warning raised so far, in order.
    public private(set) var raisedWarnings: [LifecycleWarning] = []

    // The state below is internal so that the simulator's extensions (LifecycleSimulator+Events.swift,
    // +Time.swift) can change it; nothing else in the module does.
    var phase: Phase = .notRunning
    var runtime: [String: Runtime] = [:]
    var sessionActive = false
    /// The interruptions going on: `interruption.began` came with the first, `ended` comes with the last.
    var interruptions: Set<Interruption> = []
    var interrupted: Bool { !interruptions.isEmpty }
    /// Another app plays non-mixable audio (`other-audio-start` until `other-audio-stop`).
    var otherAudioPlaying = false
    /// When the process ends after applicationWillTerminate (rules §2: about 5 s).
    var terminateAt: Double?
    /// The event of the wake window the app is in (BLE event, silent push), if any.
    var wakeEvent: String?
    var pipActive = false
    var call: Call = .none
    var lossReason = "nothing keeps the app alive 5 s after didEnterBackground"
    var activeConditions: Set<String> = []
    var pendingWarnings: [LifecycleWarning] = []
    /// Notes raised before any line was begun (a mode not modelled, said at the start): the next line's.
    var pendingNotes: [String] = []
    var draft: Draft?
    var currentEvent: LifecycleEvent?
    var lastAlive: [String] = []
    /// A call the app reported to CallKit is ringing or going on: the system keeps the app alive.
    var callKitActive = false
    /// When the push-to-talk transmission being played ends.
    var transmissionUntil: Double?
    /// When the running BGProcessingTask reaches its (assumed) budget.
    var processingUntil: Double?
    /// A handler called `complete` during this event.
    var completed = false
    /// A `pushkit.incoming` handler reported the call during this event.
    var reportedCall = false

    /// What the system (not a stream) keeps alive, as named in `alive_by` (docs/lifecycle-rules.md, 3b).
    public static let systemKeepers = ["callkit", "processing-task", "push-to-talk"]
    /// How long a push-to-talk transmission plays when nothing stops it (seconds; assumed).
    public static let transmissionDuration = 10.0
    /// The window of a handled background fetch or silent push (rules §2: up to 30 s).
    public static let handledWakeDuration = 30.0

    /// Grace period between losing the last keep-alive (or didEnterBackground) and suspension (rules §2).
    public static let gracePeriod = 5.0
    /// How long a Bluetooth LE event or a silent push keeps a suspended app running (rules §2: about 10 s).
    public static let wakeDuration = 10.0
    /// How long applicationWillTerminate has before the process ends (rules §2: about 5 s).
    public static let willTerminateDuration = 5.0

    /// Creates the app, not running yet, at time 0.
    public init(configuration: LifecycleConfiguration) {
        var configuration = configuration
        configuration.addImplicitStreams()
        self.configuration = configuration
        resetRuntime()
        checkConfigurationWarnings(previous: nil)
    }

    // MARK: - Reading

    /// The process state now.
    public var state: AppState { phase.state }

    /// The streams keeping the process alive now (sorted; empty unless in background).
    public var aliveBy: [String] {
        guard state == .background else { return [] }
        var names = streamStatuses.filter(\.keepsAlive).map(\.name)
        if callKitActive { names.append("callkit") }
        if processingUntil != nil { names.append("processing-task") }
        if transmissionUntil != nil { names.append("push-to-talk") }
        return names.sorted()
    }

    /// Gate for the engine: whether MIDI input reaches the app (false while suspended, terminated, not running).
    public var midiInputDelivered: Bool { state.runsCode }

    /// Gate for the engine: whether audio output plays (false while suspended, terminated, not running).
    public var audioOutputPlays: Bool { state.runsCode }

    /// Whether a message arriving on the `midi-in` stream `name` reaches the app now.
    public func delivers(midiOn name: String) -> Bool {
        state.runsCode && (runtime[name]?.on ?? false)
    }

    /// When the next timed change (suspension, background task expiry, end of a wake, termination after
    /// applicationWillTerminate) happens, if one is scheduled. nil: nothing more happens without an event.
    public var nextDeadline: Double? { nextTimer()?.0 }

    /// Whether the audio session is interrupted now (a call, or another app's non-mixable audio): its
    /// players are paused until the interruption ends and the app resumes them.
    public var isInterrupted: Bool { interrupted }

    /// Whether applicationWillTerminate has run and the process is about to end.
    public var isTerminating: Bool { terminateAt != nil }

    /// Each stream's status, in configuration order.
    public var streamStatuses: [StreamStatus] { configuration.streams.map(status) }

    /// One stream's status, or nil if there is no stream of that name.
    public func status(of name: String) -> StreamStatus? {
        configuration.streams.first(where: { $0.name == name }).map(status)
    }

    // MARK: - Driving

    /// Moves time forward to `time`, producing the entries of what happens meanwhile (suspension after
    /// the grace period, background task expiry). Warnings raised by a configuration change are flushed too.
    public mutating func advance(to time: Double) -> [TimelineEntry] {
        var out = advanceTimers(to: time)
        if !pendingWarnings.isEmpty || !pendingNotes.isEmpty {
            begin(event: nil)
            settle()
            if let e = finish(force: true) { out.append(e) }
        }
        return out
    }

    /// Advances to `time` (not before `now`), then applies `event`. The last entry is the event's.
    public mutating func apply(_ event: LifecycleEvent, at time: Double) -> [TimelineEntry] {
        var out = advanceTimers(to: time)
        begin(event: event.description)
        currentEvent = event
        handle(event)
        currentEvent = nil
        settle()
        if let e = finish(force: true) { out.append(e) }
        return out
    }

    /// Switches a stream on or off, as the app's own code would (`stream-start:S` / `stream-stop:S`).
    public mutating func setStream(_ name: String, on: Bool, at time: Double) -> [TimelineEntry] {
        apply(on ? .streamStart(name) : .streamStop(name), at: time)
    }

    /// Updates whether a stream is audible (the live meter level). Changes only warnings and statuses.
    public mutating func setAudible(_ name: String, _ audible: Bool, at time: Double) -> [TimelineEntry] {
        reconfigure(at: time, what: "\(name) \(audible ? "audible" : "inaudible")") { sim in
            sim.runtime[name]?.audible = audible
            if let i = sim.configuration.streams.firstIndex(where: { $0.name == name }) {
                sim.configuration.streams[i].audible = audible
            }
        }
    }

    /// Changes the lifecycle style (which callbacks fire from now on).
    public mutating func setStyle(_ style: LifecycleStyle, at time: Double) -> [TimelineEntry] {
        reconfigure(at: time, what: "lifecycle \(style.rawValue)") { $0.configuration.style = style }
    }

    /// Changes the declared UIBackgroundModes.
    public mutating func setBackgroundModes(_ modes: [BackgroundMode], at time: Double) -> [TimelineEntry] {
        reconfigure(at: time, what: "background modes [\(modes.map(\.rawValue).joined(separator: ", "))]") {
            $0.configuration.backgroundModes = modes
        }
    }

    /// Changes the audio session category.
    public mutating func setCategory(_ category: SessionCategory, at time: Double) -> [TimelineEntry] {
        reconfigure(at: time, what: "category \(category.rawValue)") { $0.configuration.category = category }
    }

    /// Adds or removes the `mixWithOthers` option.
    public mutating func setMixWithOthers(_ mix: Bool, at time: Double) -> [TimelineEntry] {
        reconfigure(at: time, what: mix ? "mixWithOthers on" : "mixWithOthers off") { sim in
            sim.configuration.options.removeAll { $0 == .mixWithOthers }
            if mix { sim.configuration.options.append(.mixWithOthers) }
        }
    }

    /// Adds a stream (switched off unless `stream.playing`), or replaces the one with the same name.
    public mutating func addStream(_ stream: StreamConfig, at time: Double) -> [TimelineEntry] {
        reconfigure(at: time, what: "stream \(stream.name) added") { sim in
            if let i = sim.configuration.streams.firstIndex(where: { $0.name == stream.name }) {
                sim.configuration.streams[i] = stream
            } else {
                sim.configuration.streams.append(stream)
            }
            sim.runtime[stream.name] = Runtime(on: false, audible: stream.audible)
            // Started as the app's code would start it: implicit session activation and its rules apply.
            if stream.playing && sim.state.runsCode { sim.start(stream.name, in: nil) }
        }
    }

    /// Attaches a video player to its layer or detaches it, as `attach-video:S` / `detach-video:S` do
    /// outside any handler (the live panel's key).
    public mutating func setVideoAttached(_ name: String, _ attached: Bool, at time: Double) -> [TimelineEntry] {
        reconfigure(at: time, what: "\(name) \(attached ? "attached to its layer" : "detached from its layer")") { sim in
            sim.run(attached ? .attachVideo(name) : .detachVideo(name), in: nil)
        }
    }

    /// Removes a stream (what keeps the app alive is re-evaluated).
    public mutating func removeStream(_ name: String, at time: Double) -> [TimelineEntry] {
        reconfigure(at: time, what: "stream \(name) removed") { sim in
            sim.configuration.streams.removeAll { $0.name == name }
            sim.runtime[name] = nil
        }
    }

    // MARK: - Internals: entries

    private mutating func reconfigure(at time: Double, what: String,
                                      _ change: (inout LifecycleSimulator) -> Void) -> [TimelineEntry] {
        var out = advanceTimers(to: time)
        let previous = configuration
        begin(event: "set \(what)")
        change(&self)
        checkConfigurationWarnings(previous: previous)
        settle()
        if let e = finish(force: true) { out.append(e) }
        return out
    }

    mutating func begin(event: String?) {
        draft = Draft(event: event, warnings: pendingWarnings, notes: pendingNotes, stateBefore: state, aliveBefore: lastAlive)
        pendingWarnings = []
        pendingNotes = []
    }

    mutating func finish(force: Bool) -> TimelineEntry? {
        guard let d = draft else { return nil }
        draft = nil
        let alive = aliveBy
        lastAlive = alive
        let changed = d.stateBefore != state || alive != d.aliveBefore || !d.callbacks.isEmpty
            || !d.warnings.isEmpty || d.unknownRule != nil
        guard force || changed else { return nil }
        return TimelineEntry(time: now, event: d.event, callbacks: d.callbacks, state: state, aliveBy: alive,
                             reason: d.stateBefore != state ? d.reason : nil,
                             warnings: d.warnings.sorted { $0.code < $1.code },
                             delivered: d.delivered, unknownRule: d.unknownRule, notes: d.notes, narration: nil,
                             streams: streamStatuses)
    }

    /// Raises a warning. A code appears at most once per timeline line: a second cause of the same code at
    /// the same moment joins the first one's message (and the warning then names no single stream).
    mutating func warn(_ code: WarningCode, _ stream: String? = nil, _ detail: String? = nil) {
        let w = LifecycleWarning(code: code, stream: stream, message: detail ?? code.explanation)
        func merge(_ list: inout [LifecycleWarning]) -> LifecycleWarning? {
            guard let i = list.firstIndex(where: { $0.code == code }) else { list.append(w); return nil }
            if list[i].stream == stream || list[i].message.contains(w.message) { return list[i] }
            list[i].message += "; " + w.message
            if list[i].stream != stream { list[i].stream = nil }
            return list[i]
        }
        let merged: LifecycleWarning?
        if draft != nil { merged = merge(&draft!.warnings) } else { merged = merge(&pendingWarnings) }
        if let merged {
            if let i = raisedWarnings.lastIndex(where: { $0.code == code }) { raisedWarnings[i] = merged }
        } else {
            raisedWarnings.append(w)
        }
    }

    mutating func note(_ text: String) { draft?.notes.append(text) }

    /// Whether what raised `warning` still holds (the live panel shows the others apart, as past): the
    /// background conditions (a missing mode, a category that cannot background, a silent keep-alive) while
    /// they last, an empty keep-alive player while it is on; every other warning (an event that happened, a
    /// handler the configuration binds) stays.
    public func stillHolds(_ warning: LifecycleWarning) -> Bool {
        switch warning.code {
        case .missingBackgroundMode, .categoryCannotBackground, .silentKeepalive:
            guard let stream = warning.stream else { return activeConditions.contains { $0.hasPrefix(warning.code.rawValue + ":") } }
            return activeConditions.contains("\(warning.code.rawValue):\(stream)")
        case .keepaliveNeverPlays:
            return configuration.streams.contains { s in
                s.kind == .keepalivePlayer && s.content == .empty && (runtime[s.name]?.on ?? false)
                    && (warning.stream == nil || warning.stream == s.name)
            }
        default:
            return true
        }
    }

    mutating func setPhase(_ p: Phase, _ reason: String) {
        phase = p
        if p.state != .background { wakeEvent = nil }
        draft?.reason = reason
    }

    // MARK: - Internals: configuration

    mutating func resetRuntime() {
        runtime = [:]
        for s in configuration.streams {
            runtime[s.name] = Runtime(on: s.playing, audible: s.audible, taskBeganAt: s.playing ? now : nil)
        }
        sessionActive = configuration.sessionActive
            ?? configuration.streams.contains { $0.playing && $0.kind.usesSession }
        interruptions = []
        pipActive = false
        call = .none
        terminateAt = nil
        wakeEvent = nil
        activeConditions = []
        callKitActive = false
        transmissionUntil = nil
        processingUntil = nil
    }

    mutating func checkConfigurationWarnings(previous: LifecycleConfiguration?) {
        func unreachable(_ c: LifecycleConfiguration) -> [(Callback, WarningCode, String)] {
            var seen: [Callback] = []
            return c.handlers.map(\.on).compactMap { cb in
                guard !seen.contains(cb), let (code, text) = LifecycleRules.unreachable(cb, in: c) else { return nil }
                seen.append(cb)
                return (cb, code, text)
            }
        }
        let before = previous.map(unreachable) ?? []
        for (cb, code, text) in unreachable(configuration) where !before.contains(where: { $0.0 == cb && $0.1 == code }) {
            warn(code, nil, text)
        }
        if configuration.backgroundModes.contains(.newsstandContent) && !(previous?.backgroundModes.contains(.newsstandContent) ?? false) {
            warn(.deprecatedMode, nil, "newsstand-content: Newsstand was discontinued with iOS 9; the mode has no effect on current iOS")
        }
        // A declared mode with no rule (rules 3b, "not modelled"): said once, when it is declared, with what
        // Apple says it grants, so that a timeline never looks as if the mode had been taken into account.
        for mode in configuration.backgroundModes
        where !mode.isModelled && mode != .newsstandContent && !(previous?.backgroundModes.contains(mode) ?? false) {
            let text = "\(mode.rawValue) is not modelled: Apple says \(mode.grants); no rule for it is simulated"
            if draft != nil { note(text) } else { pendingNotes.append(text) }
        }
        if previous == nil {
            for s in configuration.streams where s.playing && s.content == .empty {
                warn(.keepaliveNeverPlays, s.name)
            }
        }
    }

}
