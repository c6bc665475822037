import Engine
import Foundation

/// `backbeat --headless`: the engine without the terminal UI, one status line a second until a quit signal.
enum Headless {
    static func run(_ arguments: EngineArguments, alsa: ALSAArguments) throws {
        let signals = QuitSignals.install()
        let engine = Engine(options: alsa.apply(to: arguments.engineOptions), log: { Console.info($0) })
        do {
            try engine.start()
        } catch {
            Console.fail("\(error)")
        }
        defer { engine.stop() }
        var tick = 0
        while signals.wait(timeout: .milliseconds(100)) == nil {
            engine.drainEvents { _ in }
            tick += 1
            if tick % 10 == 0 { Console.out(statusLine(engine.status())) }
        }
        Console.info("quitting (signal \(signals.signal ?? 0))")
    }

    static func statusLine(_ status: EngineStatus) -> String {
        let server = "\(status.server.name) (\(status.server.isPrivate ? "private, \(status.server.driver ?? "?")" : "external"))"
        guard status.connected else { return "server \(server): disconnected, waiting for it | xruns \(status.xruns)" }
        // ALSA: the PCM instead of the server with --driver alsa; the sequencer's line when asked for.
        let alsaMIDI = status.alsaMIDI.map { " | \($0)" } ?? ""
        return "\(status.alsaPCM ?? "server \(server)") | \(status.sampleRate) Hz | \(status.periodFrames) frames"
            + " | DSP \(String(format: "%.1f", status.jackLoad))% (callback \(String(format: "%.1f", status.callbackLoad * 100))%, max \(String(format: "%.1f", status.maxCallbackLoad * 100))%)"
            + " | xruns \(status.xruns) | voices \(status.voicesInUse)/\(status.voiceCapacity)"
            + " | MIDI \(status.midiReceived) received, \(status.midiLost) lost | drops \(status.ringDrops)" + alsaMIDI
    }
}

/// stdout for results, stderr for messages; flushed per line so pipes and tests see them at once.
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
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
