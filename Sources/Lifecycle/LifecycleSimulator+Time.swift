// Time and what keeps the app alive: the timers (suspension after the grace period, background task expiry,
// the end of a wake, termination after applicationWillTerminate), and after every change the settling of
// suspension and of the condition warnings. The rules themselves are in LifecycleRules.swift.

extension LifecycleSimulator {
    func nextTimer() -> (Double, Timer)? {
        guard case .background(let since, let suspendAt, let why) = phase else { return nil }
        // After applicationWillTerminate nothing but the end of the process is scheduled.
        if let terminateAt { return (terminateAt, .terminate) }
        var best: (Double, Timer)? = suspendAt.map { ($0, .suspend(why)) }
        if let t = transmissionUntil, best == nil || t < best!.0 { best = (t, .transmissionEnd) }
        if let t = processingUntil, best == nil || t < best!.0 { best = (t, .processingExpire) }
        for s in configuration.streams where s.kind == .backgroundTask {
            guard let r = runtime[s.name], r.on, let began = r.taskBeganAt else { continue }
            let deadline = max(began, since) + configuration.backgroundTaskBudget
            if best == nil || deadline < best!.0 { best = (deadline, .expire(s.name)) }
        }
        return best
    }

    mutating func advanceTimers(to time: Double) -> [TimelineEntry] {
        var out: [TimelineEntry] = []
        while let (t, timer) = nextTimer(), t <= time {
            now = max(now, t)
            begin(event: nil)
            switch timer {
            case .suspend(let why): setPhase(.suspended, why)
            case .expire(let name): expire(name)
            case .terminate:
                terminate("terminated \(Int(Self.willTerminateDuration)) s after applicationWillTerminate (about 5 s to finish)")
            case .transmissionEnd:
                transmissionUntil = nil
                suspendIfNothingKeepsAlive("the push-to-talk transmission ended (about \(Int(Self.transmissionDuration)) s, assumed)")
            case .processingExpire:
                processingUntil = nil
                fire([.processingTaskExpiration])
                suspendIfNothingKeepsAlive("the processing task reached its \(Int(configuration.processingBudget)) s budget (assumed: Apple documents none)")
            }
            settle()
            if let e = finish(force: false) { out.append(e) }
        }
        now = max(now, time)
        return out
    }

    mutating func expire(_ name: String) {
        let budget = configuration.backgroundTaskBudget
        fire([.backgroundTaskExpiration])
        guard runtime[name]?.on == true else { return }
        runtime[name]?.on = false
        warn(.backgroundTaskExpired, name)
        terminate("background task \(name) not ended after its \(Int(budget)) s budget (observed, iOS \(configuration.iOSVersion)): watchdog 0x8badf00d")
    }

    mutating func terminate(_ reason: String) {
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
        callKitActive = false
        transmissionUntil = nil
        processingUntil = nil
    }

    /// Ends a wake at once (a `complete`, the end of a transmission or a processing task): suspended now
    /// unless a stream or the system still keeps the app alive.
    mutating func suspendIfNothingKeepsAlive(_ reason: String) {
        guard state == .background, aliveBy.isEmpty else { return }
        setPhase(.suspended, reason)
    }

    /// Pauses a stream the system stops (not the app): it stays off until the app starts it again.
    mutating func pause(_ name: String, because why: String) {
        guard runtime[name]?.on == true else { return }
        runtime[name]!.on = false
        runtime[name]!.pausedBy = why
        note("\(name) paused: \(why)")
    }

    // MARK: - Keeping alive

    func status(_ s: StreamConfig) -> StreamStatus {
        let r = runtime[s.name] ?? Runtime(on: false, audible: s.audible)
        let (keeps, why) = LifecycleRules.keepsAlive(s, r, in: configuration, sessionActive: sessionActive, pipActive: pipActive)
        let running = r.on && state.runsCode && (!s.kind.usesSession || sessionActive) && s.content != .empty
        return StreamStatus(name: s.name, kind: s.kind, isOn: r.on, isRunning: running,
                            keepsAlive: keeps && state.runsCode, isAudible: r.audible && s.kind.plays,
                            why: state.runsCode || !keeps ? why : "the app is \(state.rawValue): it runs no code",
                            pausedBy: r.on ? nil : r.pausedBy)
    }

    /// Whether stream `name` is on and audible: `status(of:)`'s two flags without its reasons in words, for
    /// what asks every frame (the live session's synth level and demo). Nil for a stream the app lacks.
    public func streamFlags(of name: String) -> (isOn: Bool, isAudible: Bool)? {
        guard let s = configuration.streams.first(where: { $0.name == name }) else { return nil }
        let r = runtime[name] ?? Runtime(on: false, audible: s.audible)
        return (r.on, r.audible && s.kind.plays)
    }

    /// `status(of:)`'s `isRunning` alone (nil for a stream the app lacks): the gates ask every frame.
    public func isRunning(_ name: String) -> Bool? {
        guard let s = configuration.streams.first(where: { $0.name == name }) else { return nil }
        let on = runtime[name]?.on ?? false
        return on && state.runsCode && (!s.kind.usesSession || sessionActive) && s.content != .empty
    }

    func has(_ mode: BackgroundMode) -> Bool { configuration.backgroundModes.contains(mode) }

    /// After every change: schedules or cancels suspension and raises the condition warnings once each
    /// time their condition becomes true.
    mutating func settle() {
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
}
