import Bench
import Engine
import Foundation
import Testing

/// Backbeat's `midi_out` heard by JACK's own `jack_midi_dump`: the demo's notes arrive; with `--midi-thru`
/// notes `jack_midiseq` sends to `midi_in` come out too, without it they do not.
extension JACK {
@Suite struct MIDIOutThroughJackTests {
    /// One message as `jack_midi_dump` prints it ("   0: 90 4a 60 note on  (channel  0): ..."): the hex bytes
    /// after the time and its colon, up to the description.
    static func message(in line: String) -> [UInt8]? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        var bytes: [UInt8] = []
        for token in line[line.index(after: colon)...].split(separator: " ") {
            guard token.count == 2, let byte = UInt8(token, radix: 16) else { break }
            bytes.append(byte)
        }
        return bytes.first.map { $0 >= 0x80 } == true ? bytes : nil
    }

    /// Note-ons (status 9n, velocity > 0) among the dump's lines: (channel, note).
    static func noteOns(_ lines: [String]) -> [(channel: UInt8, note: UInt8)] {
        lines.compactMap(message).compactMap { m in
            m.count >= 3 && m[0] & 0xF0 == 0x90 && m[2] > 0 ? (m[0] & 0x0F, m[1]) : nil
        }
    }

    /// A private server, `jack_midi_dump` (line-buffered, so each message is a line as it arrives), Backbeat
    /// headless with `extra`, and `backbeat:midi_out` connected to the dump.
    final class Rig {
        let server: JackTestServer
        let dump: RunningProgram
        let backbeat: RunningProgram
        var sequencer: RunningProgram?

        init(extra: [String], sequencerNote: Int? = nil) throws {
            server = try JackTestServer()
            dump = try RunningProgram("/usr/bin/stdbuf", ["-oL", "/usr/bin/jack_midi_dump", "dump"], server: server.name)
            try server.waitForPort("dump:input")
            var arguments = ["--headless", "--server", server.name, "--no-autoconnect"] + extra
            if let note = sequencerNote {
                // A note every 4800 frames (0.1 s), so some arrive after Backbeat has connected.
                let sequencer = try RunningProgram("/usr/bin/jack_midiseq", ["seq", "4800", "0", String(note), "2400"], server: server.name)
                self.sequencer = sequencer
                try server.waitForPort("seq:out")
                arguments += ["--connect-midi", "seq:out"]
            }
            backbeat = try RunningProgram(backbeatExecutable(), arguments, server: server.name)
            try backbeat.waitForLine(containing: "ready:")
            let connected = try run("/usr/bin/jack_connect", ["backbeat:midi_out", "dump:input"], server: server.name)
            guard connected.status == 0 else { throw HarnessError("jack_connect backbeat:midi_out dump:input: \(connected.output)") }
        }

        /// Waits until the dump has printed `count` note-ons matching `matching` (each new line is the signal to
        /// look again); returns all its lines.
        func waitForNoteOns(_ count: Int, timeout: TimeInterval = 15, matching: (UInt8, UInt8) -> Bool) throws -> [String] {
            while true {
                let lines = dump.output
                if MIDIOutThroughJackTests.noteOns(lines).filter({ matching($0.channel, $0.note) }).count >= count { return lines }
                try dump.waitForLine(containing: ":", after: lines.count, timeout: timeout)  // every dump line has one
            }
        }

        deinit {
            backbeat.signal(SIGTERM)
            _ = try? backbeat.waitForExit()
            sequencer?.signal(SIGTERM)
            _ = try? sequencer?.waitForExit()
            dump.signal(SIGTERM)
            _ = try? dump.waitForExit()
            server.stop()
        }
    }

    static let demoNotes = Set(DemoSequencer.pattern.map { [$0.channel, $0.note] })

    @Test func demoNotesArriveOnMidiOut() throws {
        let rig = try Rig(extra: ["--demo"])
        let lines = try rig.waitForNoteOns(8) { channel, note in Self.demoNotes.contains([channel, note]) }
        let notes = Self.noteOns(lines)
        #expect(notes.count >= 8, "note-ons on midi_out: \(notes)")
        for (channel, note) in notes {
            #expect(Self.demoNotes.contains([channel, note]), "note \(note) on channel \(channel + 1) is not the demo's")
        }
        // The demo's MIDI clock goes out too.
        #expect(lines.compactMap(Self.message).contains([0xF8]), "no clock on midi_out: \(lines.prefix(20))")
    }

    /// Note 13 (C#0): the demo never plays it.
    static let thruNote: UInt8 = 13

    @Test func midiThruForwardsMidiIn() throws {
        let rig = try Rig(extra: ["--midi-thru"], sequencerNote: Int(Self.thruNote))
        let lines = try rig.waitForNoteOns(3) { _, note in note == Self.thruNote }
        #expect(Self.noteOns(lines).filter { $0.note == Self.thruNote }.count >= 3)
    }

    @Test func withoutMidiThruMidiInStaysIn() throws {
        // The demo runs as well, so something flows on midi_out while the sequencer plays into midi_in: the
        // dump prints in the order Backbeat wrote, so once it has printed 30 demo notes (more than a second's
        // worth), a forwarded note (ten a second) would have been among them.
        let rig = try Rig(extra: ["--demo"], sequencerNote: Int(Self.thruNote))
        let lines = try rig.waitForNoteOns(30) { channel, note in Self.demoNotes.contains([channel, note]) }
        #expect(!Self.noteOns(lines).contains { $0.note == Self.thruNote }, "midi_in's note came out without --midi-thru")
        // The sequencer was playing into midi_in all along.
        #expect(try rig.server.connections().contains("seq:out\n   backbeat:midi_in"))
    }

    @Test func monitorJSONShowsOutgoingAsSourceOut() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        let sender = try ProbeMIDISender(server: server.name)
        defer { sender.close() }
        let monitor = try RunningProgram(backbeatExecutable(), ["monitor", "--json", "--midi-thru", "--server", server.name,
                                                                "--no-autoconnect", "--connect-midi", "\(sender.name):out"], server: server.name)
        defer { monitor.signal(SIGTERM) }
        try monitor.waitForLine(containing: "ready:")
        sender.play([.noteOn(100, 60, 100)])
        let incoming = try monitor.waitForLine(containing: "\"source\":\"jack\"")
        let outgoing = try monitor.waitForLine(containing: "\"source\":\"out\"")
        #expect(outgoing.hasPrefix("{\"type\":\"note-on\",\"channel\":1,\"note\":60,\"velocity\":100,"), "\(outgoing)")
        // The same frame: forwarded in the period it arrived, at its offset.
        func frame(_ line: String) -> Substring? {
            line.range(of: "\"frame\":").map { line[$0.upperBound...].prefix { $0.isNumber } }
        }
        #expect(frame(incoming) != nil && frame(incoming) == frame(outgoing), "\(incoming) / \(outgoing)")
    }
}
}
