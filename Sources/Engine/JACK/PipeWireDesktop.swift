import Foundation
import Glibc

/// A PipeWire daemon of this user's, seen before Backbeat starts a private `jackd`: on a desktop that runs
/// PipeWire, the sound card and every other program's audio are PipeWire's, so a private jackd would play to
/// nobody (its ALSA driver finds the card busy; its dummy driver plays nowhere). Backbeat then stops and
/// says how to join PipeWire's graph: `pw-jack backbeat`, which runs it on PipeWire's own libjack
/// (Debian package pipewire-jack). Under `pw-jack` every JACK client reaches PipeWire, so this check only
/// ever sees jack2's libjack with no JACK server running. `BACKBEAT_IGNORE_PIPEWIRE=1` starts the private
/// server anyway (a second, separate graph: for tests, or a sound card PipeWire does not use).
public enum PipeWireDesktop {
    /// The environment variable that lets a private jackd start while PipeWire runs.
    public static let overrideVariable = "BACKBEAT_IGNORE_PIPEWIRE"

    /// The PipeWire socket that accepts a connection now, as PipeWire's own clients look for it:
    /// `$PIPEWIRE_REMOTE` (a name, or an absolute path) or `pipewire-0`, in `$PIPEWIRE_RUNTIME_DIR`, else
    /// `$XDG_RUNTIME_DIR`, else `/run/user/UID`. A socket file left by a daemon that died accepts nothing
    /// and does not count.
    public static func runningSocket(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let remote = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        var candidates: [String] = []
        if remote.hasPrefix("/") {
            candidates = [remote]
        } else {
            for key in ["PIPEWIRE_RUNTIME_DIR", "XDG_RUNTIME_DIR"] {
                if let dir = environment[key], !dir.isEmpty { candidates.append(dir + "/" + remote); break }
            }
            candidates.append("/run/user/\(getuid())/" + remote)
        }
        return candidates.first(where: accepts)
    }

    /// The libjack this process runs on (from /proc/self/maps), or nil when none is loaded.
    public static func libjackPath() -> String? {
        // Read line by line: /proc files report a size of 0, which whole-file readers take at its word.
        guard let file = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(file) }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) > 0, let buffer {
            let line = String(cString: buffer).trimmingCharacters(in: .newlines)
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            if path.split(separator: "/").last?.hasPrefix("libjack.so") == true { return path }
        }
        return nil
    }

    /// True when `path` is PipeWire's libjack (pw-jack puts its folder, .../pipewire-0.3/jack, first).
    public static func isPipeWireLibjack(_ path: String) -> Bool { path.contains("pipewire") }

    /// The reason not to start a private jackd, or nil: PipeWire runs, this process's libjack is not
    /// PipeWire's, and `BACKBEAT_IGNORE_PIPEWIRE` is not set to 1.
    public static func refusal(environment: [String: String] = ProcessInfo.processInfo.environment) -> PipeWireRunning? {
        if let override = environment[overrideVariable], override == "1" { return nil }
        guard let socket = runningSocket(environment: environment) else { return nil }
        let libjack = libjackPath()
        if let libjack, isPipeWireLibjack(libjack) { return nil }
        return PipeWireRunning(socket: socket, libjack: libjack ?? "libjack.so.0")
    }

    private static func accepts(_ path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }
}

/// Backbeat would start a private jackd while PipeWire runs: what to do instead.
public struct PipeWireRunning: Error, CustomStringConvertible, Equatable {
    /// PipeWire's socket that accepted a connection.
    public var socket: String
    /// The libjack Backbeat runs on (jack2's).
    public var libjack: String

    public var description: String {
        "PipeWire is running (\(socket)) and no JACK server is: Backbeat runs on jack2's libjack (\(libjack)), "
            + "which cannot reach PipeWire, and a private jackd would play to nobody. Join PipeWire's graph with "
            + "`pw-jack backbeat` (same options; Debian package pipewire-jack), or set \(PipeWireDesktop.overrideVariable)=1 "
            + "to start a private JACK server anyway."
    }
}
