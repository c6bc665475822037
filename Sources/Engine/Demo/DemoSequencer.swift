import MIDI

/// The built-in demo: a four-bar loop in A minor (Am, F, C, G) with a melody on channel 1, chords on
/// channel 2 and a bass on channel 3, and MIDI clock at 24 ticks per quarter note so tempo displays have
/// something to measure. A value advanced by hand: `advance(to:)` returns every message due up to a time,
/// so tests need no clock and the driver thread (`DemoPlayer`) only sleeps until `nextEventSeconds`.
public struct DemoSequencer: Sendable {
    /// One note of the pattern, in clock ticks (24 per quarter note) from the start of the loop.
    public struct Note: Sendable, Equatable {
        public var tick: Int
        public var length: Int
        public var channel: UInt8
        public var note: UInt8
        public var velocity: UInt8
    }

    public static let ticksPerQuarterNote = ClockTempo.ticksPerQuarterNote
    public static let bars = 4
    public static let loopTicks = bars * 4 * ticksPerQuarterNote
    public static let melodyChannel: UInt8 = 0
    public static let chordChannel: UInt8 = 1
    public static let bassChannel: UInt8 = 2

    /// The loop, sorted by tick.
    public static let pattern: [Note] = {
        let sixteenth = ticksPerQuarterNote / 4
        let bar = 16 * sixteenth
        var notes: [Note] = []
        // Melody: (sixteenth in bar, note, sixteenths), slightly detached.
        let melody: [[(Int, UInt8, Int)]] = [
            [(0, 76, 4), (4, 72, 2), (6, 74, 2), (8, 76, 4), (12, 79, 4)],  // Am: E C D E G
            [(0, 77, 6), (6, 76, 2), (8, 74, 4), (12, 72, 4)],              // F:  F E D C
            [(0, 72, 4), (4, 76, 4), (8, 79, 6), (14, 76, 2)],              // C:  C E G E
            [(0, 74, 4), (4, 71, 4), (8, 74, 4), (12, 67, 4)],              // G:  D B D G
        ]
        let chords: [[UInt8]] = [[57, 60, 64], [53, 57, 60], [55, 60, 64], [55, 59, 62]]
        let roots: [UInt8] = [45, 41, 48, 43]
        for b in 0..<bars {
            for (at, note, length) in melody[b] {
                notes.append(Note(tick: b * bar + at * sixteenth, length: length * sixteenth - 2,
                                  channel: melodyChannel, note: note, velocity: 96))
            }
            for half in 0..<2 {
                for note in chords[b] {
                    notes.append(Note(tick: b * bar + half * 8 * sixteenth, length: 8 * sixteenth - 4,
                                      channel: chordChannel, note: note, velocity: 52))
                }
            }
            // Bass: root, root, octave, root on the beats.
            for beat in 0..<4 {
                let note = beat == 2 ? roots[b] + 12 : roots[b]
                notes.append(Note(tick: b * bar + beat * 4 * sixteenth, length: 3 * sixteenth,
                                  channel: bassChannel, note: note, velocity: 88))
            }
        }
        return notes.sorted { $0.tick < $1.tick }
    }()

    public let bpm: Double
    private enum State: Sendable { case idle, playing, stopped }
    private var state = State.idle
    /// The next clock tick to play, counted from the start (not wrapped to the loop).
    private var nextTick = 0
    /// Notes playing now, with the absolute tick of their note-off.
    private var sounding: [(off: Int, channel: UInt8, note: UInt8)] = []

    public init(bpm: Double = 120) {
        self.bpm = max(20, min(bpm, 300))
    }

    public var secondsPerTick: Double { 60 / (bpm * Double(Self.ticksPerQuarterNote)) }
    public var loopSeconds: Double { Double(Self.loopTicks) * secondsPerTick }
    /// When the next message is due (after `stop`: never).
    public var nextEventSeconds: Double { state == .stopped ? .infinity : Double(nextTick) * secondsPerTick }
    public var isStopped: Bool { state == .stopped }

    /// Every message due at or before `seconds` since the start, in order: at each tick the clock, then
    /// note-offs, then note-ons. The first call also sends Start (FA).
    public mutating func advance(to seconds: Double) -> [ShortMessage] {
        guard state != .stopped, seconds >= 0 else { return [] }
        var messages: [ShortMessage] = []
        if state == .idle {
            state = .playing
            messages.append(ShortMessage(status: SystemStatus.start))
        }
        while Double(nextTick) * secondsPerTick <= seconds + 1e-9 {
            let tick = nextTick
            messages.append(ShortMessage(status: SystemStatus.timingClock))
            sounding.removeAll { playing in
                guard playing.off <= tick else { return false }
                messages.append(ShortMessage.noteOff(playing.note, channel: playing.channel))
                return true
            }
            let inLoop = tick % Self.loopTicks
            for note in Self.pattern where note.tick == inLoop {
                // A note still sounding is ended first, so no note-on ever doubles a held one.
                if let held = sounding.firstIndex(where: { $0.channel == note.channel && $0.note == note.note }) {
                    messages.append(ShortMessage.noteOff(note.note, channel: note.channel))
                    sounding.remove(at: held)
                }
                messages.append(ShortMessage.noteOn(note.note, velocity: note.velocity, channel: note.channel))
                sounding.append((tick + note.length, note.channel, note.note))
            }
            nextTick += 1
        }
        return messages
    }

    /// Ends the demo: a note-off for every sounding note, then Stop (FC). Nothing follows.
    public mutating func stop() -> [ShortMessage] {
        guard state != .stopped else { return [] }
        let wasPlaying = state == .playing
        state = .stopped
        var messages = sounding.map { ShortMessage.noteOff($0.note, channel: $0.channel) }
        sounding.removeAll()
        if wasPlaying { messages.append(ShortMessage(status: SystemStatus.stop)) }
        return messages
    }
}
