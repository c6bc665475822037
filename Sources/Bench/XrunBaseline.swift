import Foundation

/// The xruns a server has without any synth: beside the xrun sweep they tell the machine's share (a late
/// timer wake-up) from the synth's. Counted by the same portless watcher the sweep uses.
public enum XrunBaseline {
    /// Xruns of `server` with no client but the watcher, over `duration`.
    public static func idle(server: String, duration: Duration) throws -> Int {
        try count(server: server, duration: duration)
    }

    /// Xruns of `server` while `jack_midisine` (a client that does next to nothing) runs, over `duration`;
    /// nil when it is not installed.
    public static func midisine(server: String, duration: Duration) throws -> Int? {
        guard let midisine = try ReferenceClient.start(["jack_midisine"], server: server, waitingFor: "midisine:midi_in") else {
            return nil
        }
        defer { midisine.stop() }
        return try count(server: server, duration: duration)
    }

    static func count(server: String, duration: Duration) throws -> Int {
        let watcher = try LoadWatcher(server: server)
        defer { watcher.close() }
        let milliseconds = Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
        usleepMilliseconds(milliseconds)  // the watching window itself
        return watcher.xruns.load(ordering: .relaxed)
    }
}
