import Engine
import Lifecycle
import Settings

/// `backbeat --headless --scenario FILE` once its engine is made: plays the scenario in real time through
/// `LiveSession`, the same live gating as the workstation's panel. The simulator's state really gates
/// Backbeat (suspended: MIDI in is dropped and counted lost, audio out is silence; an interrupted or
/// stopped `synth` stream is silence too); the timeline lines of the scenario format go to `out` (standard
/// output) as they happen; status lines and the narration (the scenario's words, or Backbeat's when the
/// state changed after them) go to `info` (standard error).
public final class ScenarioPlayer {
    let engine: Engine
    let capture: CaptureController
    let session: LiveSession
    let out: (String) -> Void, info: (String) -> Void
    /// Expectations checked so far, and those that failed.
    public private(set) var checked = 0, failed = 0
    var recentPeak: Float = 0
    var announcedEnd = false
    var nextStatus = 1.0
    /// The ALSA MIDI status the lines before said in full (`HeadlessStatus.line`).
    var alsaSaid: String?

    public init(_ scenario: Scenario, engine: Engine, capture: CaptureController,
                out: @escaping (String) -> Void, info: @escaping (String) -> Void) {
        self.engine = engine
        self.capture = capture
        self.out = out
        self.info = info
        session = LiveSession(scenario: scenario)
        session.keepsTimeline = true
    }

    /// Before the engine starts: the steps at 0, so a launch at 0 opens the gates for the demo's first notes.
    public func prepare() {
        session.update(wall: 0).apply(to: engine, dropped: info)
    }

    /// Once the engine runs: the narration and timeline of the steps at 0 (a reader can play as soon as it
    /// sees launch).
    public func started() {
        for n in session.takeNarrations() { info("narration: " + n.text) }
        emit(session.takeTimeline())
    }

    /// Hands the engine's events to the recorders and its meter blocks to the synth's level.
    public func drain() {
        engine.drainEvents { event in
            switch event {
            case .midi(let midi): capture.record(midi, message: engine.message(of: midi))
            case .meter(let block): recentPeak = max(recentPeak * 0.9, block.peakLeft, block.peakRight)
            }
        }
    }

    /// Plays until `signals` catch a quit signal, every 10 ms a step at the wall clock's time.
    public func run(until signals: QuitSignals) {
        let start = ContinuousClock.now
        while signals.wait(timeout: .milliseconds(10)) == nil {
            let elapsed = ContinuousClock.now - start
            step(at: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
    }

    /// One step at `t` seconds: the simulator advanced and put into the engine, its lines said, and a status
    /// line each second.
    func step(at t: Double) {
        drain()
        session.update(wall: t, synthLevelDB: LiveSession.decibels(recentPeak), demoPlaying: engine.demo.isPlaying)
            .apply(to: engine, dropped: info)
        emit(session.takeTimeline())
        for n in session.takeNarrations() { info("narration: " + n.text) }
        if session.scenarioFinished && !announcedEnd {
            announcedEnd = true
            info("scenario finished: \(checked - failed) of \(checked) expectations passed; the engine keeps running until you quit")
        }
        if t >= nextStatus {
            nextStatus += 1
            info(HeadlessStatus.line(engine.status(), alsaSaid: &alsaSaid) + " | app \(session.state.rawValue)"
                 + (session.midiCountsText.map { " | " + $0 } ?? ""))
        }
    }

    /// Writes timeline lines as JSON and counts the expectations among them.
    func emit(_ lines: [TimelineLine]) {
        for line in lines {
            out(TimelineFormat.json(line))
            if case let .expectation(result) = line {
                checked += 1
                if !result.passed { failed += 1 }
            }
        }
    }
}
