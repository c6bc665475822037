// What a take needs to know beyond its own events: the channel state in effect when it began (so it sounds as
// it was played) and the tempo of an incoming MIDI clock (so its ticks line up with the sender's bars). Both
// are plain values fed off the real-time thread, from the same drained monitor events whether or not a take
// is running.

/// The state of one MIDI channel that a take must restore at its start: bank, program, controllers, the
/// pitch-bend range (RPN 0) and the pitch bend.
public struct ChannelState: Sendable, Equatable {
    /// Last program change, nil when none was seen.
    public var program: UInt8?
    /// Controller values (0...119) set on the channel; nil: never set (or reset by CC 121). Data entry (6, 38),
    /// increment/decrement (96, 97) and the parameter number selects (98...101) are not kept as values: they
    /// are applied to `bendRange` when RPN 0 is selected.
    public var controllers: [UInt8?] = Array(repeating: nil, count: 120)
    /// Pitch-bend range set through RPN 0 (semitones, cents); nil: never set (the default, 2 semitones).
    public var bendRange: (semitones: UInt8, cents: UInt8)? {
        get { bendSemitones.map { ($0, bendCents) } }
        set { bendSemitones = newValue?.semitones; bendCents = newValue?.cents ?? 0 }
    }
    private var bendSemitones: UInt8?
    private var bendCents: UInt8 = 0
    /// Pitch bend, 14 bits (8192 is the centre); nil: never moved.
    public var bend: UInt16?
    /// The registered parameter selected (CC 101 << 7 | CC 100); `RegisteredParameter.null`: none. An NRPN
    /// select clears it.
    var rpn: UInt16 = RegisteredParameter.null.rawValue
    /// True once any message set something on the channel.
    public var isSet: Bool { program != nil || bend != nil || bendSemitones != nil || controllers.contains { $0 != nil } }

    public init() {}

    /// The controllers that a take always writes for a channel it uses (volume, pan, expression, sustain,
    /// reverb and chorus send), with the General MIDI power-on values used when the channel never set them
    /// (the values FluidSynth and Backbeat's synth start with).
    public static let alwaysWritten: [(controller: Controller, initial: UInt8)] = [
        (.volume, 100), (.pan, 64), (.expression, 127), (.sustain, 0), (.reverbSend, 40), (.chorusSend, 0),
    ]

    public mutating func apply(_ message: MIDIMessage) {
        switch message {
        case .programChange(let m): program = m.program
        case .pitchBend(let m): bend = m.value
        case .controlChange(let m):
            let c = m.named, v = m.value
            let bendRange = RegisteredParameter.pitchBendSensitivity.rawValue
            switch c {
            case .rpnMSB: rpn = UInt16(v) << 7 | (rpn & 0x7F)
            case .rpnLSB: rpn = (rpn & 0x3F80) | UInt16(v)
            case .nrpnLSB, .nrpnMSB: rpn = RegisteredParameter.null.rawValue  // data entry no longer goes to an RPN
            case .dataEntry: if rpn == bendRange { bendSemitones = v; if bendCents > 99 { bendCents = 0 } }
            case .dataEntryLSB: if rpn == bendRange { if bendSemitones == nil { bendSemitones = 2 }; bendCents = v }
            case .dataIncrement, .dataDecrement: break
            case .resetAllControllers:
                // Reset All Controllers (RP-015): not bank, volume, pan, the effect sends or the program.
                let kept: [Controller] = [.bankSelect, .bankSelectLSB, .volume, .pan, .reverbSend, .chorusSend]
                for i in controllers.indices where !kept.contains(Controller(UInt8(i))) { controllers[i] = nil }
                bend = nil
                rpn = RegisteredParameter.null.rawValue
            case let c where !c.isChannelMode: controllers[Int(c.rawValue)] = v
            default: break  // channel mode messages (120...127) are not state
            }
        default: break
        }
    }

    /// The messages that put a channel into this state from power-on, in the order a synth needs them:
    /// bank select MSB and LSB, program, the controllers (`alwaysWritten` always, every other that was set),
    /// the pitch-bend range through RPN 0 (then RPN null) when it is not the default, and the pitch bend when
    /// it is not centred. `program`, `bankMSB`, `bankLSB`: what to write instead of the values seen (the
    /// program that selects what was playing); nil keeps the values seen.
    public func setupMessages(channel: UInt8, program: UInt8? = nil, bankMSB: UInt8? = nil, bankLSB: UInt8? = nil) -> [MIDIMessage] {
        let ch = channel & 0x0F
        func cc(_ controller: Controller, _ value: UInt8) -> MIDIMessage { .controlChange(ControlChange(channel: ch, controller, value: value & 0x7F)) }
        var out: [MIDIMessage] = []
        if let msb = bankMSB ?? controllers[Int(Controller.bankSelect.rawValue)] { out.append(cc(.bankSelect, msb)) }
        if let lsb = bankLSB ?? controllers[Int(Controller.bankSelectLSB.rawValue)] { out.append(cc(.bankSelectLSB, lsb)) }
        if let p = program ?? self.program { out.append(.programChange(ProgramChange(channel: ch, program: p & 0x7F))) }
        for number in 1..<UInt8(120) where Controller(number) != .bankSelectLSB {
            let c = Controller(number)
            if let v = controllers[Int(number)] { out.append(cc(c, v)) }
            else if let initial = Self.alwaysWritten.first(where: { $0.controller == c })?.initial { out.append(cc(c, initial)) }
        }
        if let range = bendRange, range.semitones != 2 || range.cents != 0 {
            out += [cc(.rpnMSB, 0), cc(.rpnLSB, 0), cc(.dataEntry, range.semitones), cc(.dataEntryLSB, range.cents),
                    cc(.rpnMSB, 127), cc(.rpnLSB, 127)]
        }
        if let bend, bend != 8192 { out.append(.pitchBend(PitchBend(channel: ch, value: bend))) }
        return out
    }

    public static func == (a: ChannelState, b: ChannelState) -> Bool {
        a.program == b.program && a.controllers == b.controllers && a.bendSemitones == b.bendSemitones
            && a.bendCents == b.bendCents && a.bend == b.bend && a.rpn == b.rpn
    }
}

/// The state of all 16 channels, fed with every message received.
public struct ChannelStateTracker: Sendable, Equatable {
    public private(set) var channels = Array(repeating: ChannelState(), count: 16)

    public init() {}

    public mutating func apply(_ message: MIDIMessage) {
        guard let channel = message.channel else {
            if case .systemReset = message { channels = Array(repeating: ChannelState(), count: 16) }
            return
        }
        channels[Int(channel & 0x0F)].apply(message)
    }

    public subscript(channel: Int) -> ChannelState { channels[channel & 0x0F] }
}

/// Set Tempo events for a take from an incoming MIDI clock (24 ticks per quarter note): the first once a beat
/// of ticks has arrived (placed at the first tick: the take holds its events back meanwhile), then at most one per bar of 4/4 (96 ticks), written only when
/// the tempo measured over the last bar moved by more than `threshold` (0.5 %) from the one in force. Start,
/// Continue and a gap (`ClockTempo.gapSeconds`) begin a new run, whose first interval sets the tempo again.
public struct ClockTempoTrack: Sendable, Equatable {
    public static let ticksPerBar = 96
    public static let threshold = 0.005

    public private(set) var clock = ClockTempo()
    /// Microseconds per quarter note in force in the take (nil: none measured yet; the take says 120 BPM).
    public private(set) var microsecondsPerQuarter: UInt32?
    /// Ticks measured before a run's first tempo is written: a bar. Ticks quantised to 1024-frame periods
    /// (21 ms, a tick's length at 120 BPM) leave a beat's fitted tempo 0.8 % uncertain, over the 0.5 % that
    /// writes a new tempo; a bar's is 0.1 %, so a steady clock gives one tempo.
    public static let firstTempoTicks = 96
    /// The first tick of the current run while its tempo is not known yet: events after it wait for it.
    public private(set) var runStart: Double?
    private var ticksInBar = 0

    public init() {}

    /// Microseconds per quarter note of a tempo in BPM (clamped to what a Set Tempo event holds).
    public static func microseconds(bpm: Double) -> UInt32 {
        guard bpm.isFinite, bpm > 0 else { return StandardMIDIFile.defaultMicrosecondsPerQuarterNote }
        return UInt32(max(1, min((60_000_000 / bpm).rounded(), Double(0xFF_FFFF))))
    }

    /// Feeds a real-time message at `seconds`; returns a Set Tempo to write (time, microseconds per quarter
    /// note) when one is due. The time may be a tick earlier than `seconds` (the first tick of a run).
    public mutating func receive(_ status: UInt8, at seconds: Double) -> (seconds: Double, microseconds: UInt32)? {
        switch status {
        case SystemStatus.start, SystemStatus.continue:
            clock.receive(ShortMessage(status: status), at: seconds)
            runStart = nil
            ticksInBar = 0
            return nil
        case SystemStatus.stop:
            clock.stop()
            return nil
        case SystemStatus.timingClock: break
        default: return nil
        }
        let before = clock.intervalCount
        clock.tick(at: seconds)
        if clock.intervalCount == 0 || clock.intervalCount < before {
            // A new run (first tick ever, after start/continue, or after a gap).
            runStart = seconds
            ticksInBar = 0
            return nil
        }
        ticksInBar += 1
        if let start = runStart {
            guard clock.intervalCount >= Self.firstTempoTicks else { return nil }
            runStart = nil
            return set(bpm: clock.bpm, at: start)
        }
        guard ticksInBar >= Self.ticksPerBar else { return nil }
        ticksInBar = 0
        return set(bpm: clock.bpm, at: seconds)
    }

    /// A run whose first beat never came (the clock stopped after a few ticks) gets the tempo measured so far
    /// once `seconds` is `patience` past its start, so the take stops holding its events back.
    public mutating func settle(now seconds: Double, patience: Double = 4) -> (seconds: Double, microseconds: UInt32)? {
        guard let start = runStart, seconds - start > patience else { return nil }
        runStart = nil
        return set(bpm: clock.bpm, at: start)
    }

    private mutating func set(bpm: Double?, at seconds: Double) -> (seconds: Double, microseconds: UInt32)? {
        guard let bpm else { return nil }
        let us = Self.microseconds(bpm: bpm)
        if let current = microsecondsPerQuarter, abs(Double(us) - Double(current)) <= Self.threshold * Double(current) {
            return nil
        }
        microsecondsPerQuarter = us
        return (seconds, us)
    }
}
