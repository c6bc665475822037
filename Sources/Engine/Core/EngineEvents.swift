import DSP
import MIDI

/// Where a MIDI message came from. Shown in the monitor; each producer has a ring of its own. `out` is not a
/// producer: it marks what Backbeat sent on its MIDI outputs (JACK midi_out, the ALSA sequencer port).
/// `player` is the song player (`backbeat play`), whose messages carry the frame at which they take effect.
/// (The raw values are a take's port numbers: new sources go at the end.)
public enum MIDISource: UInt8, Sendable, BitwiseCopyable, CaseIterable, CustomStringConvertible {
    case jack, alsa, keyboard, demo, out, player

    public var description: String {
        switch self {
        case .jack: "jack"
        case .alsa: "alsa"
        case .keyboard: "keys"
        case .demo: "demo"
        case .out: "out"
        case .player: "play"
        }
    }
}

/// What a non-real-time producer (computer keyboard, ALSA reader, demo sequencer, UI) sends to the
/// real-time callback. Applied at frame 0 of the next period.
public enum ControlEvent: Sendable, BitwiseCopyable, Equatable {
    /// A MIDI message from a producer other than JACK.
    case midi(ShortMessage, MIDISource)
    /// A system exclusive message of `length` bytes (F0 through F7) from a producer other than JACK: the
    /// bytes wait in that producer's sysex byte ring, pushed before this event (the ring is storage allocated
    /// before the real-time thread starts; the event itself stays a few bytes). The real-time thread hands
    /// them to the synth (`Synth.handle(sysex:)`) and to the monitor.
    case sysex(length: UInt32, MIDISource)
    /// A synth parameter edit (raw value of `DSP.SynthParameter`).
    case parameter(index: UInt8, value: Float)
    /// Release every voice (all notes off, pedal up, all channels): the lifecycle's resume. Applied even
    /// while the lifecycle gate drops MIDI, like a parameter edit: it is Backbeat's own, not the app's input.
    case releaseAllVoices
    /// Panic: every voice silenced within a few milliseconds, sustained ones included, at any time.
    case silenceAllVoices
}

/// What the song player's reader thread sends the real-time callback: a message and the JACK frame time at
/// which it takes effect. The callback applies it at that frame of its period (the synth renders up to it
/// first, as for JACK MIDI); one whose frame has passed is applied at once and counted late.
public struct PlayerEvent: Sendable, BitwiseCopyable, Equatable {
    /// The backend's frame time (JACK: `jack_last_frame_time` + offset) at which it takes effect.
    public var frameTime: UInt32
    /// The message; status F0 for a sysex of `sysexLength` bytes (F0 through F7), which wait in the player's
    /// sysex byte ring, pushed before this event.
    public var message: ShortMessage
    public var sysexLength: UInt32
    /// Played by the synth as well as sent on the MIDI outputs (false: `--no-synth`, the outputs only).
    public var toSynth: Bool
    /// The player's generation when it was pushed: a transport request starts a new one, and the callback drops
    /// an event of an older one unplayed (`RealtimeContext.playerGeneration`).
    public var generation: UInt16 = 0

    public init(frameTime: UInt32, message: ShortMessage, sysexLength: UInt32 = 0, toSynth: Bool = true) {
        self.frameTime = frameTime
        self.message = message
        self.sysexLength = sysexLength
        self.toSynth = toSynth
    }
}

/// One MIDI message as the callback saw it, for the monitor.
public struct MonitorEvent: Sendable, BitwiseCopyable, Equatable {
    /// JACK frame time at which the message takes effect (period start + offset).
    public var frameTime: UInt32
    public var message: ShortMessage
    public var source: MIDISource
    /// True when the lifecycle gate dropped it (the simulated app was suspended).
    public var lost: Bool
    /// For a sysex (`message.isSystemExclusive`): its length in bytes, the payload is in the sysex byte ring.
    public var sysexLength: UInt32
    /// For a sysex: how many of its bytes made it into the sysex byte ring (less when it was full).
    public var sysexBytesQueued: UInt32
    /// For a sysex delivered to the synth: it did not act on it (`Synth.handle(sysex:)` returned false, which
    /// the synth counts in `ignoredSysexCount`, or it was too long for any message the synth answers).
    public var sysexIgnored = false

    @_noLocks
    public init(frameTime: UInt32, message: ShortMessage, source: MIDISource, lost: Bool,
                sysexLength: UInt32 = 0, sysexBytesQueued: UInt32 = 0) {
        self.frameTime = frameTime
        self.message = message
        self.source = source
        self.lost = lost
        self.sysexLength = sysexLength
        self.sysexBytesQueued = sysexBytesQueued
    }

    /// The whole message this event stands for: a short message from the event itself, a sysex with the
    /// payload `takeSysex` hands over (`sysexBytesQueued` bytes from the sysex byte ring, F0 included; call it
    /// once per event, in order, as it consumes them). Nil for a status byte that is no message.
    public func message(takingSysex takeSysex: (Int) -> [UInt8]) -> MIDIMessage? {
        guard message.isSystemExclusive else { return MIDIMessage(message) }
        var bytes = takeSysex(Int(sysexBytesQueued))
        let terminated = bytes.last == SystemStatus.endOfExclusive
        if bytes.first == SystemStatus.exclusive { bytes.removeFirst() }
        if terminated { bytes.removeLast() }
        return .systemExclusive(SystemExclusive(data: bytes, isTerminated: terminated, isTruncated: sysexBytesQueued < sysexLength))
    }
}


extension MeterState {
    /// Takes one of the engine's meter blocks (`sampleRate`: `Engine.sampleRate`).
    public mutating func consume(_ block: PeriodMeasure, sampleRate: Int) {
        consume(block, sampleRate: Double(sampleRate))
    }
}

/// What the real-time callback reports to the UI thread, through one ring.
public enum EngineEvent: Sendable, BitwiseCopyable, Equatable {
    case midi(MonitorEvent)
    case meter(PeriodMeasure)
}

/// One stereo sample frame, as the audio capture ring carries it to the disk thread.
public struct StereoFrame: Sendable, BitwiseCopyable, Equatable {
    public var left: Float
    public var right: Float

    @_noLocks
    public init(left: Float, right: Float) {
        self.left = left
        self.right = right
    }
}
