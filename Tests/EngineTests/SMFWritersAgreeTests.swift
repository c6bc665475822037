import MIDI
import Testing
@testable import Engine

/// The three writers of Standard MIDI Files (`StandardMIDIFile.format0`, `encoded()` and the live take's
/// `SMFStreamWriter`) encode through the one `SMFEncoder`: the same events become the same bytes.
@Suite struct SMFWritersAgreeTests {
    /// Times in whole ticks at 960 per quarter note and 120 BPM (1920 a second), so every writer's tick
    /// arithmetic lands on the same tick; running status, a sysex, a system message and an event after them.
    static let events: [(seconds: Double, message: MIDIMessage)] = [
        (0, .noteOn(NoteOn(channel: 0, note: 60, velocity: 100))),
        (0.25, .noteOn(NoteOn(channel: 0, note: 64, velocity: 90))),
        (0.5, .controlChange(ControlChange(channel: 3, controller: 7, value: 5))),
        (0.5, .systemExclusive(SystemExclusive(data: [0x7E, 0x7F, 0x09, 0x01]))),
        (1.25, .timingClock),
        (2, .noteOff(NoteOff(channel: 0, note: 60, velocity: 0))),
        (2, .pitchBend(PitchBend(channel: 0, value: 0x2000))),
        (9000, .noteOff(NoteOff(channel: 0, note: 64, velocity: 0))),
    ]

    @Test func formatZeroTheEncodedFileAndTheLiveTakeWriteTheSameBytes() throws {
        let tpq = SMFStreamWriter.ticksPerQuarterNote
        let tempo = StandardMIDIFile.defaultMicrosecondsPerQuarterNote
        let format0 = StandardMIDIFile.format0(Self.events, ticksPerQuarterNote: tpq, microsecondsPerQuarterNote: tempo)
        let take = SMFStreamWriter.stream(Self.events.map { TakeEvent(seconds: $0.seconds, port: nil, event: .message($0.message)) },
                                          options: MIDITakeOptions(format: 0, raw: true), initialTempo: tempo)
        let track = [StandardMIDIFile.TrackEvent(tick: 0, event: .meta(StandardMIDIFile.tempoEvent(tempo)))]
            + Self.events.map { StandardMIDIFile.TrackEvent(tick: UInt64($0.seconds * 1920), event: .message($0.message)) }
        let encoded = StandardMIDIFile(format: 0, division: .ticksPerQuarterNote(tpq), tracks: [track]).encoded()
        #expect(format0 == take)
        #expect(encoded == format0)
        let read = try StandardMIDIFile(bytes: format0).timedEvents().compactMap { if case .message(let m) = $0.event { m } else { nil } }
        // The reader gives an escaped system message back as a message; a sysex is an event of its own.
        #expect(read == Self.events.map(\.message).filter { if case .systemExclusive = $0 { false } else { true } })
    }
}
