import MIDI

/// General MIDI files that check a SoundFont player against FluidSynth, made the same way every time: a few
/// lines of events each, written by the MIDI module's Standard MIDI File encoder. The tests render them with
/// `backbeat render --soundfont` and `fluidsynth -F` and compare pitch, spectra and loudness; the schedules
/// (`melodicNotes`, `drumHits`) say where each note is, so the analysis needs no onset detection.
public enum GeneralMIDITestFiles {
    /// One note of a file: where it starts and ends (seconds), its GM program (0-based) or drum key.
    public struct Note: Sendable, Equatable {
        public var name: String
        public var program: UInt8
        public var key: UInt8
        public var start: Double
        public var end: Double
    }

    /// GM programs (0-based) the melodic file plays: piano, nylon guitar, violin, trumpet, flute, church organ.
    public static let melodicPrograms: [(program: UInt8, name: String)] = [
        (0, "piano"), (24, "nylon guitar"), (40, "violin"), (56, "trumpet"), (73, "flute"), (19, "church organ"),
    ]
    /// Keys each program plays: A4, C4, A3.
    public static let melodicKeys: [UInt8] = [69, 60, 57]
    /// Each melodic note sounds this long, then this much silence follows (its release rings in it).
    public static let melodicHold = 1.2, melodicGap = 0.8

    /// Every note of ``melodic()``, in order, on channel 1.
    public static var melodicNotes: [Note] {
        var notes: [Note] = []
        for (p, program) in melodicPrograms.enumerated() {
            for (k, key) in melodicKeys.enumerated() {
                let start = Double(p * melodicKeys.count + k) * (melodicHold + melodicGap) + 0.1
                notes.append(Note(name: "\(program.name) \(key)", program: program.program, key: key,
                                  start: start, end: start + melodicHold))
            }
        }
        return notes
    }

    /// Single notes of six programs at known keys on channel 1, with a gap after each; a program change
    /// before each program's first note.
    public static func melodic() -> [UInt8] {
        var events: [(seconds: Double, message: MIDIMessage)] = []
        var program: UInt8?
        for note in melodicNotes {
            if note.program != program {
                events.append((note.start - 0.05, .programChange(.init(channel: 0, program: note.program))))
                program = note.program
            }
            events.append((note.start, .noteOn(.init(channel: 0, note: note.key, velocity: 100))))
            events.append((note.end, .noteOff(.init(channel: 0, note: note.key, velocity: 0))))
        }
        return StandardMIDIFile.format0(events)
    }

    /// Every hit of ``drums()`` on channel 10: kick, snare, closed hat, an open hat left ringing (the
    /// reference for the cut), an open hat cut by a closed one `hatCut` seconds later, a crash.
    public static var drumHits: [Note] {
        [
            Note(name: "kick", program: 0, key: 36, start: 0.1, end: 0.6),
            Note(name: "snare", program: 0, key: 38, start: 1.1, end: 1.6),
            Note(name: "closed hat", program: 0, key: 42, start: 2.1, end: 2.6),
            Note(name: "open hat", program: 0, key: 46, start: 3.1, end: 5.6),
            Note(name: "open hat, then cut", program: 0, key: 46, start: 6.1, end: 8.6),
            Note(name: "closed hat cutting", program: 0, key: 42, start: 6.1 + hatCut, end: 6.6 + hatCut),
            Note(name: "crash", program: 0, key: 49, start: 9.1, end: 11.1),
        ]
    }

    /// Seconds between the open hat and the closed hat that cuts it (same exclusive class in GM kits).
    public static let hatCut = 0.3

    /// The drum hits on channel 10 (General MIDI's percussion channel), standard kit (program 1).
    public static func drums() -> [UInt8] {
        var events: [(seconds: Double, message: MIDIMessage)] = [(0, .programChange(.init(channel: 9, program: 0)))]
        for hit in drumHits {
            events.append((hit.start, .noteOn(.init(channel: 9, note: hit.key, velocity: 110))))
            events.append((hit.end, .noteOff(.init(channel: 9, note: hit.key, velocity: 0))))
        }
        return StandardMIDIFile.format0(events)
    }

    /// Length of ``song()`` to its last note-off, in seconds (8 bars at 120 BPM).
    public static var songSeconds: Double { 16 }

    /// A short General MIDI song, 8 bars at 120 BPM: bass (channel 1), chords (2), melody (3), drums (10).
    /// It exercises bank select (CC0/CC32; the melody asks for bank 1, which General MIDI fonts lack, so a
    /// player falls back to bank 0), program changes at bar 5, channel volume (CC7) fading the chords,
    /// pan (CC10), expression (CC11) swelling the melody, and a pitch bend up a tone and back.
    public static func song() -> [UInt8] {
        let beat = 0.5
        var events: [(seconds: Double, message: MIDIMessage)] = []
        func at(_ beats: Double, _ message: MIDIMessage) { events.append((beats * beat, message)) }
        func cc(_ beats: Double, _ channel: UInt8, _ controller: UInt8, _ value: UInt8) {
            at(beats, .controlChange(.init(channel: channel, controller: controller, value: value)))
        }
        func note(_ beats: Double, _ length: Double, _ channel: UInt8, _ key: UInt8, _ velocity: UInt8) {
            at(beats, .noteOn(.init(channel: channel, note: key, velocity: velocity)))
            at(beats + length, .noteOff(.init(channel: channel, note: key, velocity: 0)))
        }
        // Set-up: banks, programs, pans, levels.
        for (channel, bank, program, pan) in [(UInt8(0), UInt8(0), UInt8(33), UInt8(64)), (1, 0, 0, 30), (2, 1, 73, 98)] {
            cc(0, channel, 0, bank)
            cc(0, channel, 32, 0)
            at(0, .programChange(.init(channel: channel, program: program)))
            cc(0, channel, 10, pan)
            cc(0, channel, 7, 100)
            cc(0, channel, 11, 127)
        }
        at(0, .programChange(.init(channel: 9, program: 0)))
        cc(0, 9, 7, 110)

        // C, Am, F, G twice: roots for the bass, triads for the chords.
        let roots: [UInt8] = [36, 45, 41, 43]
        let triads: [[UInt8]] = [[60, 64, 67], [57, 60, 64], [53, 57, 60], [55, 59, 62]]
        for bar in 0..<8 {
            let b = Double(bar * 4)
            let chord = bar % 4
            for q in 0..<4 { note(b + Double(q), 0.9, 0, roots[chord], q == 0 ? 110 : 90) }
            for key in triads[chord] { note(b, 3.8, 1, key, 80) }
            // Drums: kick on 1 and 3, snare on 2 and 4, closed hat on eighths, open hat at the end of bar 4.
            note(b, 0.5, 9, 36, 110); note(b + 2, 0.5, 9, 36, 100)
            note(b + 1, 0.5, 9, 38, 100); note(b + 3, 0.5, 9, 38, 105)
            for e in 0..<8 where !(bar == 3 && e == 7) { note(b + Double(e) * 0.5, 0.25, 9, 42, e % 2 == 0 ? 90 : 70) }
            if bar == 3 { note(b + 3.5, 0.5, 9, 46, 95) }
            if bar == 0 || bar == 4 { note(b, 2, 9, 49, 100) }
        }
        // Melody: a phrase per bar pair.
        let melody: [(beats: Double, length: Double, key: UInt8)] = [
            (0, 1, 72), (1, 1, 74), (2, 2, 76), (4, 1.5, 72), (5.5, 0.5, 71), (6, 2, 69),
            (8, 4, 77), (12, 2, 74), (14, 2, 71),
            (16, 1, 72), (17, 1, 74), (18, 2, 76), (20, 1.5, 72), (21.5, 0.5, 71), (22, 2, 69),
            (24, 2, 77), (26, 2, 76), (28, 4, 72),
        ]
        for m in melody { note(m.beats, m.length * 0.95, 2, m.key, 96) }

        // Expression swell on the melody's long note of bar 3.
        for step in 0...16 { cc(8 + Double(step) * 0.25, 2, 11, UInt8(40 + step * 87 / 16)) }
        // Pitch bend: up a whole tone (full range, 2 semitones by default) over bar 4's first beats, and back.
        for step in 0...8 { at(12 + Double(step) * 0.125, .pitchBend(.init(channel: 2, bend: step * 1023))) }
        for step in 0...8 { at(13.5 + Double(step) * 0.0625, .pitchBend(.init(channel: 2, bend: 8184 - step * 1023))) }
        // Bar 5: chords to strings, melody to trumpet.
        at(16, .programChange(.init(channel: 1, program: 48)))
        at(16, .programChange(.init(channel: 2, program: 56)))
        // Bars 5-6: the chords fade to CC7 40, back up in bar 7.
        for step in 0...16 { cc(16 + Double(step) * 0.5, 1, 7, UInt8(100 - step * 60 / 16)) }
        for step in 0...8 { cc(24 + Double(step) * 0.5, 1, 7, UInt8(40 + step * 60 / 8)) }
        // Pan sweep on the bass over the last two bars.
        for step in 0...16 { cc(24 + Double(step) * 0.5, 0, 10, UInt8(20 + step * 88 / 16)) }
        return StandardMIDIFile.format0(events, microsecondsPerQuarterNote: 500_000)
    }
}
