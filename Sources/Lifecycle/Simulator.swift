// The simulator: a value you drive by hand. Time only moves when `advance(to:)` or `apply(_:at:)` is called,
// and every effect comes back as data (`TimelineEntry`), never as I/O (the swift-nio state-machine style).

/// The simulated iOS app. Drive it with `apply(_:at:)` and `advance(to:)`; read `state`, `aliveBy`,
/// `streamStatuses`, and the two gates `midiInputDelivered` and `audioOutputPlays`.
public struct LifecycleSimulator: Sendable {
    /// The current configuration (change it with the `set…` methods).
    public private(set) var configuration: LifecycleConfiguration
    /// Simulated seconds since the start.
    public private(set) var now: Double = 0
    /// Every warning raised so far, in order.
    public private(set) var raisedWarnings: [LifecycleWarning] = []

    private enum Phase: Equatable {
        case notRunning, inactive, active
        /// `suspendAt`: when the process will be suspended unless something keeps it alive; `why` says why.
        case background(since: Double, suspendAt: Double?, why: String)
        case suspended, terminated

        var state: AppState {
            switch self {
            case .notRunning: .notRunning
            case .inactive: .inactive
            case .active: .active
            case .background: .background
            case .suspended: .suspended
            case .terminated: .terminated
            }
        }
    }

    private enum Call { case none, ringing, answered }
    private enum Timer { case suspend(String), expire(String), terminate }
    /// What interrupts the audio session: a phone call, or another app's non-mixable audio.
    private enum Interruption: Hashable { case call, otherAudio }

    private struct Runtime: Sendable {
        var on: Bool
        var attached = true
        var audible: Bool
        var taskBeganAt: Double?
        var pausedBy: String?
    }

    private struct Draft {
        var event: String?
        var callbacks: [String] = []
        var warnings: [LifecycleWarning] = []
        var notes: [String] = []
        var reason: String?
        var unknownRule: String?
        var delivered: Bool?
        var stateBefore: AppState
        var aliveBefore: [String]
    }

    private var phase: Phase = .notRunning
    private var runtime: [String: Runtime] = [:]
    private var sessionActive = false
    /// The interruptions going on: `interruption.began` came with the first, `ended` comes with the last.
    private var interruptions: Set<Interruption> = []
    private var interrupted: Bool { !interruptions.isEmpty }
    /// Another app plays non-mixable audio (`other-audio-start` until `other-audio-stop`).
    private var otherAudioPlaying = false
    /// When the process ends after applicationWillTerminate (section 2: about 5 s).
    private var terminateAt: Double?
    /// The event of the wake window the app is in (BLE event, silent push), if any.
    private var wakeEvent: String?
    private var pipActive = false
    private var call: Call = .none
    private var lossReason = "nothing keeps the app alive 5 s after didEnterBackground"
    private var activeConditions: Set<String> = []
    private var pendingWarnings: [LifecycleWarning] = []
    private var draft: Draft?
    private var currentEvent: LifecycleEvent?
    private var lastAlive: [String] = []

    /// Grace period between losing the last keep-alive (or didEnterBackground) and suspension (section 2).
    public static let gracePeriod = 5.0
    /// How long a Bluetooth LE event or a silent push keeps a suspended app running (section 2: about 10 s).
    public static let wakeDuration = 10.0
    /// How long applicationWillTerminate has before the process ends (section 2: about 5 s).
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
        return streamStatuses.filter(\.keepsAlive).map(\.name).sorted()
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
        if !pendingWarnings.isEmpty {
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

    /// Replaces the handlers.
    public mutating func setHandlers(_ handlers: [Handler], at time: Double) -> [TimelineEntry] {
        reconfigure(at: time, what: "handlers") { sim in
            sim.configuration.handlers = handlers
            sim.configuration.addImplicitStreams()
            for s in sim.configuration.streams where sim.runtime[s.name] == nil {
                sim.runtime[s.name] = Runtime(on: false, audible: s.audible)
            }
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

    private mutating func begin(event: String?) {
        draft = Draft(event: event, warnings: pendingWarnings, stateBefore: state, aliveBefore: lastAlive)
        pendingWarnings = []
    }

    private mutating func finish(force: Bool) -> TimelineEntry? {
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
    private mutating func warn(_ code: WarningCode, _ stream: String? = nil, _ detail: String? = nil) {
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

    private mutating func note(_ text: String) { draft?.notes.append(text) }

    private mutating func setPhase(_ p: Phase, _ reason: String) {
        phase = p
        if p.state != .background { wakeEvent = nil }
        draft?.reason = reason
    }

    // MARK: - Internals: configuration

    private mutating func resetRuntime() {
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
    }

    /// Why a handler bound to `cb` never runs in an app configured as `c`, with the code to raise; nil when
    /// the style fires it. The four app-delegate transition callbacks keep their own code,
    /// `not-called-with-scenes`; every other unreachable callback is `handler-never-called`: one code per cause.
    static func unreachable(_ cb: Callback, in c: LifecycleConfiguration) -> (WarningCode, String)? {
        let style = c.style.rawValue
        if cb.isAppDelegateTransition && c.style != .appDelegate {
            return (.notCalledWithScenes, "\(cb.rawValue) is never called with \(style): its handler never runs")
        }
        if cb.isSceneCallback && c.style != .scenes {
            return (.handlerNeverCalled, "\(cb.rawValue) is a UISceneDelegate callback, never fired in a \(style) app: its handler never runs")
        }
        if cb.isScenePhase && c.style != .swiftui {
            return (.handlerNeverCalled, "\(cb.rawValue) is a SwiftUI scenePhase value, never seen by a UIKit \(style) app: its handler never runs")
        }
        if cb.needsDelegateAdaptorInSwiftUI && c.style == .swiftui && !c.appDelegateAdaptor {
            return (.handlerNeverCalled, "\(cb.rawValue) reaches a SwiftUI app only through a UIApplicationDelegateAdaptor, which this app does not declare (app_delegate_adaptor): its handler never runs")
        }
        return nil
    }

    private mutating func checkConfigurationWarnings(previous: LifecycleConfiguration?) {
        func unreachable(_ c: LifecycleConfiguration) -> [(Callback, WarningCode, String)] {
            var seen: [Callback] = []
            return c.handlers.map(\.on).compactMap { cb in
                guard !seen.contains(cb), let (code, text) = Self.unreachable(cb, in: c) else { return nil }
                seen.append(cb)
                return (cb, code, text)
            }
        }
        let before = previous.map(unreachable) ?? []
        for (cb, code, text) in unreachable(configuration) where !before.contains(where: { $0.0 == cb && $0.1 == code }) {
            warn(code, nil, text)
        }
        if previous == nil {
            for s in configuration.streams where s.playing && s.content == .empty {
                warn(.keepaliveNeverPlays, s.name)
            }
        }
    }

    // MARK: - Internals: time

    private func nextTimer() -> (Double, Timer)? {
        guard case .background(let since, let suspendAt, let why) = phase else { return nil }
        // After applicationWillTerminate nothing but the end of the process is scheduled.
        if let terminateAt { return (terminateAt, .terminate) }
        var best: (Double, Timer)? = suspendAt.map { ($0, .suspend(why)) }
        for s in configuration.streams where s.kind == .backgroundTask {
            guard let r = runtime[s.name], r.on, let began = r.taskBeganAt else { continue }
            let deadline = max(began, since) + configuration.backgroundTaskBudget
            if best == nil || deadline < best!.0 { best = (deadline, .expire(s.name)) }
        }
        return best
    }

    private mutating func advanceTimers(to time: Double) -> [TimelineEntry] {
        var out: [TimelineEntry] = []
        while let (t, timer) = nextTimer(), t <= time {
            now = max(now, t)
            begin(event: nil)
            switch timer {
            case .suspend(let why): setPhase(.suspended, why)
            case .expire(let name): expire(name)
            case .terminate:
                terminate("terminated \(Int(Self.willTerminateDuration)) s after applicationWillTerminate (about 5 s to finish)")
            }
            settle()
            if let e = finish(force: false) { out.append(e) }
        }
        now = max(now, time)
        return out
    }

    private mutating func expire(_ name: String) {
        let budget = configuration.backgroundTaskBudget
        fire([.backgroundTaskExpiration])
        guard runtime[name]?.on == true else { return }
        runtime[name]?.on = false
        warn(.backgroundTaskExpired, name)
        terminate("background task \(name) not ended after its \(Int(budget)) s budget (observed, iOS \(configuration.iOSVersion)): watchdog 0x8badf00d")
    }

    private mutating func terminate(_ reason: String) {
        setPhase(.terminated, reason)
        for k in runtime.keys where runtime[k]!.on {
            runtime[k]!.on = false
            runtime[k]!.taskBeganAt = nil
            runtime[k]!.pausedBy = "the app was terminated"
        }
        sessionActive = false
        interruptions = []
        pipActive = false
        terminateAt = nil
    }

    /// Pauses a stream the system stops (not the app): it stays off until the app starts it again.
    private mutating func pause(_ name: String, because why: String) {
        guard runtime[name]?.on == true else { return }
        runtime[name]!.on = false
        runtime[name]!.pausedBy = why
        note("\(name) paused: \(why)")
    }

    // MARK: - Internals: keeping alive

    private func status(_ s: StreamConfig) -> StreamStatus {
        let r = runtime[s.name] ?? Runtime(on: false, audible: s.audible)
        let (keeps, why) = keepsAlive(s, r)
        let running = r.on && state.runsCode && (!s.kind.usesSession || sessionActive) && s.content != .empty
        return StreamStatus(name: s.name, kind: s.kind, isOn: r.on, isRunning: running,
                            keepsAlive: keeps && state.runsCode, isAudible: r.audible && s.kind.plays,
                            why: state.runsCode || !keeps ? why : "the app is \(state.rawValue): it runs no code",
                            pausedBy: r.on ? nil : r.pausedBy)
    }

    private func has(_ mode: BackgroundMode) -> Bool { configuration.backgroundModes.contains(mode) }

    private func keepsAlive(_ s: StreamConfig, _ r: Runtime) -> (Bool, String) {
        let category = configuration.category
        switch s.kind {
        case .midiIn, .midiOut:
            return (false, "there is no MIDI background mode: MIDI stops when the app is suspended")
        case .voip:
            return (false, "VoIP sockets no longer keep apps alive; PushKit wakes the app for a call")
        case .bluetooth:
            return (false, "bluetooth-central/-peripheral only wake the app for about 10 s per event")
        case .location:
            if !r.on { return (false, "location updates are off") }
            if !has(.location) { return (false, "needs the location background mode") }
            return (true, "standard location updates with the location mode")
        case .backgroundTask:
            if !r.on { return (false, "no background task running") }
            return (true, "background task, until ended or its \(Int(configuration.backgroundTaskBudget)) s budget (observed) ends")
        case .audioInput:
            if !r.on { return (false, "not recording") }
            if !has(.audio) { return (false, "needs the audio background mode") }
            if !category.canRecord { return (false, "category \(category.rawValue) cannot record") }
            if !sessionActive { return (false, "the audio session is inactive") }
            return (true, "recording with the audio mode and category \(category.rawValue)")
        case .audioOutput, .keepalivePlayer, .videoPlayer:
            if s.content == .empty { return (false, "content empty: never plays, keeps nothing alive") }
            if !r.on { return (false, r.pausedBy.map { "paused: \($0)" } ?? "not playing") }
            if s.kind == .videoPlayer && r.attached && !(pipActive && s.pictureInPicture) {
                return (false, "attached to its layer: auto-paused on background")
            }
            if !has(.audio) { return (false, "needs the audio background mode") }
            if !category.canPlayInBackground {
                return (false, "category \(category.rawValue) cannot play in background")
            }
            if !sessionActive { return (false, "the audio session is inactive") }
            let how = s.kind == .videoPlayer ? (r.attached ? "in PiP" : "detached from its layer") : "playing"
            return (true, "\(how) with the audio mode and category \(category.rawValue)"
                        + (r.audible ? "" : " (inaudible: review risk)"))
        }
    }

    /// After every change: schedules or cancels suspension and raises the condition warnings once each
    /// time their condition becomes true.
    private mutating func settle() {
        let alive = aliveBy
        if case .background(let since, let suspendAt, let why) = phase {
            if !alive.isEmpty {
                if suspendAt != nil { phase = .background(since: since, suspendAt: nil, why: why) }
            } else if suspendAt == nil {
                if !lastAlive.isEmpty && draft?.stateBefore == .background {
                    lossReason = "nothing keeps the app alive \(Int(Self.gracePeriod)) s after \(lastAlive.joined(separator: ", ")) stopped keeping it alive"
                }
                phase = .background(since: since, suspendAt: now + Self.gracePeriod, why: lossReason)
            }
        }
        var conditions: [(WarningCode, String?)] = []
        if state == .background {
            for s in configuration.streams {
                guard let r = runtime[s.name], r.on else { continue }
                let playsNow = s.kind.plays && s.content != .empty
                    && (s.kind != .videoPlayer || !r.attached || (pipActive && s.pictureInPicture))
                if (playsNow || s.kind == .audioInput) && !has(.audio) {
                    conditions.append((.missingBackgroundMode, s.name))
                }
                if s.kind == .location && !has(.location) { conditions.append((.missingBackgroundMode, s.name)) }
                if playsNow && !configuration.category.canPlayInBackground && !configuration.category.canRecord {
                    conditions.append((.categoryCannotBackground, s.name))
                }
            }
            let streams = alive.compactMap { n in configuration.streams.first { $0.name == n } }
            if !streams.isEmpty && streams.allSatisfy({ $0.kind.plays && !(runtime[$0.name]?.audible ?? true) }) {
                conditions.append((.silentKeepalive, nil))
            }
        }
        let keys = Set(conditions.map { "\($0.0.rawValue):\($0.1 ?? "")" })
        for (code, stream) in conditions where !activeConditions.contains("\(code.rawValue):\(stream ?? "")") {
            let detail: String? = switch code {
            case .missingBackgroundMode:
                "\(stream!) needs the \(configuration.streams.first { $0.name == stream }?.kind == .location ? "location" : "audio") background mode, which the app does not declare"
            case .categoryCannotBackground:
                "\(stream!) plays in background with category \(configuration.category.rawValue), which cannot background"
            default: nil
            }
            warn(code, stream, detail)
        }
        activeConditions = keys
    }

    // MARK: - Internals: events

    private func callbacks(_ transition: Transition) -> [Callback]? {
        switch (configuration.style, transition) {
        case (.appDelegate, .launch): [.willFinishLaunching, .didFinishLaunching, .applicationDidBecomeActive]
        case (.appDelegate, .resign): [.applicationWillResignActive]
        case (.appDelegate, .enterBackground): [.applicationDidEnterBackground]
        case (.appDelegate, .becomeActive): [.applicationDidBecomeActive]
        case (.appDelegate, .willEnterForeground): [.applicationWillEnterForeground]
        case (.appDelegate, .terminate), (.scenes, .terminate): [.applicationWillTerminate]
        case (.scenes, .launch): [.didFinishLaunching, .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive]
        case (.scenes, .resign): [.sceneWillResignActive]
        case (.scenes, .enterBackground): [.sceneDidEnterBackground]
        case (.scenes, .becomeActive): [.sceneDidBecomeActive]
        case (.scenes, .willEnterForeground): [.sceneWillEnterForeground]
        case (.swiftui, .launch):
            (configuration.appDelegateAdaptor ? [.willFinishLaunching, .didFinishLaunching] : []) + [.scenePhaseActive]
        case (.swiftui, .becomeActive): [.scenePhaseActive]
        case (.swiftui, .resign), (.swiftui, .willEnterForeground): [.scenePhaseInactive]
        case (.swiftui, .enterBackground): [.scenePhaseBackground]
        // No scenePhase callback; the adaptor's delegate still gets applicationWillTerminate.
        case (.swiftui, .terminate): configuration.appDelegateAdaptor ? [.applicationWillTerminate] : []
        }
    }

    private enum Transition { case launch, resign, enterBackground, becomeActive, willEnterForeground, terminate }

    private mutating func fire(_ list: [Callback]) {
        for cb in list {
            guard state != .terminated else { return }  // a handler crashed the app
            draft?.callbacks.append(cb.rawValue)
            for h in configuration.handlers where h.on == cb {
                var resignWarned = false
                for action in h.actions where state != .terminated {
                    if cb.isWillResignActive && !resignWarned && startsKeepAlive(action) {
                        warn(.keepaliveOnResignActive, action.stream,
                             "\(action) on \(cb.rawValue): it also fires for Control Center, alerts and the app switcher")
                        resignWarned = true
                    }
                    run(action, in: cb)
                }
            }
        }
    }

    private func startsKeepAlive(_ action: HandlerAction) -> Bool {
        switch action {
        case .play(let s): configuration.streams.first { $0.name == s }?.kind.usesSession ?? false
        case .activateSession, .beginBackgroundTask: true
        default: false
        }
    }

    private mutating func run(_ action: HandlerAction, in cb: Callback?) {
        switch action {
        case .play(let s): start(s, in: cb)
        case .stop(let s): stop(s)
        case .activateSession: _ = activateSession(for: nil, in: cb)
        case .deactivateSession:
            sessionActive = false
        case .beginBackgroundTask: start(configuration.backgroundTaskStreamName, in: cb)
        case .endBackgroundTask: stop(configuration.backgroundTaskStreamName)
        case .detachVideo(let s):
            guard let cfg = configuration.streams.first(where: { $0.name == s }), cfg.kind == .videoPlayer else {
                note("detach-video:\(s): not a video-player"); return
            }
            runtime[s]?.attached = false
            if let cb, cb.isDidEnterBackground, cfg.pictureInPicture {
                if currentEvent == .pipStart && pipActive {
                    warn(.pipDetachConflict, s, "\(s) detached on \(cb.rawValue) while Picture in Picture starts: the app crashes (Mux)")
                    terminate("crashed: \(s) was detached from its view on \(cb.rawValue) while Picture in Picture started (Mux: \"if we detach the player from the view then our app will crash\")")
                    return
                }
                warn(.pipDetachConflict, s, "\(s) detached on \(cb.rawValue) while PiP is possible: the handler cannot tell Home or Lock from PiP (Mux)")
            }
            if pipActive {
                pipActive = false
                note("PiP breaks: its player left the layer (Mux reports a crash)")
            }
        case .attachVideo(let s):
            runtime[s]?.attached = true
        }
    }

    /// Activates the session. In background a non-mixable session cannot (cannotInterruptOthers), except in
    /// an interruption.ended handler: `shouldResume` is the system handing the session back.
    private mutating func activateSession(for stream: String?, in cb: Callback?) -> Bool {
        if sessionActive { return true }
        if interrupted {
            note("the session cannot be activated during an interruption")
            return false
        }
        if !state.isForeground && !configuration.mixesWithOthers && cb != .interruptionEnded {
            warn(.cannotInterruptOthers, stream,
                 "a non-mixable \(configuration.category.rawValue) session cannot be activated in background (cannotInterruptOthers): add mixWithOthers")
            return false
        }
        sessionActive = true
        return true
    }

    private mutating func start(_ name: String, in cb: Callback?) {
        guard let cfg = configuration.streams.first(where: { $0.name == name }), runtime[name] != nil else {
            note("no stream \(name)"); return
        }
        if cfg.kind.usesSession {
            if interrupted {
                if cb == .interruptionBegan {
                    warn(.resumeOnBegan, name,
                         "play:\(name) on interruption.began: the session is inactive, playback does not resume, and after ended nothing restarts it")
                }
                note("\(name) cannot play: the session is interrupted")
                return
            }
            guard activateSession(for: name, in: cb) else { note("\(name) does not play: the session is inactive"); return }
        }
        if runtime[name]!.on { return }
        if cfg.content == .empty { warn(.keepaliveNeverPlays, name) }
        if cfg.kind.usesSession && cfg.content != .empty && state == .background && !has(.audio) {
            warn(.missingBackgroundMode, name, "\(name) cannot start in background: the app does not declare the audio background mode")
            note("\(name) does not play: no audio background mode")
            return
        }
        runtime[name]!.on = true
        runtime[name]!.pausedBy = nil
        if cfg.kind == .backgroundTask { runtime[name]!.taskBeganAt = now }
    }

    private mutating func stop(_ name: String) {
        runtime[name]?.on = false
        runtime[name]?.pausedBy = nil
        runtime[name]?.taskBeganAt = nil
    }

    private mutating func unknownRule(_ text: String) {
        draft?.unknownRule = "unknown rule: " + text
    }

    private mutating func handle(_ event: LifecycleEvent) {
        let name = event.description
        if terminateAt != nil {
            switch event {
            case .midi, .streamStart, .streamStop: break
            default:
                note("\(name): applicationWillTerminate has run, the process is ending")
                if case .bleEvent = event { draft?.delivered = false }
                if case .silentPush = event { draft?.delivered = false }
                return
            }
        }
        switch event {
        case .launch:
            guard state == .notRunning || state == .terminated else { note("launch: the app is already running"); return }
            resetRuntime()
            setPhase(.active, state == .terminated ? "relaunched in the foreground" : "launched in the foreground")
            fire(callbacks(.launch)!)
        case .home, .switchApp, .lock:
            enterBackground(name, from: [.active, .inactive])
        case .pipStart:
            let video = configuration.streams.first { s in
                s.kind == .videoPlayer && s.pictureInPicture && runtime[s.name]?.on == true && runtime[s.name]?.attached == true
            }
            if state.isForeground, video != nil { pipActive = true } else { note("pip-start: no video playing with PiP allowed: as home") }
            enterBackground(name, from: [.active, .inactive])
        case .appSwitcher, .controlCenter, .notificationCenter, .systemAlert:
            guard state == .active else { note("\(name): the app is not active"); return }
            setPhase(.inactive, "\(name) shown over the app: it resigns active but is not backgrounded")
            fire(callbacks(.resign)!)
        case .dismissOverlay:
            guard state == .inactive, call == .none else { note("dismiss-overlay: no overlay over the app"); return }
            setPhase(.active, "back from the overlay")
            fire(callbacks(.becomeActive)!)
        case .foreground:
            guard state == .background || state == .suspended else { note("foreground: the app is not in background"); return }
            setPhase(.inactive, "")
            pipActive = false
            fire(callbacks(.willEnterForeground)!)
            setPhase(.active, "the user returned to the app")
            fire(callbacks(.becomeActive)!)
        case .callIncoming:
            guard call == .none else { note("call-incoming: a call is already going on"); return }
            call = .ringing
            if state == .active {
                setPhase(.inactive, "an incoming call covers the app")
                fire(callbacks(.resign)!)
            }
            beginInterruption(.call, "a phone call")
        case .callDeclined:
            guard call == .ringing else { note("call-declined: no call is ringing"); return }
            call = .none
            if state == .inactive {
                setPhase(.active, "the call was declined")
                fire(callbacks(.becomeActive)!)
            }
            endInterruption(.call)
        case .callAnswered:
            guard call == .ringing else { note("call-answered: no call is ringing"); return }
            call = .answered
            if state == .inactive {
                enterBackground(name, from: [.inactive])
            }
            note("call-answered: no interruption ended until the call ends")
        case .callEnded:
            guard call == .answered else { note("call-ended: no call was answered"); return }
            call = .none
            endInterruption(.call)
        case .otherAudioStart:
            guard !otherAudioPlaying else { note("other-audio-start: the other app already plays"); return }
            otherAudioPlaying = true
            if state.isForeground { note("other-audio-start: the foreground app has priority, its session is not interrupted"); return }
            guard state == .background || state == .suspended else { note("other-audio-start: the app is not running"); return }
            if configuration.mixesWithOthers { note("other-audio-start: the session mixes with others (mixWithOthers): not interrupted"); return }
            guard sessionActive else { note("other-audio-start: the session is inactive, nothing to interrupt"); return }
            beginInterruption(.otherAudio, "another app's non-mixable audio")
        case .otherAudioStop:
            guard otherAudioPlaying else { note("other-audio-stop: no other app was playing"); return }
            otherAudioPlaying = false
            if !interruptions.contains(.otherAudio) { note("other-audio-stop: the session was not interrupted by it") }
            endInterruption(.otherAudio)
        case .terminate:
            let list = callbacks(.terminate)!
            switch state {
            case .background:
                if list.isEmpty {
                    terminate("terminated while running in background: a SwiftUI app gets no scenePhase callback for it")
                    return
                }
                fire(list)
                guard state == .background else { return }
                terminateAt = now + Self.willTerminateDuration
                note("applicationWillTerminate: the process ends about \(Int(Self.willTerminateDuration)) s later")
            case .suspended:
                terminate("force quit while suspended: no callback")
            case .active, .inactive:
                fire(list)
                terminate(list.isEmpty ? "force quit from the app switcher: a SwiftUI app gets no scenePhase callback for it"
                                       : "force quit from the app switcher: applicationWillTerminate, then terminated")
            case .notRunning, .terminated:
                note("terminate: the app is not running")
            }
        case .streamStart(let s):
            guard state.runsCode else { note("the app is \(state.rawValue): it runs no code and cannot start \(s)"); return }
            start(s, in: nil)
        case .streamStop(let s):
            stop(s)
        case .midi(let s):
            let delivered = delivers(midiOn: s)
            draft?.delivered = delivered
            let sent = configuration.streams.first { $0.name == s }?.kind == .midiOut
            if !delivered {
                note(state.runsCode ? "\(s) is off: message lost" : "the app is \(state.rawValue): message lost")
            } else if sent {
                note("message sent on \(s)")
            }
        case .bleEvent, .silentPush:
            wake(by: event)
        }
    }

    /// A Bluetooth LE event or a silent push (section 2): wakes a suspended app for about 10 s; a further one
    /// during the wake restarts the window; a terminated app is not woken (only `launch` relaunches it).
    private mutating func wake(by event: LifecycleEvent) {
        let name = event.description
        let mode: [BackgroundMode] = if case .bleEvent = event { [.bluetoothCentral, .bluetoothPeripheral] } else { [.remoteNotification] }
        guard state != .terminated && state != .notRunning else {
            draft?.delivered = false
            note(state == .terminated
                 ? "\(name) not delivered: the app was terminated (force quit or watchdog); only launch relaunches it"
                 : "\(name) not delivered: the app is not running")
            return
        }
        guard mode.contains(where: has) else {
            draft?.delivered = false
            note("\(name) not delivered: no \(mode.map(\.rawValue).joined(separator: " or ")) background mode, the app is not woken")
            return
        }
        draft?.delivered = true
        let why = "the \(Int(Self.wakeDuration)) s wake for \(name) ended (about 10 s, up to 30 s)"
        switch phase {
        case .suspended:
            setPhase(.background(since: now, suspendAt: now + Self.wakeDuration, why: why),
                     "woken in background by \(name) for about \(Int(Self.wakeDuration)) s")
            wakeEvent = name
        case .background(let since, let suspendAt, _) where wakeEvent != nil:
            wakeEvent = name
            lossReason = why
            if suspendAt != nil { phase = .background(since: since, suspendAt: now + Self.wakeDuration, why: why) }
            note("\(name) during the wake: the \(Int(Self.wakeDuration)) s window restarts")
        default:
            note("\(name): delivered to the running app")
        }
    }

    private mutating func enterBackground(_ name: String, from states: [AppState]) {
        guard states.contains(state) else { note("\(name): the app is not in the foreground"); return }
        if state == .active {
            setPhase(.inactive, "")
            fire(callbacks(.resign)!)
        }
        lossReason = "nothing keeps the app alive \(Int(Self.gracePeriod)) s after didEnterBackground"
        setPhase(.background(since: now, suspendAt: nil, why: lossReason), "the app entered background (\(name))")
        wakeEvent = nil
        fire(callbacks(.enterBackground)!)
        guard state == .background else { return }  // a handler crashed the app
        for s in configuration.streams where s.kind == .videoPlayer {
            guard let r = runtime[s.name], r.on, r.attached, !(pipActive && s.pictureInPicture) else { continue }
            pause(s.name, because: "attached to its layer: auto-paused on background")
            warn(.videoAutopaused, s.name, "\(s.name) is attached to its layer: paused on background")
        }
        guard !has(.audio) else { return }
        for s in configuration.streams where s.kind.usesSession && s.content != .empty && runtime[s.name]?.on == true {
            pause(s.name, because: "the app entered background without the audio background mode: its audio stops")
            warn(.missingBackgroundMode, s.name,
                 "\(s.name) stopped at didEnterBackground: the app does not declare the audio background mode")
            if s.kind.plays && !configuration.category.canPlayInBackground {
                warn(.categoryCannotBackground, s.name,
                     "\(s.name) played into background with category \(configuration.category.rawValue), which cannot background")
            }
        }
    }

    private mutating func beginInterruption(_ source: Interruption, _ what: String) {
        guard !interruptions.contains(source) else { return }
        if interrupted {
            interruptions.insert(source)
            note("\(what) while the session is already interrupted: no second began")
            return
        }
        guard sessionActive else { return }
        sessionActive = false
        interruptions.insert(source)
        for s in configuration.streams where s.kind.usesSession {
            pause(s.name, because: "interruption began (\(what)): the session is inactive, its players are paused")
        }
        if state.runsCode {
            note("interruption began (\(what)): the session is inactive")
            fire([.interruptionBegan])
        } else {
            note("the app is \(state.rawValue): it gets interruption began when it next runs, or never (none simulated)")
        }
    }

    private mutating func endInterruption(_ source: Interruption) {
        guard interruptions.remove(source) != nil else { return }
        guard interruptions.isEmpty else { note("another interruption goes on: no ended yet"); return }
        if state.runsCode {
            note("interruption ended with shouldResume")
            fire([.interruptionEnded])
        } else {
            note("the app is \(state.rawValue): it gets interruption ended late or never (none simulated)")
        }
    }
}
