import DSP
import MIDI

/// Where a MIDI message came from. Shown in the monitor; each producer has a ring of its own.
public enum MIDISource: UInt8, Sendable, BitwiseCopyable, CaseIterable, CustomStringConvertible {
    case jack, alsa, keyboard, demo

    public var description: String {
        switch self {
        case .jack: "jack"
        case .alsa: "alsa"
        case .keyboard: "keys"
        case .demo: "demo"
        }
    }
}

/// What a non-real-time producer (computer keyboard, ALSA reader, demo sequencer, UI) sends to the
/// real-time callback. Applied at frame 0 of the next period.
public enum ControlEvent: Sendable, BitwiseCopyable, Equatable {
    /// A MIDI message from a producer other than JACK.
    case midi(ShortMessage, MIDISource)
    /// A synth parameter edit (raw value of `DSP.SynthParameter`).
    case parameter(index: UInt8, value: Float)
}

/// One MIDI message as the callback saw it, for the monitor.
public struct MonitorEvent: Sendable, BitwiseCopyable, Equatable {
    /// JACK frame time at which the message takes effect (period start + offset).
    public var frameTime: UInt32
    public var message: ShortMessage
    public var source: MIDISource
    /// True when the lifecycle gate dropped it (the simulated app was suspended).
    public var lost: Bool
    /// For a sysex (message.status == 0xF0): its length in bytes, the payload is in the sysex byte ring.
    public var sysexLength: UInt32
    /// For a sysex: how many of its bytes made it into the sysex byte ring (less when it was full).
    public var sysexBytesQueued: UInt32

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
}

/// Per-period level figures: the engine computes what needs every sample, the UI does the ballistics
/// (`DSP.MeterState.consume(_:sampleRate:)`).
public struct MeterBlock: Sendable, BitwiseCopyable, Equatable {
    public var frames: UInt32
    public var peakLeft: Float
    public var peakRight: Float
    public var sumSquaresLeft: Float
    public var sumSquaresRight: Float
    /// Sums of the squared K-weighted samples (BS.1770), for loudness.
    public var kSumSquaresLeft: Float
    public var kSumSquaresRight: Float
    /// 4x oversampled peaks (BS.1770-4 Annex 2), never below the sample peaks.
    public var truePeakLeft: Float
    public var truePeakRight: Float

    @_noLocks
    public init(frames: UInt32, peakLeft: Float, peakRight: Float, sumSquaresLeft: Float, sumSquaresRight: Float,
                kSumSquaresLeft: Float = 0, kSumSquaresRight: Float = 0, truePeakLeft: Float = 0, truePeakRight: Float = 0) {
        self.frames = frames
        self.peakLeft = peakLeft
        self.peakRight = peakRight
        self.sumSquaresLeft = sumSquaresLeft
        self.sumSquaresRight = sumSquaresRight
        self.kSumSquaresLeft = kSumSquaresLeft
        self.kSumSquaresRight = kSumSquaresRight
        self.truePeakLeft = truePeakLeft
        self.truePeakRight = truePeakRight
    }

    @_noLocks
    public init(_ measure: PeriodMeasure) {
        self.init(frames: UInt32(truncatingIfNeeded: measure.frames), peakLeft: measure.peakLeft, peakRight: measure.peakRight,
                  sumSquaresLeft: measure.sumSquaresLeft, sumSquaresRight: measure.sumSquaresRight,
                  kSumSquaresLeft: measure.kSumSquaresLeft, kSumSquaresRight: measure.kSumSquaresRight,
                  truePeakLeft: measure.truePeakLeft, truePeakRight: measure.truePeakRight)
    }

    /// The same figures as DSP's meters take them.
    public var measure: PeriodMeasure {
        PeriodMeasure(frames: Int(frames), peakLeft: peakLeft, peakRight: peakRight, sumSquaresLeft: sumSquaresLeft,
                      sumSquaresRight: sumSquaresRight, kSumSquaresLeft: kSumSquaresLeft, kSumSquaresRight: kSumSquaresRight,
                      truePeakLeft: truePeakLeft, truePeakRight: truePeakRight)
    }
}

extension MeterState {
    /// Takes one of the engine's meter blocks (`sampleRate`: `Engine.sampleRate`).
    public mutating func consume(_ block: MeterBlock, sampleRate: Int) {
        consume(block.measure, sampleRate: Double(sampleRate))
    }
}

/// What the real-time callback reports to the UI thread, through one ring.
public enum EngineEvent: Sendable, BitwiseCopyable, Equatable {
    case midi(MonitorEvent)
    case meter(MeterBlock)
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
