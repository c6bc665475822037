import Engine
import MIDI

/// The loop of `backbeat --headless`, once the engine runs: every 100 ms the engine's events go to the
/// recorders and the MIDI clock's tempo, a bank or program no font has is said once; every second a status
/// line. It runs until a quit signal; the executable builds what it runs on and ends the session after it.
public final class HeadlessLoop {
    let engine: Engine
    let capture: CaptureController
    /// Standard output (the status lines) and standard error (what happened).
    let out: (String) -> Void, info: (String) -> Void
    var tempo = ClockTempo()
    var reportedFailure = false
    /// The ALSA MIDI status the lines before said in full (`HeadlessStatus.line`).
    var alsaSaid: String?

    public init(engine: Engine, capture: CaptureController, out: @escaping (String) -> Void, info: @escaping (String) -> Void) {
        self.engine = engine
        self.capture = capture
        self.out = out
        self.info = info
    }

    /// Hands the engine's events to the recorders (every MIDI event's whole message, so a sysex's payload
    /// leaves its ring and reaches the take) and its incoming MIDI to the clock tempo.
    public func drain() {
        let rate = Double(max(engine.sampleRate, 1))
        engine.drainEvents { event in
            guard case .midi(let midi) = event else { return }
            capture.record(midi, message: engine.message(of: midi))
            if !midi.lost, midi.source != .out { tempo.receive(midi.message, at: Double(midi.frameTime) / rate) }
        }
    }

    /// What the status line ends with, read once a second (the song player's place).
    public var statusExtra: (() -> String)?

    /// Runs until `signals` catch a quit signal, or until `done` (asked every 100 ms) says the run is over.
    public func run(until signals: QuitSignals, or done: () -> Bool = { false }) {
        var tick = 0
        while signals.wait(timeout: .milliseconds(100)) == nil && !done() {
            drain()
            // A bank or program no font has (or a variation or kit the built-in synth has not): said once per
            // channel, at its first note.
            for substitution in engine.synth.takePresetSubstitutions() { info("warning: " + substitution.message(engine.synth.soundFont)) }
            tick += 1
            if tick % 10 == 0 { report() }
        }
    }

    /// The status line of this second, and once a recording's failure.
    func report() {
        if let frameTime = engine.frameTime() { tempo.expire(now: Double(frameTime) / Double(max(engine.sampleRate, 1))) }
        let recording = capture.status()
        out(HeadlessStatus.line(engine.status(), alsaSaid: &alsaSaid) + HeadlessStatus.extras(recording, tempo: tempo)
            + (statusExtra?() ?? ""))
        if let failure = recording.audio?.failure, !reportedFailure {
            info("audio recording stopped: \(failure)")
            reportedFailure = true
        }
    }
}
