import ArgumentParser
import Engine
import Foundation
import MIDI
import Settings

/// `--demo`, `--record-midi` and `--record-audio`, the same for the headless engine and the workstation.
enum SessionSetup {
    /// The engine of a headless run, not started: `options` with the synth preset (the NSM session's, else
    /// `--preset` or the config's) and the SoundFont, the NSM session's client name, every line it logs on
    /// standard error and in `logFile` (`--log`).
    static func makeEngine(_ arguments: EngineArguments, options: EngineOptions, config: Config, nsm: NSMSession?,
                           logFile: LogFile?) -> Engine {
        let preset = nsm?.state?.synth ?? arguments.loadPreset(fallback: config.engine.preset)
        var options = options.applying(preset)
        options.soundFont = arguments.loadSoundFont(fallback: preset?.soundFonts ?? config.engine.soundFonts,
                                                    sampleCacheFallback: config.engine.sampleCache,
                                                    instrumentFallback: preset?.instruments ?? config.engine.instruments)
        nsm?.adjust(&options)
        let engine = Engine(options: options, log: { line in
            Console.info(line)
            logFile?.write(line)
        })
        preset?.apply(to: engine)
        // The command line's interpolation wins over the preset's.
        if let asked = arguments.sound.interpolation { engine.synth.setInterpolation(asked) }
        return engine
    }

    /// The SFZ instruments a run plays (`--instrument`, else the NSM session's or preset's, else the config's),
    /// for the NSM session to save.
    static func instruments(_ arguments: EngineArguments, config: Config, nsm: NSMSession?) -> [String] {
        let preset = nsm?.state?.synth ?? (arguments.sound.instrument.isEmpty ? arguments.loadPreset(fallback: config.engine.preset) : nil)
        return arguments.instruments(fallback: preset?.instruments ?? config.engine.instruments)
    }

    /// Before the engine starts: recording targets that cannot be written end Backbeat with a message naming
    /// the file and the reason (exit 2), before anything plays. The audio file is opened here.
    /// Checks the recording targets, starts the engine (a clear error and exit 2 if it cannot, recorders
    /// stopped first), then starts the demo and the recorders: the same for headless and the workstation.
    static func start(_ arguments: EngineArguments, engine: Engine, capture: CaptureController) {
        capture.takeOptions = arguments.takeOptions
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
    /// recorders, then every file is written completely. Throws exit code 1 when a recording could not be
    /// written completely where it was asked to go (its line says what was kept and where).
    static func finish(engine: Engine, capture: CaptureController, drain: () -> Void) throws {
        if engine.demo.isPlaying {
            engine.demo.stop()
            Thread.sleep(forTimeInterval: 0.1)
        }
        drain()
        let stopped = capture.stopAll()
        for line in stopped.lines { Console.info(line) }
        if stopped.incomplete { throw ExitCode(1) }
    }
}
