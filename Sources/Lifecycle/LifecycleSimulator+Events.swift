// What each event and each handler action does to the simulated app: transitions and the callbacks they
// fire (LifecycleRules.callbacks), the audio session and its interruptions, wakes, termination.

extension LifecycleSimulator {
    /// The callbacks this app's style fires for `transition`.
    func callbacks(_ transition: LifecycleRules.Transition) -> [Callback] {
        LifecycleRules.callbacks(transition, in: configuration)
    }

    /// Moves to `phase` for `reason`, then fires the callbacks of `transition`.
    mutating func setPhase(_ phase: Phase, _ reason: String, firing transition: LifecycleRules.Transition) {
        setPhase(phase, reason)
        fire(callbacks(transition))
    }

    mutating func fire(_ list: [Callback]) {
        for cb in list {
            guard state != .terminated else { return }  // a handler crashed the app
            draft?.callbacks.append(cb.rawValue)
            for h in configuration.handlers where h.on == cb {
                var resignWarned = false
                for action in h.actions where state != .terminated {
                    if cb.isWillResignActive && !resignWarned && LifecycleRules.startsKeepAlive(action, in: configuration) {
                        warn(.keepaliveOnResignActive, action.stream,
                             "\(action) on \(cb.rawValue): it also fires for Control Center, alerts and the app switcher")
                        resignWarned = true
                    }
                    run(action, in: cb)
                }
            }
        }
    }

    mutating func run(_ action: HandlerAction, in cb: Callback?) {
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
        case .reportCall:
            guard cb == .pushkitIncoming else { note("report-call outside a pushkit.incoming handler: no VoIP push to answer"); return }
            reportedCall = true
            callKitActive = true
            call = .ringing
            sessionActive = true  // CallKit activates its playAndRecord session
            note("the call is reported to CallKit: it rings, and the system keeps the app alive while it rings or goes on")
        case .complete:
            guard cb == .performFetch || cb == .didReceiveRemoteNotification else { note("complete outside a fetch or push handler: nothing to complete"); return }
            completed = true
        case .endProcessingTask:
            guard processingUntil != nil else { note("end-processing-task: no processing task is running"); return }
            processingUntil = nil
            completed = true
        }
    }

    /// Activates the session. In background a non-mixable session cannot (cannotInterruptOthers), except in
    /// an interruption.ended handler: `shouldResume` is the system handing the session back.
    mutating func activateSession(for stream: String?, in cb: Callback?) -> Bool {
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

    mutating func start(_ name: String, in cb: Callback?) {
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

    mutating func stop(_ name: String) {
        runtime[name]?.on = false
        runtime[name]?.pausedBy = nil
        runtime[name]?.taskBeganAt = nil
    }

    mutating func unknownRule(_ text: String) {
        draft?.unknownRule = "unknown rule: " + text
    }

    mutating func handle(_ event: LifecycleEvent) {
        let name = event.description
        if terminateAt != nil {
            switch event {
            case .midi, .streamStart, .streamStop: break
            default:
                note("\(name): applicationWillTerminate has run, the process is ending")
                if event.isWake { draft?.delivered = false }
                return
            }
        }
        switch event {
        case .launch:
            guard state == .notRunning || state == .terminated else { note("launch: the app is already running"); return }
            resetRuntime()
            setPhase(.active, state == .terminated ? "relaunched in the foreground" : "launched in the foreground", firing: .launch)
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
            setPhase(.inactive, "\(name) shown over the app: it resigns active but is not backgrounded", firing: .resign)
        case .dismissOverlay:
            guard state == .inactive, call == .none else { note("dismiss-overlay: no overlay over the app"); return }
            setPhase(.active, "back from the overlay", firing: .becomeActive)
        case .foreground:
            guard state == .background || state == .suspended else { note("foreground: the app is not in background"); return }
            setPhase(.inactive, "")
            pipActive = false
            fire(callbacks(.willEnterForeground))
            setPhase(.active, "the user returned to the app", firing: .becomeActive)
        case .callIncoming:
            guard call == .none else { note("call-incoming: a call is already going on"); return }
            call = .ringing
            if state == .active {
                setPhase(.inactive, "an incoming call covers the app", firing: .resign)
            }
            beginInterruption(.call, "a phone call")
        case .callDeclined:
            guard call == .ringing else { note("call-declined: no call is ringing"); return }
            call = .none
            if state == .inactive {
                setPhase(.active, "the call was declined", firing: .becomeActive)
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
            let list = callbacks(.terminate)
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
        case .bleEvent, .silentPush, .accessoryEvent, .voipPush, .pttPush, .backgroundFetch, .processingStart:
            wake(by: event)
        }
        if case .callDeclined = event { endCallKitCall() }
        if case .callEnded = event { endCallKitCall() }
    }

    /// A CallKit call the app reported ends (declined or hung up): nothing is kept alive by it any more.
    mutating func endCallKitCall() {
        guard callKitActive, call == .none else { return }
        callKitActive = false
        note("the CallKit call ended: it keeps the app alive no more")
    }

    /// A Bluetooth LE event or a silent push (rules §2): wakes a suspended app for about 10 s; a further one
    /// during the wake restarts the window; a terminated app is not woken (only `launch` relaunches it).
    mutating func wake(by event: LifecycleEvent) {
        let name = event.description
        let mode = event.wakeModes
        guard mode.contains(where: has) else {
            draft?.delivered = false
            note("\(name) not delivered: no \(mode.map(\.rawValue).joined(separator: " or ")) background mode, the app is not woken")
            return
        }
        guard state != .terminated && (state != .notRunning || event.launchesApp) else {
            draft?.delivered = false
            note(state == .terminated
                 ? "\(name) not delivered: the app was terminated (force quit or watchdog); only launch relaunches it"
                 : "\(name) not delivered: the app is not running")
            return
        }
        draft?.delivered = true
        let handler = event.wakeCallback
        let handled = handler.map { cb in configuration.handlers.contains { $0.on == cb } && LifecycleRules.unreachable(cb, in: configuration) == nil } ?? false
        let window: Double = switch event {
        case .backgroundFetch: Self.handledWakeDuration
        case .silentPush: handled ? Self.handledWakeDuration : Self.wakeDuration
        default: Self.wakeDuration
        }
        let lasting: String = switch event {
        case .voipPush, .pttPush, .processingStart: ""
        default: " for about \(Int(window)) s"
        }
        let why = "the \(Int(window)) s wake for \(name) ended (\(window > Self.wakeDuration ? "up to 30 s" : "about 10 s, up to 30 s"))"
        switch phase {
        case .notRunning:
            resetRuntime()
            setPhase(.background(since: now, suspendAt: now + window, why: why),
                     "launched into background by \(name): no scene connects\(lasting)", firing: .launchInBackground)
            wakeEvent = name
        case .suspended:
            setPhase(.background(since: now, suspendAt: now + window, why: why),
                     "woken in background by \(name)\(lasting)")
            wakeEvent = name
        case .background(let since, let suspendAt, _) where wakeEvent != nil:
            wakeEvent = name
            lossReason = why
            if suspendAt != nil { phase = .background(since: since, suspendAt: now + window, why: why) }
            note("\(name) during the wake: the \(Int(window)) s window restarts")
        default:
            note("\(name): delivered to the running app")
        }
        guard state != .terminated else { return }
        switch event {
        case .pttPush:
            transmissionUntil = now + Self.transmissionDuration
            sessionActive = true
            note("the system activates the audio session: the transmission plays (about \(Int(Self.transmissionDuration)) s, assumed)")
        case .processingStart:
            processingUntil = now + configuration.processingBudget
            note("the processing task may run \(Int(configuration.processingBudget)) s (assumed: Apple documents no budget, \"several minutes\")")
        default: break
        }
        completed = false
        reportedCall = false
        if let handler, LifecycleRules.unreachable(handler, in: configuration) == nil { fire([handler]) }
        guard state != .terminated else { return }
        if case .voipPush = event, !reportedCall {
            warn(.voipPushNotReported, nil, "the VoIP push handler returned without reporting a call to CallKit: the app is terminated (iOS 13 on)")
            terminate("a VoIP push was not reported to CallKit before its handler returned: terminated (iOS 13 on)")
            return
        }
        if completed {
            completed = false
            suspendIfNothingKeepsAlive("the handler called \(event == .processingStart ? "end-processing-task" : "complete"): the wake ends at once")
        }
    }

    mutating func enterBackground(_ name: String, from states: [AppState]) {
        guard states.contains(state) else { note("\(name): the app is not in the foreground"); return }
        if state == .active {
            setPhase(.inactive, "", firing: .resign)
        }
        lossReason = "nothing keeps the app alive \(Int(Self.gracePeriod)) s after didEnterBackground"
        setPhase(.background(since: now, suspendAt: nil, why: lossReason), "the app entered background (\(name))")
        wakeEvent = nil
        fire(callbacks(.enterBackground))
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

    mutating func beginInterruption(_ source: Interruption, _ what: String) {
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

    mutating func endInterruption(_ source: Interruption) {
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
