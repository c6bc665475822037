@_exported import TestSupport
import Foundation
import Testing

/// Real components for integration tests: a private `jackd -d dummy` under a unique name, the built
/// `backbeat` binary, JACK's example clients (process running and the binary lookup are in Tests/TestSupport). Everything is stopped when the test ends.
final class JackTestServer {
    let name: String
    let process: Process
    let rate: Int
    let period: Int
    /// Where jackd writes its messages (standard output and error): `xruns` reads it.
    let log: URL

    init(rate: Int = 48_000, period: Int = 256) throws {
        name = "bbtest-\(checkoutTag)"
        self.rate = rate
        self.period = period
        log = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())-jackd.log")
        process = try Self.startJackd(name: name, rate: rate, period: period, log: log)
        try waitUntilUp()
    }

    /// Cycles in which a client had not finished in time, as jackd reports them ("JackEngine::XRun: client =
    /// backbeat was not finished"), since this server started. In such a cycle jack2 may start the next
    /// cycle while the late client still writes its ports, so a reader can see some of its ports from one
    /// cycle and some from the next.
    func xruns() -> Int {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").count { $0.contains("JackEngine::XRun") }
    }

    static func startJackd(name: String, rate: Int, period: Int, log: URL? = nil) throws -> Process {
        let process = Process()
        // Through setpriv --pdeathsig: a crashed test process must not leave servers behind (jack2 allows
        // only a few at once). The spawning thread runs the (synchronous) test until it stops the server.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", "--", "/usr/bin/jackd", "-n", name, "-d", "dummy", "-r", String(rate), "-p", String(period)]
        if let log, FileManager.default.createFile(atPath: log.path, contents: nil), let file = try? FileHandle(forWritingTo: log) {
            process.standardOutput = file
            process.standardError = file
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    /// jackd has no readiness signal: a `jack_lsp` that succeeds is the signal.
    func waitUntilUp(timeout: TimeInterval = 10) throws {
        guard waitUntil(timeout: timeout, { (try? run("/usr/bin/jack_lsp", [], server: name).status) == 0 }) else {
            throw HarnessError("jackd '\(name)' did not come up in \(timeout) s")
        }
    }

    /// A client's port has no signal either: waits until `jack_lsp` lists `port`.
    func waitForPort(_ port: String, timeout: TimeInterval = 10) throws {
        guard try waitUntil(timeout: timeout, { try connections(listing: false).split(separator: "\n").contains(Substring(port)) }) else {
            throw HarnessError("port \(port) did not appear in \(timeout) s")
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: log)
    }

    deinit { stop() }

    /// Ports of the server and what each connects to (`jack_lsp -c`).
    /// `jack_lsp`'s listing: the ports, and with `listing` each port's connections under it.
    func connections(listing: Bool = true) throws -> String { try run("/usr/bin/jack_lsp", listing ? ["-c"] : [], server: name).output }
}

/// Names of test servers: the same on every run from this checkout, different between checkouts.
/// jack2 has 8 server slots and frees the slot of a server that died without unregistering (a SIGKILL test)
/// only when a server of the same name starts: unique names per run would leak slots until none is left.
let checkoutTag: String = {
    var hash: UInt32 = 2_166_136_261
    for byte in #filePath.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    return String(hash, radix: 16)
}()

/// Whether a jackd named `name` runs (Backbeat's private server runs `jackd -R -n NAME`, tests' `jackd -n NAME`).
func jackdRunning(_ name: String) throws -> Bool {
    try run("/usr/bin/pgrep", ["-f", "jackd (-R )?-n \(name) "]).status == 0
}

