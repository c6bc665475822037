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

    init(rate: Int = 48_000, period: Int = 256) throws {
        name = "bbtest-\(checkoutTag)"
        self.rate = rate
        self.period = period
        process = try Self.startJackd(name: name, rate: rate, period: period)
        try waitUntilUp()
    }

    static func startJackd(name: String, rate: Int, period: Int) throws -> Process {
        let process = Process()
        // Through setpriv --pdeathsig: a crashed test process must not leave servers behind (jack2 allows
        // only a few at once). The spawning thread runs the (synchronous) test until it stops the server.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", "--", "/usr/bin/jackd", "-n", name, "-d", "dummy", "-r", String(rate), "-p", String(period)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// jackd has no readiness signal: a `jack_lsp` that succeeds is the signal.
    func waitUntilUp(timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? run("/usr/bin/jack_lsp", [], server: name).status) == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw HarnessError("jackd '\(name)' did not come up in \(timeout) s")
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    /// Ports of the server and what each connects to (`jack_lsp -c`).
    func connections() throws -> String { try run("/usr/bin/jack_lsp", ["-c"], server: name).output }
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

/// A mono WAV file read into floats (PCM 16/24/32-bit or IEEE float 32), as jack_rec writes them.
struct WAVRecording {
    var sampleRate: Int
    var channels: [[Float]]

    init(path: String) throws {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 | Int(data[at + 2]) << 16 | Int(data[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        guard data.count >= 12, data[0..<4].elementsEqual("RIFF".utf8), data[8..<12].elementsEqual("WAVE".utf8) else {
            throw HarnessError("\(path): not a RIFF/WAVE file")
        }
        var offset = 12
        var format = 0, channelCount = 0, rate = 0, bits = 0
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<offset + 4], as: UTF8.self)
            var size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                format = u16(body); channelCount = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
                if format == 0xFFFE { format = u16(body + 24) }
            } else if id == "data" {
                if size == 0 || body + size > data.count { size = data.count - body }  // jack_rec killed early
                let bytesPerSample = bits / 8
                let frames = size / (bytesPerSample * max(channelCount, 1))
                var channels = Array(repeating: [Float](repeating: 0, count: frames), count: channelCount)
                for frame in 0..<frames {
                    for channel in 0..<channelCount {
                        let at = body + (frame * channelCount + channel) * bytesPerSample
                        let value: Float
                        switch (format, bits) {
                        case (3, 32): value = Float(bitPattern: UInt32(u32(at)))
                        case (1, 16): value = Float(Int16(bitPattern: UInt16(u16(at)))) / 32768
                        case (1, 24): value = Float(Int32(bitPattern: UInt32(u32(at - 1) & ~0xFF)) >> 8) / 8_388_608
                        case (1, 32): value = Float(Int32(bitPattern: UInt32(u32(at)))) / 2_147_483_648
                        default: throw HarnessError("\(path): unsupported WAV format \(format)/\(bits) bits")
                        }
                        channels[channel][frame] = value
                    }
                }
                sampleRate = rate
                self.channels = channels
                return
            }
            offset = body + size + (size & 1)
        }
        throw HarnessError("\(path): no data chunk")
    }
}
