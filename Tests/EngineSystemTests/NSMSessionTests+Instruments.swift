import Foundation
import NSM
import Testing

/// Issue 38: an NSM session keeps the SFZ instruments a run plays (`instruments` in its synth.toml, paths
/// made absolute) and the next run of the session plays them without `--instrument`.
extension JACK {
@Suite struct NSMSessionInstrumentTests {
    @Test func instrumentsAreSavedAndComeBack() throws {
        let temporary = try makeTemporaryDirectory("backbeat-nsm-sfz")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let server = try JackTestServer()
        defer { server.stop() }
        let instrument = temporary.appendingPathComponent("tone.sfz").path
        try "<region> sample=*sine\n".write(toFile: instrument, atomically: true, encoding: .utf8)
        let instance = temporary.appendingPathComponent("session/Backbeat.nSFZ").path

        func session(_ arguments: [String]) throws -> String {
            let nsm = try TestNSMServer()
            let run = try RunningProgram(backbeatExecutable(), ["--headless"] + arguments, server: server.name, environment: ["NSM_URL": nsm.url])
            defer { if run.process.isRunning { run.signal(SIGTERM); _ = try? run.waitForExit() } }
            #expect(try nsm.receive().path == "/nsm/server/announce")
            try nsm.send(OSCMessage("/nsm/client/open", [.string(instance), .string("Backbeat"), .string("Backbeat.nSFZ")]))
            #expect(try nsm.receive() == OSCMessage("/reply", [.string("/nsm/client/open"), .string("OK")]))
            try nsm.send(OSCMessage("/nsm/client/save"))
            #expect(try nsm.receive() == OSCMessage("/reply", [.string("/nsm/client/save"), .string("OK")]))
            return try String(contentsOfFile: instance + "/synth.toml", encoding: .utf8)
        }
        let saved = try session(["--instrument", "2=" + instrument])
        #expect(saved.contains("instruments = [\"2=\(instrument)\"]"), "\(saved)")
        // No --instrument: the session's own come back, and are saved again.
        let again = try session([])
        #expect(again.contains("instruments = [\"2=\(instrument)\"]"), "\(again)")
    }
}
}
