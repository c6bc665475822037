import Engine
import Foundation
import NSM
import Settings

/// Backbeat as an NSM client (RaySession, New Session Manager, Agordejo), only when `NSM_URL` is set:
/// announce before the engine starts, wait (at most 5 s) for the server's `open`, take the client id as the
/// JACK client name, load the state from the instance path, and answer `save` while running. Without
/// `NSM_URL` nothing here runs and no socket is opened.
struct NSMSession {
    static let openTimeoutSeconds = 5
    let client: NSMClient
    let open: NSMOpen
    let state: SessionState?

    /// Joins the session `NSM_URL` names, or nil when it is unset or empty. Any failure (a bad URL, no
    /// answer, a state file that cannot be read) ends Backbeat with a message naming it (exit 2).
    /// A quit signal (when `signals` are installed) during the wait ends Backbeat at once (exit 0).
    static func join(environment: [String: String] = ProcessInfo.processInfo.environment, signals: QuitSignals? = nil) -> NSMSession? {
        guard let url = environment["NSM_URL"], !url.isEmpty else { return nil }
        let client: NSMClient
        let open: NSMOpen
        do {
            client = try NSMClient(url: url)
            let executable = CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "backbeat"
            client.announce(applicationName: "Backbeat", capabilities: ":", executable: executable, pid: getpid())
            Console.info("NSM: announced to \(url) from \(client.localAddress)")
            guard let opened = try client.waitForOpen(seconds: openTimeoutSeconds, cancelled: { signals?.signal != nil }, log: { Console.info($0) }) else {
                Console.info("quitting (signal \(signals?.signal ?? 0)) before the session opened")
                exit(0)
            }
            open = opened
        } catch {
            Console.fail("\(error)")
        }
        Console.info("NSM: opening \(open.path) as client '\(open.clientID)'")
        do {
            return NSMSession(client: client, open: open, state: try SessionState.load(directory: open.path))
        } catch {
            client.error(to: "/nsm/client/open", code: -1, "\(error)")
            Console.fail("\(error)")
        }
    }

    /// The client id is the JACK client name; saved connections replace the automatic ones.
    func adjust(_ options: inout EngineOptions) {
        options.clientName = open.clientID
        if let state, !state.connections.isEmpty { options.autoconnect = false }
    }

    /// Once the engine runs: restores the saved connections (a port that is not there is reported, not
    /// fatal: its client may not have started yet), answers `open`, and serves `save` from then on. The
    /// saved synth preset names `instruments` (the SFZ instruments the run plays, their paths made absolute).
    func ready(engine: Engine, theme: String?, instruments: [String] = []) {
        let kept = instruments.isEmpty ? nil : instruments.map(Self.absolute)
        for port in SessionState.ports {
            for other in state?.connections[port] ?? [] {
                do { try engine.connect(port: port, with: other) } catch { Console.info("NSM: not restored: \(error)") }
            }
        }
        client.reply(to: "/nsm/client/open", "OK")
        let path = open.path
        client.serve {
            var synth = SynthPreset(engine.synthView())
            synth.mixer = PresetMixer(saving: engine.channelMixerSettings())  // the mixer as the user left it
            // The instruments the browser changed to since, each on its channel.
            var instruments = kept ?? []
            for (channel, file) in engine.liveInstruments() {
                instruments = InstrumentSetting.replacing(instruments, channel: channel, with: Self.absolute(file))
            }
            synth.instruments = instruments.isEmpty ? nil : instruments
            let state = SessionState(synth: synth, theme: theme, connections: engine.connections() ?? [:])
            do {
                try state.save(directory: path)
                Console.info("NSM: saved to \(path)")
                return nil
            } catch {
                Console.info("NSM: save failed: \(error)")
                return "\(error)"
            }
        }
    }

    /// "CH=FILE" or "FILE" with FILE taken from the working folder (a `~/` path stays: it is read so).
    static func absolute(_ entry: String) -> String {
        let (channel, file) = InstrumentSetting.split(entry)
        let path = file.hasPrefix("/") || file.hasPrefix("~/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        return channel.map { "\($0)=" + path } ?? path
    }
}
