import Bench
import Foundation

/// `backbeat --headless --scenario FILE` on a private jackd, its MIDI from a probe sender and its audio into a
/// probe recorder that is already recording. `close()` stops them all (call it in a `defer`, which also keeps
/// this object alive to the end of the test).
final class HeadlessScenarioRun {
    let server: JackTestServer
    let sender: ProbeMIDISender
    let recorder: ProbeRecorder
    let backbeat: RunningProgram

    init(scenario file: String, recordSeconds: Double = 10, arguments: [String] = []) throws {
        server = try JackTestServer()
        sender = try ProbeMIDISender(server: server.name)
        recorder = try ProbeRecorder(server: server.name, seconds: recordSeconds)
        recorder.start()
        backbeat = try RunningProgram(backbeatExecutable(), [
            "--headless", "--scenario", file, "--server", server.name, "--connect-midi", "\(sender.name):out",
            "--connect-audio", "\(recorder.name):in_L", "--connect-audio", "\(recorder.name):in_R",
        ] + arguments, server: server.name)
    }

    func close() {
        recorder.close()
        sender.close()
        server.stop()
    }
}
