import Foundation
import NSM
import Testing

/// Backbeat as an NSM client, end to end: a small NSM server written in the test (TestNSMServer, on
/// 127.0.0.1) and `backbeat --headless` on a private `jackd -d dummy`.
extension JACK {
@Suite struct NSMSessionTests {
    /// A folder of this test's own (TestSupport).
    let temporary: URL

    init() throws { temporary = try makeTemporaryDirectory("backbeat-nsm-it") }

    /// Announce, open (the client id becomes the JACK client name), save (the state files), then a second
    /// run that opens the saved state: the preset's value, its channel mixer (applied to the engine at start,
    /// read back from it at each save) and an edited connection come back.
    @Test func announceOpenSaveAndRestore() throws {
        defer { try? FileManager.default.removeItem(at: temporary) }
        let server = try JackTestServer()
        defer { server.stop() }
        let preset = temporary.appendingPathComponent("lead.toml").path
        let volume = "mixer_volume_db = [0, -6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12]"
        try "patch = 1\ncutoff = 1234.0\nmixer_mute = [3]\nmixer_solo = [2, 10]\n\(volume)\n".write(toFile: preset, atomically: true, encoding: .utf8)
        let instance = temporary.appendingPathComponent("session/Backbeat.nBKBT").path
        let clientID = "Backbeat.nBKBT"

        // First run: a new session (no state yet), the synth from --preset, autoconnected outputs.
        let nsm = try TestNSMServer()
        let first = try RunningProgram(backbeatExecutable(), ["--headless", "--preset", preset], server: server.name,
                                       environment: ["NSM_URL": nsm.url])
        let announce = try nsm.receive()
        #expect(announce == OSCMessage("/nsm/server/announce", [.string("Backbeat"), .string(":"), .string("backbeat"),
                                                                .int32(1), .int32(2), .int32(first.process.processIdentifier)]))
        // Its one UDP socket is bound to loopback (127.0.0.1 is 0100007F in the kernel's table).
        let sockets = udpSockets(of: first.process.processIdentifier)
        #expect(sockets.count == 1 && sockets[0].hasPrefix("0100007F:"), "\(sockets)")
        try nsm.send(OSCMessage("/reply", [.string("/nsm/server/announce"), .string("hi"), .string("test-nsm"), .string(":")]))
        try nsm.send(OSCMessage("/nsm/client/open", [.string(instance), .string("Backbeat"), .string(clientID)]))
        #expect(try nsm.receive() == OSCMessage("/reply", [.string("/nsm/client/open"), .string("OK")]))
        let ports = try run("/usr/bin/jack_lsp", [], server: server.name).output
        #expect(ports.contains("\(clientID):out_L") && ports.contains("\(clientID):midi_in"), "\(ports)")

        try nsm.send(OSCMessage("/nsm/client/save"))
        #expect(try nsm.receive() == OSCMessage("/reply", [.string("/nsm/client/save"), .string("OK")]))
        let synth = try String(contentsOfFile: instance + "/synth.toml", encoding: .utf8)
        #expect(synth.contains("patch = 1 ") && synth.contains("cutoff = 1234.0 "), "\(synth)")
        #expect(synth.contains("mixer_mute = [3]\nmixer_solo = [2, 10]\n\(volume)\n"), "the mixer as the engine has it: \(synth)")
        let session = try String(contentsOfFile: instance + "/session.toml", encoding: .utf8)
        #expect(session.contains("out_L = [\"system:playback_1\"]") && session.contains("out_R = [\"system:playback_2\"]"), "\(session)")
        first.signal(SIGTERM)
        #expect(try first.waitForExit() == 0)

        // Second run, no --preset: the state is what counts. Its outputs were swapped in the file.
        let swapped = session.replacingOccurrences(of: "out_L = [\"system:playback_1\"]", with: "out_L = [\"system:playback_2\"]")
            .replacingOccurrences(of: "out_R = [\"system:playback_2\"]", with: "out_R = []")
        try swapped.write(toFile: instance + "/session.toml", atomically: true, encoding: .utf8)
        let nsm2 = try TestNSMServer()
        let second = try RunningProgram(backbeatExecutable(), ["--headless"], server: server.name, environment: ["NSM_URL": nsm2.url])
        defer { if second.process.isRunning { second.signal(SIGTERM); _ = try? second.waitForExit() } }
        #expect(try nsm2.receive().path == "/nsm/server/announce")
        try nsm2.send(OSCMessage("/nsm/client/open", [.string(instance), .string("Backbeat"), .string(clientID)]))
        #expect(try nsm2.receive() == OSCMessage("/reply", [.string("/nsm/client/open"), .string("OK")]))
        let connections = try server.connections()
        #expect(connections.contains("\(clientID):out_L\n   system:playback_2\n"), "\(connections)")
        #expect(!connections.contains("\(clientID):out_R\n   system:playback"), "restored, not autoconnected: \(connections)")
        try nsm2.send(OSCMessage("/nsm/client/save"))
        #expect(try nsm2.receive() == OSCMessage("/reply", [.string("/nsm/client/save"), .string("OK")]))
        let resaved = try String(contentsOfFile: instance + "/synth.toml", encoding: .utf8)
        #expect(resaved.contains("patch = 1 ") && resaved.contains("cutoff = 1234.0 "), "the synth came back from the state: \(resaved)")
        #expect(resaved.contains("mixer_mute = [3]\nmixer_solo = [2, 10]\n\(volume)\n"), "so did the mixer: \(resaved)")
        second.signal(SIGTERM)
        #expect(try second.waitForExit() == 0)
    }

    /// Issue 27: an NSM server's name and error text reached the terminal raw. They are shown as visible
    /// escapes (the server refuses Backbeat after greeting it: exit 2).
    @Test func aHostileServersWordsReachTheTerminalEscaped() throws {
        let nsm = try TestNSMServer()
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless"], server: nil, environment: ["NSM_URL": nsm.url])
        #expect(try nsm.receive().path == "/nsm/server/announce")
        try nsm.send(OSCMessage("/reply", [.string("/nsm/server/announce"), .string("hi\u{1B}[2J"), .string("evil\u{1B}]0;owned\u{07}"), .string(":")]))
        try nsm.send(OSCMessage("/error", [.string("/nsm/server/announce"), .int32(-1), .string("no\u{1B}[31m \u{9B}way\u{202E}")]))
        #expect(try backbeat.waitForExit() == 2)
        let output = backbeat.output.joined(separator: "\n")
        #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" || $0 == "\u{202E}" }, "\(output)")
        #expect(output.contains("NSM server evil\\x1B]0;owned\\x07 at \(nsm.url): hi\\x1B[2J"), "\(output)")
        #expect(output.contains("refused Backbeat (error -1): no\\x1B[31m \\x9Bway\\u{202E}"), "\(output)")
    }

    /// Without NSM_URL (the test runner has none; an empty one counts as unset) Backbeat opens no UDP socket.
    @Test func noUDPSocketWithoutNSMURL() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--no-autoconnect"], server: server.name, environment: ["NSM_URL": ""])
        try backbeat.waitForLine(containing: "ready:")
        #expect(udpSockets(of: backbeat.process.processIdentifier).isEmpty)
        #expect(!backbeat.output.contains { $0.contains("NSM") })
        backbeat.signal(SIGTERM)
        #expect(try backbeat.waitForExit() == 0)
    }
}
}
