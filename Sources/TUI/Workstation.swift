import DSP
import Engine
import Foundation
import Lifecycle
import MIDI
import Settings
import TextOutput

/// Settings the workstation starts with (config file, then command line).
public struct WorkstationSettings: Sendable {
    public var ascii = false
    public var gate = 0.3
    public var hold = false
    public var octave = 4
    public var velocity = 100
    public var middleC: MiddleC = .c4
    /// Where the synth panel saves and finds presets.
    public var presets = PresetLibrary()
    public init() {}
}

/// The workstation's state and behaviour, without a terminal: it drains the engine, handles keys, and
/// draws every panel into a `Grid`. `CursesDriver` puts the grid on screen; tests read it.
public final class Workstation {
    public let engine: any WorkstationEngine
    public var actions: any WorkstationActions
    public private(set) var meters = LiveMeters()
    public private(set) var tempo = ClockTempo()
    /// The iOS lifecycle simulator, live: its state gates the engine's MIDI in and audio out.
    public let lifecycle: LiveSession
    /// The lifecycle panel fills the screen (`P`).
    public private(set) var presenter = false
    private var lifecycleVersion = -1
    private var lifecycleSecond = -1
    public let glyphs: Glyphs

    public private(set) var log = MonitorLog()
    public private(set) var held = HeldNotes()
    /// Each channel's bank and sound controllers as delivered (program names, the synth panel's rows).
    public internal(set) var channels = ChannelTracker()
    public internal(set) var keyboard: ComputerKeyboard
    public private(set) var focus: PanelID = .monitor
    public private(set) var playMode = false
    public private(set) var showHelp = false
    public private(set) var helpScroll = 0
    public private(set) var synthSelection = 0
    public private(set) var statusMessage = ""
    public internal(set) var quitRequested = false
    /// The preset name being typed in the status line (`s` in the synth panel); nil when not asked for.
    public internal(set) var presetPrompt: String?
    /// The bar or time being typed in the status line (`J`, the song player); nil when not asked for.
    public internal(set) var seekPrompt: String?
    /// The channel mixer (`O`): its settings, meters and whether it is shown (Workstation+Mixer.swift).
    public internal(set) var mixer = MixerState()
    /// The preset browser, while open (Enter or `/` on the synth panel): keys type its search.
    public internal(set) var browser: PresetBrowser?
    /// The folder whose `.sfz` files the preset browser offers (`instrument_dir`), and the instrument being
    /// loaded or put in live (Workstation+Instruments.swift).
    public var instrumentDirectory = InstrumentLoad.defaultDirectory()
    /// The bound above which an instrument loaded so is streamed from disk (`--sample-cache`).
    public var instrumentCacheBytes = SoundFontSampleStore.defaultLimitBytes
    var instrumentLoad: InstrumentLoad?
    /// The preset last loaded or saved, for `[` `]` to move on from.
    public internal(set) var presetName: String?
    let presets: PresetLibrary
    var midiGateOpen = true
    /// The lifecycle gate lets the output be heard (false: suspended, terminated, the synth stream stopped):
    /// while it is closed the screen shows no voices and no lit keys, as none plays.
    public private(set) var audioGateOpen = true
    private var monitorPanel: MonitorPanel

    // Frame times: monitor time 0 is the first event's period start, in seconds.
    private var sampleRate = 48_000.0
    private var firstFrame: UInt32?
    /// Monitor time (JACK frames since the first event) minus UI time, for the tempo's staleness check.
    private var monitorOffset = 0.0
    private var header = HeaderInfo()
    private var lastStatusAt = -1.0
    private var midiCountAt: (time: Double, count: Int)?
    private var midiPerSecond = 0
    private var engineLost = 0
    private var ringDrops = 0
    var synthView: SynthView?
    private var dirty = true
    /// Since the last `drawChanges`: something besides the lifecycle panel's clock changed (a full frame).
    private var changedSinceDraw = true
    /// Since the last `drawChanges`: the lifecycle panel's second ticked (its time in state, its strip).
    private var lifecycleTicked = false
    /// Since the last `drawChanges`: the header's figures changed (and nothing else needs a full frame).
    private var headerChanged = false
    /// The size `drawChanges` last drew a full frame at.
    private var drawnSize: (width: Int, height: Int)?
    private var lastTempo: TempoReadout?
    private var lastMeters: [MeterReadout] = []
    private var lastLoudness = LoudnessReadout()
    private var reportedFailures: Set<String> = []

    public init(engine: any WorkstationEngine, settings: WorkstationSettings, actions: any WorkstationActions = UnavailableActions(),
                lifecycle: LiveSession? = nil) {
        self.engine = engine
        self.actions = actions
        self.lifecycle = lifecycle ?? LiveSession(configuration: LiveSession.defaultConfiguration(
            demoPlaying: actions.demoPlaying, midiInputs: Self.midiInputs(engine.status())))
        glyphs = settings.ascii ? .ascii : .unicode
        keyboard = ComputerKeyboard(octave: settings.octave, velocity: settings.velocity, gate: settings.gate,
                                    hold: settings.hold, channel: engine.synthChannel ?? 0)
        monitorPanel = MonitorPanel(middleC: settings.middleC)
        presets = settings.presets
        mixer.settings = engine.channelMixerSettings()  // a preset's or NSM session's, set before the screen
        statusMessage = "? help · Tab panels · i play notes · q quit"
    }

    /// Backbeat's MIDI inputs that exist in this run, as lifecycle streams: no `alsa` when the sequencer is
    /// not open (not asked for, or unavailable: the header says why), no `jack` when the ALSA driver runs.
    static func midiInputs(_ status: EngineStatus) -> [String] {
        LiveSession.midiStreams.filter { name in
            switch name {
            case "alsa": status.alsaMIDI.map { !$0.contains("unavailable") } ?? false
            case "jack": status.alsaPCM == nil
            default: true
            }
        }
    }

    /// Shows a one-line message (engine log lines land here, sanitized).
    public func say(_ message: String) {
        statusMessage = TerminalText.sanitized(message)
        dirty = true
    }

    // MARK: - Time passing

    /// Drains the engine, ends gated notes, refreshes the slow figures; returns true when the screen changed.
    @discardableResult
    public func tick(now: Double) -> Bool {
        for message in keyboard.expire(now: now) { send(.midi(message, .keyboard)) }
        if instrumentLoad != nil { advanceInstrumentLoad() }
        let rate = sampleRate
        var sawMeter = false
        let actions = actions
        let engine = engine
        engine.drainEvents { event in
            switch event {
            case .midi(let m):
                let message = m.message(takingSysex: engine.takeSysex)
                actions.record(m, message: message)
                record(m, message: message, rate: rate, now: now)
            case .meter(let block):
                meters.consume(block, sampleRate: Int(rate))
                sawMeter = true
            }
        }
        if sawMeter || lastMeters.contains(where: { $0.peakDB.isFinite || $0.holdDB.isFinite }) {
            meters.advance(to: now)
            if meters.channels != lastMeters || meters.loudness != lastLoudness {
                lastMeters = meters.channels
                lastLoudness = meters.loudness
                dirty = true
            }
        }
        if firstFrame != nil { tempo.expire(now: now + monitorOffset) }
        if mixer.shown { mixer.take(engine.takeChannelLevels(), now: now); dirty = true }
        if actions.songPlayer?.isFinished == false { dirty = true }  // the song panel's place and lyrics move
        updateLifecycle(now: now)
        let tempoNow = TempoReadout(tempo)
        if tempoNow != lastTempo { lastTempo = tempoNow; dirty = true }
        if now - lastStatusAt >= 0.5 {
            lastStatusAt = now
            let status = engine.status()
            if status.sampleRate > 0 { sampleRate = Double(status.sampleRate) }
            if let (t, count) = midiCountAt, now > t {
                midiPerSecond = Int((Double(status.midiReceived - count) / (now - t)).rounded())
            }
            midiCountAt = (now, status.midiReceived)
            // The monitor's loss line shows these: a change redraws it.
            if engineLost != status.midiLost || ringDrops != status.ringDrops { dirty = true }
            engineLost = status.midiLost
            ringDrops = status.ringDrops
            var info = HeaderInfo(status, midiPerSecond: midiPerSecond, lifecycleBadge: lifecycle.state.rawValue)
            info.audible = audioGateOpen
            let view = engine.synthView(channel: keyboard.channel)
            info.program = view.soundFont != nil ? (view.preset ?? "none")
                : "patch \(view.patch) \(SynthPatch.builtIn[max(0, min(view.patch, SynthPatch.builtIn.count - 1))].name)"
            info.recordings = actions.recordings()
            for r in info.recordings where r.failure != nil && !reportedFailures.contains(r.path) {
                reportedFailures.insert(r.path)
                say("\(r.kind) recording stopped: \(r.failure ?? "") (what was captured so far is kept)")
            }
            // The header's figures (DSP load) change every read: the header alone is redrawn for them.
            if info != header { header = info; headerChanged = true }
            if view != synthView { synthView = view; dirty = true }
            for line in engine.takePresetSubstitutions() { say(line) } // once per channel
        }
        defer { dirty = false }
        if dirty { changedSinceDraw = true }
        return dirty || lifecycleTicked || headerChanged
    }

    /// Backbeat's real streams into the simulator, time forward, then its actions, gates and notes into the
    /// engine (`LiveUpdate.apply`): every UI frame.
    private func updateLifecycle(now: Double) {
        let update = lifecycle.update(wall: now, synthLevelDB: meters.loudestPeakDB, demoPlaying: actions.demoPlaying)
        // Every voice released: no key stays lit, not even one whose note-off was lost meanwhile.
        update.apply(to: engine, held: { held = HeldNotes(); return keyboard.releaseAll() }, dropped: say)
        midiGateOpen = update.gates.midiDelivered
        if audioGateOpen != update.gates.audioPlaying {
            audioGateOpen = update.gates.audioPlaying
            header.audible = audioGateOpen
            dirty = true
        }
        // The panel counts whole seconds: redraw on a change, and the panel alone once a second.
        if lifecycle.version != lifecycleVersion {
            lifecycleVersion = lifecycle.version
            lifecycleSecond = Int(now)
            header.lifecycleBadge = lifecycle.state.rawValue
            dirty = true
        } else if Int(now) != lifecycleSecond {
            lifecycleSecond = Int(now)
            lifecycleTicked = true
        }
    }

    private func record(_ m: MonitorEvent, message: MIDIMessage?, rate: Double, now: Double) {
        if firstFrame == nil { firstFrame = m.frameTime; monitorOffset = -now }
        let time = Double(m.frameTime &- (firstFrame ?? 0)) / max(rate, 1)
        if let message {
            // `out` repeats a message already applied from its source.
            if !m.lost && m.source != .out { held.apply(message); channels.apply(message); tempo.receive(m.message, at: time) }
        }
        var label: String?
        if case .programChange(let pc) = message, m.source != .out { label = programLabel(pc); mixer.programs[Int(pc.channel & 15)] = pc.program }
        log.append(time: time, source: m.source, lost: m.lost, message: message, status: m.message.status, label: label,
                   ignored: m.sysexIgnored)
        if let message, !log.isVisible(MonitorEntry(sequence: 0, time: 0, source: m.source, lost: m.lost, message: message, status: 0)) {
            return  // hidden clock and sensing do not redraw
        }
        dirty = true
    }

    func send(_ event: ControlEvent) {
        if !engine.send(event) { say("keyboard ring full: event dropped (counted in overflow)") }
    }

    // MARK: - Keys

    /// Handles one key; `layout` is the current layout (for mouse hits).
    public func handle(_ key: Key, layout: Layout?, now: Double) {
        dirty = true
        defer { keepFocusVisible(layout) }
        if key == .resize { return }
        if presetPrompt != nil { return handlePrompt(key) }
        if seekPrompt != nil { return handleSeekPrompt(key) }
        if mixer.shown && !playMode && !showHelp && !presenter, let said = mixer.handle(key) { return mixerChanged(said) }
        if browser != nil { return handleBrowser(key) }
        if showHelp {
            switch key {
            case .escape, .char("?"), .char("q"), .function(1): showHelp = false
            case .down, .char("j"): helpScroll += 1
            case .up, .char("k"): helpScroll = max(0, helpScroll - 1)
            case .pageDown: helpScroll += 10
            case .pageUp: helpScroll = max(0, helpScroll - 10)
            case .function(10): quitRequested = true
            default: break
            }
            helpScroll = min(helpScroll, max(0, HelpOverlay.lines(width: 60).count - 1))
            return
        }
        let command = presenter
            ? InputMap.command(for: key, focus: .lifecycle, playMode: false)
            : InputMap.command(for: key, focus: focus, playMode: playMode)
        guard let command else { return }
        perform(command, layout: layout, now: now)
    }

    /// A panel without room (the lifecycle panel on a short terminal) never has the focus outside the
    /// presenter view, so its keys never act unseen: the focus goes to the first panel on screen.
    func keepFocusVisible(_ layout: Layout?) {
        guard !presenter, let layout, layout.rect(focus).isEmpty, let first = layout.tabOrder.first else { return }
        focus = first
        playMode = false
    }

    func perform(_ command: Command, layout: Layout?, now: Double) {
        switch command {
        case .quit: quitRequested = true
        case .help: showHelp = true; helpScroll = 0
        case .closeOverlay:
            showHelp = false
            mixer.shown = false
            presenter = false
        case .presenter:
            presenter.toggle()
            if presenter { focus = .lifecycle; playMode = false }
            say(presenter ? "presenter view: Space pause · . step · - + speed · P or Esc back" : "presenter view closed")
        case .focusNext, .focusPrevious:
            presenter = false
            let all = layout?.tabOrder ?? Layout.defaultTabOrder
            let i = all.firstIndex(of: focus) ?? 0
            focus = all[(i + (command == .focusNext ? 1 : all.count - 1)) % all.count]
            playMode = false
        case .enterPlay:
            focus = .keyboard; playMode = true; presenter = false
            say("play mode: z s x d c v g b h n j m / q 2 w 3 e r 5 t 6 y 7 u play; Esc leaves; F10 quits")
        case .leavePlay:
            playMode = false
            say("letters are commands again (i: play mode)")
        case .note(let c):
            if let note = keyboard.note(for: c) { play(note, now: now) }
        case .octave(let d): keyboard.octave = min(8, max(0, keyboard.octave + d))
        case .velocity(let d): keyboard.velocity = min(127, max(1, keyboard.velocity + d))
        case .gate(let d): keyboard.gate = min(5, max(0.05, d > 0 ? keyboard.gate * 1.25 : keyboard.gate / 1.25))
        case .toggleHold:
            keyboard.hold.toggle()
            if !keyboard.hold { for m in keyboard.releaseAll() { send(.midi(m, .keyboard)) } }
        case .allNotesOff:
            // Panic: the computer keyboard's notes end, then every voice of the synth is silenced at once,
            // sustained ones too, whatever the lifecycle gate (it is Backbeat's key, not the app's input).
            for m in keyboard.releaseAll() { send(.midi(m, .keyboard)) }
            send(.silenceAllVoices)
            say("panic: every voice silenced (all sound off, pedals up, all 16 channels)")
        case .pause: log.togglePause()
        case .clear: log.clear()
        case .channelFilter(let d): log.cycleChannel(d)
        case .typeFilter: log.cycleType()
        case .toggleClock: log.showClockAndSensing.toggle()
        case .scroll(let n): log.scroll(by: n)
        case .scrollPage(let n): log.scroll(by: n * max(1, (layout?.monitor.height ?? 20) - 4))
        case .scrollOldest: log.scrollToOldest()
        case .scrollNewest: log.scrollToNewest()
        case .select(let d): synthSelection = min(synthRows.count - 1, max(0, synthSelection + d))
        case .change(let steps): change(synthRows[min(synthSelection, synthRows.count - 1)], steps: steps)
        case .patch(let d): changePatch(by: d)
        case .savePreset:
            presetPrompt = ""
        case .loadPreset(let d): loadPreset(by: d)
        case .browsePresets: openBrowser()
        case .resetClip: meters.resetClip(); lastMeters = []; say("clip lamps and holds reset")
        case .demo: say(actions.toggleDemo())
        case .transport(let request): say(actions.transport(request))
        case .typeSeek: startSeekPrompt()
        case .toggleMixer: toggleMixer()
        case .abLoop(let key): say(abLoop(key))
        case .recordMIDI: say(actions.toggleMIDIRecording())
        case .recordAudio: say(actions.toggleAudioRecording())
        case .recordTake: say(actions.toggleTake())
        case .lifecycle(let key):
            say(lifecycle.perform(key, wall: now))
            updateLifecycle(now: now)
        case .unbound(let hint): say(hint)
        case .click(let x, let y):
            guard let layout else { return }
            if let note = KeyboardPanel.note(atX: x, y: y, rect: layout.keyboard, octave: keyboard.octave) {
                play(note, now: now)
            } else if let panel = PanelID.allCases.first(where: { layout.rect($0).contains(x: x, y: y) }) {
                focus = panel
                if panel != .keyboard { playMode = false }
            }
        }
    }

    private func play(_ note: UInt8, now: Double) {
        for m in keyboard.press(note: note, now: now) { send(.midi(m, .keyboard)) }
    }

    /// The synth panel's rows for the synth playing (a SoundFont's are fewer).
    var synthRows: [SynthRow] { SynthRow.rows(soundFont: (synthView ?? engine.synthView()).soundFont != nil) }

    // MARK: - Drawing

    /// Draws what changed since its last call into `grid`, the frame it drew last (the terminal loop's): when
    /// only the lifecycle panel's clock ticked (an idle second) or the header's figures changed, those alone;
    /// otherwise everything, on a cleared grid. Returns false when nothing needed drawing.
    @discardableResult
    public func drawChanges(into grid: inout Grid) -> Bool {
        defer { changedSinceDraw = false; lifecycleTicked = false; headerChanged = false }
        let sameSize = drawnSize.map { $0 == (grid.width, grid.height) } ?? false
        if !dirty && !changedSinceDraw && sameSize {
            guard lifecycleTicked || headerChanged else { return false }
            if !presenter, !showHelp, browser == nil, let layout = Layout.compute(width: grid.width, height: grid.height) {
                grid.cutWords.removeAll(keepingCapacity: true)
                if headerChanged { HeaderPanel.draw(header, into: &grid, rect: layout.header, glyphs: glyphs) }
                if lifecycleTicked { LifecyclePanel.draw(lifecycle, into: &grid, rect: layout.lifecycle, context: context(.lifecycle)) }
                return true
            }
        }
        grid.fill(Rect(x: 0, y: 0, width: grid.width, height: grid.height))
        draw(into: &grid)
        drawnSize = (grid.width, grid.height)
        return true
    }

    /// Draws everything into `grid` (sized to the terminal).
    public func draw(into grid: inout Grid) {
        grid.cutWords.removeAll(keepingCapacity: true)
        guard let layout = Layout.compute(width: grid.width, height: grid.height) else {
            Layout.drawTooSmall(into: &grid)
            return
        }
        var view = synthView ?? engine.synthView()
        if !audioGateOpen { view.voicesInUse = 0 }
        if view.soundFont != nil { view.soundControllers = channels.soundControllers(channel: keyboard.channel) }
        HeaderPanel.draw(header, into: &grid, rect: layout.header, glyphs: glyphs)
        if presenter {
            LifecyclePresenter.draw(lifecycle, into: &grid, rect: Rect(x: 0, y: 1, width: grid.width, height: grid.height - 2),
                                    context: context(.lifecycle))
            drawStatus(into: &grid, layout: layout)
            if showHelp { HelpOverlay.draw(into: &grid, scroll: helpScroll, glyphs: glyphs) }
            return
        }
        defer { browser?.draw(into: &grid, font: view.soundFont ?? "built-in patches", glyphs: glyphs) }
        if mixer.shown {
            drawMixer(into: &grid, layout: layout)
        } else {
            drawPanels(into: &grid, layout: layout, view: view)
        }
        KeyboardPanel.draw(held: audioGateOpen ? held : HeldNotes(), keyboard: keyboard, playMode: playMode, into: &grid, rect: layout.keyboard, context: context(.keyboard))
        drawStatus(into: &grid, layout: layout)
        if showHelp { HelpOverlay.draw(into: &grid, scroll: helpScroll, glyphs: glyphs) }
    }

    /// The monitor, meters, synth and lifecycle panels (the mixer, when shown, takes their place).
    private func drawPanels(into grid: inout Grid, layout: Layout, view: SynthView) {
        monitorPanel.draw(log, tempo: lastTempo, ringDrops: ringDrops, engineLost: engineLost, into: &grid,
                          rect: drawSong(into: &grid, above: layout.monitor), context: context(.monitor))
        MetersPanel.draw(meters.channels, loudness: meters.loudness, into: &grid, rect: layout.meters, context: context(.meters))
        SynthPanel.draw(view, selected: synthSelection, into: &grid, rect: layout.synth, context: context(.synth))
        LifecyclePanel.draw(lifecycle, into: &grid, rect: layout.lifecycle, context: context(.lifecycle))
        if layout.lifecycle.isEmpty {
            // No room for the lifecycle panel: say how to see it, on the synth panel's bottom border.
            let hint = String.firstFitting([" Lifecycle hidden: P shows it, or a taller terminal ", " Lifecycle hidden: P shows it ", " Lifecycle: P "],
                                           width: layout.synth.width - 4)
            grid.put(layout.synth.x + 2, layout.synth.maxY - 1, hint, .dim)
        }
    }

    private func drawStatus(into grid: inout Grid, layout: Layout) {
        grid.fill(layout.status, " ", .statusLine)
        let mode = presetPrompt != nil ? " Preset " : seekPrompt != nil ? " Jump " : browser != nil ? " Presets " : playMode ? " PLAY " : presenter ? " Presenter " : " \(focus.title) "
        let x = grid.put(0, layout.status.y, mode, playMode || presetPrompt != nil || seekPrompt != nil ? .badgeWarning : .badgeActive)
        // Cut after a whole word when too long (a path or a key name is never shown in part).
        let line = presetPromptLine ?? seekPromptLine ?? statusMessage
        grid.put(x + 1, layout.status.y, line.fitWords(grid.width - x - 1), .statusLine, limit: grid.width - x - 1)
    }

    private func context(_ panel: PanelID) -> DrawContext { DrawContext(glyphs: glyphs, focused: focus == panel) }

    /// Marks the screen for a redraw (after a resize).
    public func invalidate() { dirty = true }
}
