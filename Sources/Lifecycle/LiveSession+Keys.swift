// The live panel's keys: events, configuration, virtual streams, Backbeat's synth, and the simulated clock.

extension LiveSession {
    /// Performs a key at wall-clock time `wall` (moving simulated time first); returns the status message.
    @discardableResult
    public func perform(_ key: LifecycleKey, wall: Double) -> String {
        clock(wall: wall)
        return perform(key, at: now)
    }

    /// Performs a key at simulated time `time`; returns the status line's message.
    @discardableResult
    public func perform(_ key: LifecycleKey, at time: Double) -> String {
        advance(to: time)
        if isScenario && key.changesConfiguration { return scenarioOwnsConfiguration }
        let config = simulator.configuration
        switch key {
        case .event(let event):
            let entries = change(at: time) { sim in sim.apply(event, at: time) }
            guard let e = entries.last else { return "\(event): nothing happened" }
            var message = "\(event): " + (e.callbacks.isEmpty ? "no callback" : e.callbacks.joined(separator: ", ")) + " → \(e.state.rawValue)"
            if let u = e.unknownRule { message += " · \(u)" } else if let n = e.notes.first { message += " · \(n)" }
            return message
        case .otherAppAudio:
            // Toggles another app's non-mixable playback: it interrupts this app's session in background
            // unless the session mixes with others; stopping it brings interruption.ended.
            otherAppAudioPlaying.toggle()
            return perform(.event(otherAppAudioPlaying ? .otherAudioStart : .otherAudioStop), at: time)
        case .toggleSynth:
            guard let synth = simulator.status(of: Self.synthStream) else { return "no synth stream in this app" }
            let event: LifecycleEvent = synth.isOn ? .streamStop(Self.synthStream) : .streamStart(Self.synthStream)
            change(at: time) { sim in sim.apply(event, at: time) }
            let now = simulator.status(of: Self.synthStream)
            if now?.isOn == true { return "synth playing: \(now?.why ?? "")" }
            if synth.isOn { return "synth stopped: Backbeat is silent, and nothing of it keeps the app alive in background" }
            return "synth cannot play: \(now?.why ?? "")"
        case .pause:
            isPaused.toggle()
            version += 1
            return isPaused ? "simulated time paused at \(TimelineFormat.number(now)) s (Space resumes, . steps)" : "simulated time runs (\(clockText))"
        case .step:
            isPaused = true
            version += 1
            guard let next = nextScheduled else { return "paused: nothing more is scheduled" }
            advance(to: next)
            return "stepped to \(TimelineFormat.number(next)) s: \(state.rawValue) (paused; Space resumes)"
        case .slower, .faster:
            let i = Self.speeds.firstIndex(of: speed) ?? Self.speeds.firstIndex(of: 1)!
            speed = Self.speeds[max(0, min(Self.speeds.count - 1, i + (key == .faster ? 1 : -1)))]
            version += 1
            return "simulated time \(clockText)"
        case .cycleStyle:
            let next = config.style.cycled
            change(at: time) { sim in sim.setStyle(next, at: time) }
            return "lifecycle style \(next.rawValue)"
        case .cycleModes:
            let cycle: [[BackgroundMode]] = [[.audio], [.audio, .location], [.location], []]
            let i = cycle.firstIndex(of: config.backgroundModes) ?? -1
            let next = cycle[(i + 1) % cycle.count]
            change(at: time) { sim in sim.setBackgroundModes(next, at: time) }
            return "background modes [\(next.map(\.rawValue).joined(separator: ", "))]"
        case .cycleCategory:
            let next = config.category.cycled
            change(at: time) { sim in sim.setCategory(next, at: time) }
            return "audio session category \(next.rawValue)"
        case .toggleMix:
            let mix = !config.options.contains(.mixWithOthers)
            change(at: time) { sim in sim.setMixWithOthers(mix, at: time) }
            return "mixWithOthers \(mix ? "on" : "off")"
        case .keepAlive:
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
            return toggle("location", kind: .location, what: "location updates", at: time)
        case .backgroundTask:
            return toggle("task", kind: .backgroundTask, what: "background task", at: time)
        }
    }

    private var scenarioOwnsConfiguration: String {
        "the scenario sets the configuration and streams: only events while it plays"
    }

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
}

extension CaseIterable where Self: Equatable {
    /// The next case in declaration order; the first after the last (the keys that cycle a setting).
    fileprivate var cycled: Self {
        let all = Array(Self.allCases)
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
