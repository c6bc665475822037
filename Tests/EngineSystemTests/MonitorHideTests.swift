import Bench
import Foundation
import Testing

/// `backbeat monitor --hide`: a real JACK MIDI sender (the probe client) plays clock, active sensing, notes,
/// controllers and a stop; the monitor prints what is not hidden and counts what is.
extension JACK {
@Suite struct MonitorHideTests {
    @Test func hiddenKindsAreNotPrintedButCounted() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        let sender = try ProbeMIDISender(server: server.name)
        defer { sender.close() }
        let monitor = try RunningProgram(backbeatExecutable(), ["monitor", "--json", "--hide", "clock,Active-Sensing", "--hide", "cc",
                                                                "--server", server.name, "--no-autoconnect", "--connect-midi", "\(sender.name):out"],
                                         server: server.name)
        try monitor.waitForLine(containing: "ready:")
        // 24 clock ticks and 4 active sensings among two notes, two controllers and a program change; stop last.
        var events: [ProbeEvent] = (0..<24).map { ProbeEvent(frame: 500 * $0, bytes: [0xF8]) }
        events += (0..<4).map { ProbeEvent(frame: 3_000 * $0 + 250, bytes: [0xFE]) }
        events += [.noteOn(1_000, 60), .cc(2_000, 7, 100), .noteOff(6_000, 60), .cc(7_000, 10, 64),
                   .init(frame: 8_000, bytes: [0xC0, 5]), .init(frame: 13_000, bytes: [0xFC])]
        // The connection made before "ready:" reaches the server's process graph a cycle or two later: the
        // first event goes 4096 frames in, so none is sent before the monitor's port is in the graph.
        let leadIn = 4_096
        sender.play(events.map { var event = $0; event.frame += leadIn; return event })
        try monitor.waitForLine(containing: "\"type\":\"stop\"")
        monitor.signal(SIGTERM)
        #expect(try monitor.waitForExit() == 0)
        let printed = monitor.output.filter { $0.hasPrefix("{") }
        let types = printed.compactMap { line in line.components(separatedBy: "\"type\":\"").dropFirst().first?.prefix { $0 != "\"" } }.map(String.init)
        #expect(types == ["note-on", "note-off", "program-change", "stop"], "\(monitor.output)")
        // 24 + 4 + 2 hidden of 34 received.
        #expect(monitor.output.contains { $0.contains("34 messages (30 hidden: clock,active-sensing,cc)") }, "\(monitor.output)")
    }
}
}
