import Foundation
import Testing

/// The ALSA sequencer options with the JACK driver (default): a missing sequencer stops Backbeat before any
/// JACK server starts when it is required, and is one status field when it is optional.
extension JACK {
@Suite struct ALSAWithJACKTests {
    static let noSequencer = !FileManager.default.fileExists(atPath: "/dev/snd/seq")

    @Test(.enabled(if: noSequencer, "this machine has /dev/snd/seq"))
    func requiredSequencerMissingStartsNoServer() throws {
        let name = "bbalsa-never-\(getpid())"
        let result = try run(backbeatExecutable(), ["--headless", "--midi", "both", "--server", name])
        #expect(result.status == 2)
        #expect(result.output.contains("cannot open the ALSA sequencer /dev/snd/seq: No such file or directory"), "\(result.output)")
        #expect(!result.output.contains("started a private JACK server"), "\(result.output)")
        #expect(!(try jackdRunning(name)), "a JACK server was left behind")
    }

    @Test(.enabled(if: noSequencer, "this machine has /dev/snd/seq"))
    func autoWithJACKShowsTheServerAndWhyThereIsNoALSAMIDI() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        let backbeat = try RunningProgram(backbeatExecutable(), ["--headless", "--server", server.name], server: nil)
        let line = try backbeat.waitForLine(containing: "| xruns")
        #expect(line.hasPrefix("server \(server.name)"), "\(line)")
        #expect(line.contains("| ALSA MIDI unavailable: cannot open the ALSA sequencer /dev/snd/seq"), "\(line)")
        backbeat.signal(SIGTERM)
        #expect(try backbeat.waitForExit() == 0)
    }
}
}
