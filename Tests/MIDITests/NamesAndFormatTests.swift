import Testing
@testable import MIDI
import TextOutput

@Suite struct NameTests {
    @Test(arguments: [(UInt8(60), "C4"), (0, "C-1"), (127, "G9"), (61, "C#4"), (69, "A4"), (59, "B3"), (12, "C0")])
    func noteNamesMiddleC4(_ note: UInt8, _ name: String) {
        #expect(NoteName.name(of: note) == name)
    }

    @Test(arguments: [(UInt8(60), "C3"), (0, "C-2"), (127, "G8")])
    func noteNamesMiddleC3(_ note: UInt8, _ name: String) {
        #expect(NoteName.name(of: note, middleC: .c3) == name)
    }

    @Test func programNames() {
        #expect(GeneralMIDI.programNames.count == 128)
        #expect(Set(GeneralMIDI.programNames).count == 128)
        #expect(GeneralMIDI.programName(0) == "Acoustic Grand Piano")
        #expect(GeneralMIDI.programName(40) == "Violin")
        #expect(GeneralMIDI.programName(127) == "Gunshot")
    }

    @Test func controllerNames() {
        #expect(GeneralMIDI.controllerName(7) == "Channel Volume")
        #expect(GeneralMIDI.controllerName(64) == "Sustain Pedal")
        #expect(GeneralMIDI.controllerName(39) == "Channel Volume LSB")
        #expect(GeneralMIDI.controllerName(3) == nil)
        for cc in UInt8(120)...127 { #expect(GeneralMIDI.controllerName(cc) != nil) }
        #expect(GeneralMIDI.controllerName(123) == "All Notes Off")
    }
}

@Suite struct ParameterNumberTests {
    private func cc(_ c: UInt8, _ v: UInt8, ch: UInt8 = 0) -> ControlChange {
        ControlChange(channel: ch, controller: c, value: v)
    }

    @Test func rpnDataEntry() {
        var d = ParameterNumberDecoder()
        #expect(d.process(cc(101, 0)) == nil)
        #expect(d.process(cc(100, 0)) == nil)
        let msb = d.process(cc(6, 12))
        #expect(msb == ParameterChange(channel: 0, kind: .registered, parameter: 0, value: 12 << 7, source: .dataEntryMSB))
        let lsb = d.process(cc(38, 50))
        #expect(lsb?.value == UInt16(12 * 128 + 50))
        #expect(lsb?.source == .dataEntryLSB)
        #expect(GeneralMIDI.registeredParameterName(lsb!.parameter) == "Pitch Bend Sensitivity")
    }

    @Test func nrpnFourteenBitParameter() {
        var d = ParameterNumberDecoder()
        _ = d.process(cc(99, 0x12, ch: 3))
        _ = d.process(cc(98, 0x34, ch: 3))
        let change = d.process(cc(6, 0x7F, ch: 3))
        #expect(change?.kind == .nonRegistered)
        #expect(change?.parameter == UInt16(0x12 * 128 + 0x34))
        #expect(change?.channel == 3)
        #expect(d.process(cc(6, 1, ch: 4)) == nil)  // channels are independent
    }

    @Test func incrementDecrement() {
        var d = ParameterNumberDecoder()
        _ = d.process(cc(101, 0))
        _ = d.process(cc(100, 1))
        _ = d.process(cc(6, 0x40))
        #expect(d.process(cc(96, 0)) == ParameterChange(channel: 0, kind: .registered, parameter: 1, value: 0x2001, source: .increment))
        #expect(d.process(cc(97, 0))?.value == 0x2000)
        #expect(d.process(cc(97, 0))?.value == 0x1FFF)
        _ = d.process(cc(6, 0x7F)); _ = d.process(cc(38, 0x7F))
        #expect(d.process(cc(96, 0))?.value == 0x3FFF)  // clamped
        _ = d.process(cc(6, 0))
        #expect(d.process(cc(97, 0))?.value == 0)  // clamped
    }

    @Test func nullRPNDeselects() {
        var d = ParameterNumberDecoder()
        _ = d.process(cc(101, 0)); _ = d.process(cc(100, 0))
        #expect(d.process(cc(6, 2)) != nil)
        _ = d.process(cc(101, 127)); _ = d.process(cc(100, 127))
        #expect(d.process(cc(6, 2)) == nil)
        #expect(d.process(cc(96, 0)) == nil)
        #expect(d.process(cc(38, 2)) == nil)
    }

    @Test func nothingSelectedIgnoresDataEntry() {
        var d = ParameterNumberDecoder()
        #expect(d.process(.controlChange(cc(6, 2))) == nil)
        #expect(d.process(.noteOn(NoteOn(channel: 0, note: 1, velocity: 1))) == nil)
    }
}

@Suite struct FormatTests {
    @Test func jsonFields() {
        #expect(MIDIMessage.noteOn(NoteOn(channel: 0, note: 60, velocity: 100)).json
                == #"{"type":"note-on","channel":1,"note":60,"velocity":100}"#)
        #expect(MIDIMessage.pitchBend(PitchBend(channel: 15, bend: -8192)).json
                == #"{"type":"pitch-bend","channel":16,"bend":-8192}"#)
        #expect(MIDIMessage.systemExclusive(SystemExclusive(data: [0x7E, 0x01], isTerminated: false)).json
                == #"{"type":"sysex","data":"7E01","terminated":false,"truncated":false}"#)
        #expect(MIDIMessage.mtcQuarterFrame(MTCQuarterFrame(dataByte: 0x35)).json == #"{"type":"mtc-quarter-frame","frame":53}"#)
        #expect(MIDIMessage.timingClock.json == #"{"type":"clock"}"#)
        #expect(MIDIMessage.systemReset.json == #"{"type":"reset"}"#)
        #expect(JSONText.summary(messages: 3, errors: 1) == #"{"type":"summary","messages":3,"errors":1}"#)
    }

    @Test func jsonEscaping() {
        #expect(JSONText.quote("a\"b\\c\n\u{01}é") == #""a\"b\\c\n\u0001é""#)
        #expect(JSONText.object([("k", .double(0.5)), ("b", .bool(true))]) == #"{"k":0.5,"b":true}"#)
    }

    @Test func monitorLine() {
        let f = MonitorFormatter()
        let line = f.line(.noteOn(NoteOn(channel: 0, note: 60, velocity: 100)), index: 1)
        #expect(line.hasPrefix("     1  Note On"))
        #expect(line.contains("ch 1 "))
        #expect(line.contains("C4 (60) velocity 100"))
        #expect(line.hasSuffix("90 3C 64"))
        #expect(f.line(.controlChange(ControlChange(channel: 9, controller: 7, value: 100))).contains("7 Channel Volume = 100"))
        #expect(f.typeName(.controlChange(ControlChange(channel: 0, controller: 123, value: 0))) == "Channel Mode")
        #expect(f.details(.programChange(ProgramChange(channel: 0, program: 0))) == "0 Acoustic Grand Piano")
        #expect(MonitorFormatter(middleC: .c3).details(.noteOff(NoteOff(channel: 0, note: 60, velocity: 0))).hasPrefix("C3"))
        let long = MIDIMessage.systemExclusive(SystemExclusive(data: [UInt8](repeating: 1, count: 20)))
        #expect(MonitorFormatter(maxRawBytes: 4).rawHex(long) == "F0 01 01 01 ...")
        #expect(f.channelText(.start) == "")
    }

    /// `String(cFormat:)` (TextOutput) prints what C's printf prints, as Foundation's `String(format:)` does on
    /// Linux: the render's summary lines go through it.
    @Test func cFormatPrintsAsPrintf() {
        #expect(String(cFormat: "%.2f s of stereo", 10.056) == "10.06 s of stereo")
        #expect(String(cFormat: "%.1f", -0.25) == "-0.2", "printf rounds the binary value half to even")
        #expect(String(cFormat: "%.0f ms", 0.4) == "0 ms")
        #expect(String(cFormat: "%.1f MB in memory, --sample-cache %ld MiB", 12.34, 256) == "12.3 MB in memory, --sample-cache 256 MiB")
        // Longer than the first pass's 128 bytes: printed whole by the second.
        let long = String(cFormat: "%300.3f|", 1.5)
        #expect(long.count == 301)
        #expect(long.hasSuffix("1.500|"))
    }
}
