import Engine
import Foundation
import MIDI
import TextOutput
import Settings

/// `backbeat --headless`: the engine without the terminal UI, one status line a second until a quit signal.
enum Headless {
    /// `config`: the config file, whose engine settings count as in the workstation (the command line over
    /// them). `logFile`: `--log`, which gets every message the engine logs, as the workstation's does.
    static func run(_ arguments: EngineArguments, alsa: ALSAArguments, config: Config = Config(), logFile: LogFile? = nil) throws {
        let signals = QuitSignals.install()
        let nsm = NSMSession.join(signals: signals)
        let preset = nsm?.state?.synth ?? arguments.loadPreset(fallback: config.engine.preset)
        var options = alsa.apply(to: arguments.options(with: config.engine)).applying(preset)
        options.soundFont = arguments.loadSoundFont(fallback: preset?.soundFonts ?? config.engine.soundFonts,
                                                    sampleCacheFallback: config.engine.sampleCache)
        nsm?.adjust(&options)
        let engine = Engine(options: options, log: { line in
            Console.info(line)
            logFile?.write(line)
        })
        preset?.apply(to: engine.synth)
        let capture = CaptureController(engine: engine)
        SessionSetup.start(arguments, engine: engine, capture: capture)
        defer { engine.stop() }
        nsm?.ready(engine: engine, theme: nsm?.state?.theme)
        defer { nsm?.client.stop() }

        var tempo = ClockTempo()
        var reportedFailure = false
        func drain() {
            let rate = Double(max(engine.sampleRate, 1))
            engine.drainEvents { event in
                guard case .midi(let midi) = event else { return }
                // Every MIDI event's whole message, so a sysex's payload leaves its ring and reaches the take.
                capture.record(midi, message: engine.message(of: midi))
                if !midi.lost, midi.source != .out { tempo.receive(midi.message, at: Double(midi.frameTime) / rate) }
            }
        }
        var tick = 0
        var alsaSaid: String? = nil
        while signals.wait(timeout: .milliseconds(100)) == nil {
            drain()
            // A bank or program no font has: said once per channel, at its first note.
            if let font = engine.synth.soundFont {
                for substitution in engine.synth.takePresetSubstitutions() { Console.info("warning: " + substitution.message(font)) }
            }
            tick += 1
            if tick % 10 == 0 {
                if let frameTime = engine.frameTime() { tempo.expire(now: Double(frameTime) / Double(max(engine.sampleRate, 1))) }
                let recording = capture.status()
                Console.out(statusLine(engine.status(), alsaSaid: &alsaSaid) + extras(recording, tempo: tempo))
                if let failure = recording.audio?.failure, !reportedFailure {
                    Console.info("audio recording stopped: \(failure)")
                    reportedFailure = true
                }
            }
        }
        Console.info("quitting (signal \(signals.signal ?? 0))")
        logFile?.write("quitting (signal \(signals.signal ?? 0))")
        try SessionSetup.finish(engine: engine, capture: capture, drain: drain)
    }

    /// One status line. `alsaSaid`: the ALSA MIDI status the lines before said in full; the same again is
    /// said short, without its reason ("ALSA MIDI unavailable: cannot open ... No such file or directory"
    /// once, then "ALSA MIDI unavailable"), so the reason is not repeated every second.
    static func statusLine(_ status: EngineStatus, alsaSaid: inout String?) -> String {
        let server = TerminalText.sanitized("\(status.server.name) (\(status.server.isPrivate ? "private, \(status.server.driver ?? "?")" : "external"))")
        guard status.connected else { return "server \(server): disconnected, waiting for it | xruns \(status.xruns)" }
        // ALSA: the PCM instead of the server with --driver alsa; the sequencer's line when asked for.
        var alsaMIDI = ""
        if let text = status.alsaMIDI {
            let short = text == alsaSaid ? text.components(separatedBy: ": ").first ?? text : text
            alsaMIDI = " | " + TerminalText.sanitized(short)
            alsaSaid = text
        }
        return "\(status.alsaPCM.map(TerminalText.sanitized) ?? "server \(server)") | \(status.sampleRate) Hz | \(status.periodFrames) frames"
            + " | DSP \(String(format: "%.1f", status.jackLoad))% (callback \(String(format: "%.1f", status.callbackLoad * 100))%, max \(String(format: "%.1f", status.maxCallbackLoad * 100))%)"
            + " | xruns \(status.xruns) | voices \(status.voicesInUse)/\(status.voiceCapacity)"
            + " | MIDI \(status.midiReceived) received, \(status.midiLost) lost | drops \(status.ringDrops)" + alsaMIDI
    }

    /// MIDI clock tempo and recordings, when there are any.
    static func extras(_ capture: CaptureStatus, tempo: ClockTempo) -> String {
        var line = ""
        if let bpm = tempo.bpm {
            line += " | clock \(String(format: "%.1f", bpm)) BPM"
            if let jitter = tempo.jitterMilliseconds { line += " (jitter \(String(format: "%.1f", jitter)) ms)" }
        }
        if let midi = capture.midi { line += " | rec MIDI \(counted(midi.count, "event"))" }
        if let audio = capture.audio {
            line += " | rec audio \(String(format: "%.1f", audio.seconds)) s, \(audio.framesDropped) dropped"
            if audio.failure != nil { line += " (stopped: write error)" }
        }
        return line
    }
}
