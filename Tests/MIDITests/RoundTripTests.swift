import Testing
import MIDI
@_exported import TestSupport

/// SplitMix64 (Tests/TestSupport), seeded so a failure can be replayed.
typealias SeededGenerator = SplitMix64

/// A random well-formed message: 7-bit data, channels 0...15, terminated sysex within the default limit.
func randomMessage(_ g: inout SeededGenerator) -> MIDIMessage {
    func d() -> UInt8 { UInt8.random(in: 0...127, using: &g) }
    let ch = UInt8.random(in: 0...15, using: &g)
    switch Int.random(in: 0..<18, using: &g) {
    case 0: return .noteOff(NoteOff(channel: ch, note: d(), velocity: d()))
    case 1: return .noteOn(NoteOn(channel: ch, note: d(), velocity: d()))
    case 2: return .polyPressure(PolyPressure(channel: ch, note: d(), pressure: d()))
    case 3: return .controlChange(ControlChange(channel: ch, controller: d(), value: d()))
    case 4: return .programChange(ProgramChange(channel: ch, program: d()))
    case 5: return .channelPressure(ChannelPressure(channel: ch, pressure: d()))
    case 6: return .pitchBend(PitchBend(channel: ch, value: UInt16.random(in: 0...0x3FFF, using: &g)))
    case 7: return .systemExclusive(SystemExclusive(data: (0..<Int.random(in: 0...20, using: &g)).map { _ in d() }))
    case 8: return .mtcQuarterFrame(MTCQuarterFrame(dataByte: d()))
    case 9: return .songPosition(SongPosition(position: UInt16.random(in: 0...0x3FFF, using: &g)))
    case 10: return .songSelect(SongSelect(song: d()))
    case 11: return .tuneRequest
    case 12: return .timingClock
    case 13: return .start
    case 14: return .continue
    case 15: return .stop
    case 16: return .activeSensing
    default: return .systemReset
    }
}

@Suite struct RoundTripTests {
    @Test(arguments: [false, true])
    func decodeEncodeRoundTrip(runningStatus: Bool) {
        var g = SeededGenerator(seed: runningStatus ? 42 : 7)
        for _ in 0..<200 {
            // Bias towards few channels and kinds so running status is actually used.
            let messages = (0..<Int.random(in: 1...40, using: &g)).map { _ in randomMessage(&g) }
            let bytes = MIDIEncoder.encode(messages, runningStatus: runningStatus)
            let decoded = MIDIParser.decode(bytes)
            #expect(decoded.messages == messages)
            #expect(decoded.errors == 0)
        }
    }

    @Test func eachMessageRoundTrips() {
        var g = SeededGenerator(seed: 1)
        for _ in 0..<2000 {
            let m = randomMessage(&g)
            #expect(MIDIParser.decode(m.bytes).messages == [m])
            if let short = m.shortMessage { #expect(MIDIMessage(short) == m) }
        }
    }

    @Test func runningStatusSavesBytes() {
        let notes = (0..<10).map { MIDIMessage.noteOn(NoteOn(channel: 2, note: UInt8($0), velocity: 64)) }
        let withRS = MIDIEncoder.encode(notes + [.timingClock] + notes, runningStatus: true)
        #expect(withRS.count == 1 + 20 + 1 + 20)  // a clock in between keeps the running status
        let cancelled = MIDIEncoder.encode(notes + [.tuneRequest] + notes, runningStatus: true)
        #expect(cancelled.count == 1 + 20 + 1 + 1 + 20)
        #expect(MIDIEncoder.encode(notes).count == 30)
    }

    @Test func encoderMasksDataBytes() {
        let bytes = MIDIMessage.noteOn(NoteOn(channel: 0x1F, note: 0xFF, velocity: 0x80)).bytes
        #expect(bytes == [0x9F, 0x7F, 0x00])
        #expect(MIDIMessage.systemExclusive(SystemExclusive(data: [0xFF], isTerminated: false)).bytes == [0xF0, 0x7F])
    }
}
