import Engine
import Foundation
import MIDI
import TUI

/// `backbeat --headless`: the engine without the terminal UI, one status line a second until a quit signal.
enum Headless {
    static func run(_ arguments: EngineArguments, alsa: ALSAArguments) throws {
        let signals = QuitSignals.install()
        let preset = arguments.loadPreset()
        let engine = Engine(options: alsa.apply(to: arguments.engineOptions).applying(preset), log: { Console.info($0) })
        preset?.apply(to: engine.synth)
        let capture = CaptureController(engine: engine)
        SessionSetup.start(arguments, engine: engine, capture: capture)
        defer { engine.stop() }

        var tempo = ClockTempo()
        var reportedFailure = false
        func drain() {
            let rate = Double(max(engine.sampleRate, 1))
            engine.drainEvents { event in
                capture.record(event)
                if case .midi(let midi) = event, !midi.lost { tempo.receive(midi.message, at: Double(midi.frameTime) / rate) }
            }
        }
        var tick = 0
        while signals.wait(timeout: .milliseconds(100)) == nil {
            drain()
            tick += 1
            if tick % 10 == 0 {
                if let frameTime = engine.frameTime() { tempo.expire(now: Double(frameTime) / Double(max(engine.sampleRate, 1))) }
                let recording = capture.status()
                Console.out(statusLine(engine.status()) + extras(recording, tempo: tempo))
                if let failure = recording.audio?.failure, !reportedFailure {
                    Console.info("audio recording stopped: \(failure)")
                    reportedFailure = true
                }
            }
        }
        Console.info("quitting (signal \(signals.signal ?? 0))")
        SessionSetup.finish(engine: engine, capture: capture, drain: drain)
    }

    static func statusLine(_ status: EngineStatus) -> String {
        let server = TerminalText.sanitized("\(status.server.name) (\(status.server.isPrivate ? "private, \(status.server.driver ?? "?")" : "external"))")
        guard status.connected else { return "server \(server): disconnected, waiting for it | xruns \(status.xruns)" }
        // ALSA: the PCM instead of the server with --driver alsa; the sequencer's line when asked for.
        let alsaMIDI = status.alsaMIDI.map { " | \($0)" } ?? ""
        return "\(status.alsaPCM ?? "server \(server)") | \(status.sampleRate) Hz | \(status.periodFrames) frames"
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
        if let midi = capture.midi { line += " | rec MIDI \(midi.count) events" }
        if let audio = capture.audio {
            line += " | rec audio \(String(format: "%.1f", audio.seconds)) s, \(audio.framesDropped) dropped"
            if audio.failure != nil { line += " (stopped: write error)" }
        }
        return line
    }
}

/// `--demo`, `--record-midi` and `--record-audio`, the same for the headless engine and the workstation.
enum SessionSetup {
    /// Before the engine starts: recording targets that cannot be written end Backbeat with a message naming
    /// the file and the reason (exit 2), before anything plays. The audio file is opened here.
    /// Checks the recording targets, starts the engine (a clear error and exit 2 if it cannot, recorders
    /// stopped first), then starts the demo and the recorders: the same for headless and the workstation.
    static func start(_ arguments: EngineArguments, engine: Engine, capture: CaptureController) {
        preflight(arguments, capture: capture)
        do {
            try engine.start()
        } catch {
            _ = capture.stopAll()
            Console.fail("\(error)")
        }
        begin(arguments, engine: engine, capture: capture)
    }

    static func preflight(_ arguments: EngineArguments, capture: CaptureController) {
        for path in [arguments.recordMIDI, arguments.recordAudio].compactMap({ $0 }) {
            do { try CaptureController.checkWritable(path) } catch { Console.fail("\(error)") }
        }
        if let path = arguments.recordAudio {
            do { try capture.prepareAudioRecording(to: path, expectedSampleRate: arguments.rate) } catch { Console.fail("\(error)") }
        }
    }

    /// Once the engine runs: recorders first, so the demo's first notes are in the takes.
    static func begin(_ arguments: EngineArguments, engine: Engine, capture: CaptureController) {
        if let path = arguments.recordMIDI {
            do {
                try capture.startMIDIRecording(to: path)
            } catch {
                _ = capture.stopAll()
                engine.stop()
                Console.fail("\(error)")
            }
            Console.info("recording MIDI to \(path)")
        }
        if let path = arguments.recordAudio {
            capture.beginAudioRecording()
            Console.info("recording audio to \(path)")
        }
        if arguments.demo {
            engine.demo.start()
            Console.info("playing the demo loop (\(Int(engine.demo.bpm)) BPM, MIDI clock on)")
        }
    }

    /// On quit: the demo's note-offs reach the synth and the monitor, `drain` hands the last events to the
    /// recorders, then every file is written completely.
    static func finish(engine: Engine, capture: CaptureController, drain: () -> Void) {
        if engine.demo.isPlaying {
            engine.demo.stop()
            Thread.sleep(forTimeInterval: 0.1)
        }
        drain()
        for line in capture.stopAll() { Console.info(line) }
    }
}

/// stdout for results, stderr for messages; flushed per line so pipes and tests see them at once.
enum Console {
    static func out(_ line: String) {
        StandardOutput.write(line + "\n")
    }
    static func info(_ line: String) {
        FileHandle.standardError.write(Data(("backbeat: " + line + "\n").utf8))
    }
    /// A clear one-line error and exit code 2.
    static func fail(_ line: String) -> Never {
        FileHandle.standardError.write(Data(("backbeat: " + line + "\n").utf8))
        exit(2)
    }
}
