// The backend-neutral real-time side: what every backend's real-time thread calls once per period (the JACK
// process callback through JACK/JackProcessCallback.swift, the ALSA PCM thread directly). Real-time rules: no
// allocation, no locks, no I/O, no framework calls, no existentials, no ARC traffic; every function here is
// @_noLocks and the release build checks it. Nothing here is created or freed while the callback can run.
import DSP
import MIDI
import Realtime
import Synchronization

/// Counters the callback writes and the rest of Backbeat reads (relaxed: they are statistics).
public struct EngineCounters: ~Copyable, Sendable {
    public let midiReceived = Atomic<Int>(0)
    public let midiLost = Atomic<Int>(0)
    public let uiRingDrops = Atomic<Int>(0)
    public let sysexBytesDropped = Atomic<Int>(0)
    public let xruns = Atomic<Int>(0)
    public let periods = Atomic<Int>(0)
    /// Duration of the last callback, in ns.
    public let lastCallbackNanos = Atomic<Int>(0)
    /// The longest callback since the last `takeLongestCallbackNanos`, in ns: one atomic max per period, so
    /// no raise ever overwrites a larger value, whoever records.
    public let longestCallbackNanos = AtomicMaximum()
    /// The same object for the real-time thread, reached without retain/release (`self` keeps it alive).
    private let rtLongest: Unmanaged<AtomicMaximum>
    public let activeVoices = Atomic<Int>(0)
    /// Frames the capture ring had no room for (the disk thread fell behind).
    public let captureFramesDropped = Atomic<Int>(0)
    /// Outgoing MIDI messages that did not fit a period's `MIDIOutQueue` or the ALSA output ring.
    public let midiOutDropped = Atomic<Int>(0)
    /// Song player events whose frame had passed when the callback met them (applied at frame 0).
    public let playerLate = Atomic<Int>(0)
    /// Frames of the last period (the song player's lead is counted in periods).
    public let periodFrames = Atomic<Int>(0)
    public init() { rtLongest = .passUnretained(longestCallbackNanos) }

    /// Records one callback's duration: the last, and the longest (an atomic max).
    @_noLocks
    public func recordCallback(nanoseconds: Int) {
        lastCallbackNanos.store(nanoseconds, ordering: .relaxed)
        let value = UInt64(truncatingIfNeeded: max(nanoseconds, 0))
        rtLongest._withUnsafeGuaranteedRef { $0.record(value) }
    }

    /// The longest callback since the previous call, in ns, and starts a new maximum.
    public func takeLongestCallbackNanos() -> Int { Int(truncatingIfNeeded: longestCallbackNanos.reset()) }
}

/// Everything a backend's real-time thread touches, prepared before it starts (`Engine.prepare`) and released
/// after it stopped.
final class RealtimeContext: @unchecked Sendable {
    let synth: Synth
    /// One ring per non-JACK producer (single producer each).
    let keyboardRing, alsaRing, demoRing: SPSCRing<ControlEvent>
    let uiRing: SPSCRing<EngineEvent>
    let sysexRing: SPSCRing<UInt8>
    /// The song player's events at their frames (producer: its reader thread) and its sysex bytes.
    let playerRing: SPSCRing<PlayerEvent>
    let playerSysexRing: SPSCRing<UInt8>
    let rtPlayer: Unmanaged<SPSCRing<PlayerEvent>>
    let rtPlayerSysex: Unmanaged<SPSCRing<UInt8>>
    /// The song player's generation (written by its reader thread): events of another are dropped unplayed.
    let playerGeneration = Atomic<UInt16>(0)
    /// The player event popped but not yet due (its frame is in a later period). Real-time thread only.
    @exclusivity(unchecked) var pendingPlayerEvent: PlayerEvent?
    /// Backbeat's output while capture is on, for the disk thread (never written from this thread to disk).
    let captureRing: SPSCRing<StereoFrame>
    let captureOn = AtomicGate(open: false)
    /// Every period's callback duration, filled on the RT thread without allocating (p99.9 for the soak).
    let callbackDurations = LatencyHistogram()
    private let rtDurations: Unmanaged<LatencyHistogram>
    /// The same objects, for the callback: reached through `_withUnsafeGuaranteedRef`, so no retain/release.
    /// `self` keeps them alive.
    let rtSynth: Unmanaged<Synth>
    private let rtKeyboard, rtALSA, rtDemo: Unmanaged<SPSCRing<ControlEvent>>
    private let rtUI: Unmanaged<SPSCRing<EngineEvent>>
    private let rtSysex: Unmanaged<SPSCRing<UInt8>>
    private let rtCapture: Unmanaged<SPSCRing<StereoFrame>>
    /// K-weighting and true-peak state for `measure` (prepared with the synth, before activation).
    let loudness: LoudnessProcessor
    private let rtLoudness: Unmanaged<LoudnessProcessor>
    let counters = EngineCounters()
    /// Lifecycle gates: open = delivered / playing. Written by the lifecycle simulator's owner.
    let midiGate = AtomicGate(open: true)
    let audioGate = AtomicGate(open: true)
    private let rtMIDIGate: Unmanaged<AtomicGate>
    private let rtAudioGate: Unmanaged<AtomicGate>
    private let rtCaptureOn: Unmanaged<AtomicGate>
    /// Opened by JACK's shutdown callback; the supervisor reacts.
    let serverGone = AtomicGate(open: false)
    /// The most frames the synth was prepared for; longer periods render in chunks.
    @exclusivity(unchecked) var maxFrames = 1024
    /// Set while no client owns the ports; written only while the callback cannot run.
    @exclusivity(unchecked) var ports: JackPorts?
    /// ALSA sequencer sysex bytes (producer: the ALSA reader thread), moved to `sysexRing` when their
    /// header arrives through `alsaRing` (see `ALSASequencer`).
    let alsaSysexRing: SPSCRing<UInt8>
    private let rtALSASysex: Unmanaged<SPSCRing<UInt8>>
    /// This period's outgoing MIDI (own sources, and incoming with `midiThru`), written to JACK's midi_out.
    let midiOut: MIDIOutQueue
    /// `midiOut` for the callback (no retain/release); the JACK backend writes it out.
    let rtMIDIOut: Unmanaged<MIDIOutQueue>
    /// The same messages for the ALSA sequencer's output (consumer: its thread), while `alsaOutActive`.
    let alsaOutRing: SPSCRing<ShortMessage>
    private let rtALSAOut: Unmanaged<SPSCRing<ShortMessage>>
    /// Forward what came in (JACK midi_in, the ALSA sequencer) to the outputs too. Set before activation.
    @exclusivity(unchecked) var midiThru = false
    /// Whether there is an output to feed (JACK's midi_out, the ALSA sequencer's port): only then are
    /// outgoing messages queued and shown in the monitor as source `out`. Written only while the callback
    /// cannot run.
    @exclusivity(unchecked) var midiOutActive = false
    @exclusivity(unchecked) var alsaOutActive = false
    /// The channel mixer (RealtimeContext+Mixer.swift), and the channels it mutes this period (RT thread only).
    let mixer = ChannelMixer()
    private let rtMixer: Unmanaged<ChannelMixer>
    @exclusivity(unchecked) private var rtMuted: UInt16 = 0
    /// The frame time of the current period's first frame (real-time thread only).
    @exclusivity(unchecked) private(set) var currentPeriodStart: UInt32 = 0

    init(synth: Synth, ringCapacity: Int = 4096, uiRingCapacity: Int = 16384, sysexCapacity: Int = 1 << 16,
         captureCapacity: Int = 1 << 19) {
        self.synth = synth
        // Each object the callback reads is owned here and read there through an unretained reference.
        (keyboardRing, rtKeyboard) = Self.owned(SPSCRing(capacity: ringCapacity))
        (alsaRing, rtALSA) = Self.owned(SPSCRing(capacity: ringCapacity))
        (demoRing, rtDemo) = Self.owned(SPSCRing(capacity: ringCapacity))
        (uiRing, rtUI) = Self.owned(SPSCRing(capacity: uiRingCapacity))
        (sysexRing, rtSysex) = Self.owned(SPSCRing(capacity: sysexCapacity))
        (playerRing, rtPlayer) = Self.owned(SPSCRing(capacity: ringCapacity))
        (playerSysexRing, rtPlayerSysex) = Self.owned(SPSCRing(capacity: sysexCapacity))
        (captureRing, rtCapture) = Self.owned(SPSCRing(capacity: captureCapacity))
        (loudness, rtLoudness) = Self.owned(LoudnessProcessor())
        (alsaSysexRing, rtALSASysex) = Self.owned(SPSCRing(capacity: sysexCapacity))
        (midiOut, rtMIDIOut) = Self.owned(MIDIOutQueue(capacity: ringCapacity))
        rtSynth = .passUnretained(synth)
        rtMixer = .passUnretained(mixer)
        rtDurations = .passUnretained(callbackDurations)
        rtMIDIGate = .passUnretained(midiGate)
        rtAudioGate = .passUnretained(audioGate)
        rtCaptureOn = .passUnretained(captureOn)
        (alsaOutRing, rtALSAOut) = Self.owned(SPSCRing(capacity: ringCapacity))
    }

    /// `object` and the unretained reference through which the callback reads it (this context owns it).
    private static func owned<T: AnyObject>(_ object: T) -> (T, Unmanaged<T>) { (object, .passUnretained(object)) }

    /// One period for a backend whose MIDI arrives through the control rings only (ALSA PCM). `periodStart`
    /// is the backend's running frame count, for monitor times. (JACK's callback, which also has MIDI at
    /// frame offsets, is `process(frames:)` in JACK/JackProcessCallback.swift.)
    @_noLocks
    func process(frames: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                 periodStart: UInt32) {
        let period = beginPeriod(periodStart: periodStart)
        var output = PeriodRenderer(left: left, right: right, frames: frames, chunk: maxFrames)
        playEvents(before: frames, &output, period)
        finishPeriod(period, &output)
    }

    /// What a period starts with: its start time, the gates as they are now, the control rings applied.
    struct Period {
        var started: MonotonicInstant
        var midiOpen: Bool
        var audioOpen: Bool
    }

    @_noLocks
    func beginPeriod(periodStart: UInt32) -> Period {
        var midiOpen = false, audioOpen = false
        rtMIDIGate._withUnsafeGuaranteedRef { midiOpen = $0.isOpen }
        rtAudioGate._withUnsafeGuaranteedRef { audioOpen = $0.isOpen }
        let period = Period(started: MonotonicInstant.now(), midiOpen: midiOpen, audioOpen: audioOpen)
        currentPeriodStart = periodStart
        let synth = rtSynth  // a local: a closure that captured `self` would retain it
        rtMuted = rtMixer._withUnsafeGuaranteedRef { $0.apply(to: synth) }
        rtMIDIOut._withUnsafeGuaranteedRef { $0.reset() }
        drain(rtKeyboard, sysexBytes: nil, periodStart: periodStart, midiOpen: period.midiOpen)
        drain(rtALSA, sysexBytes: rtALSASysex, periodStart: periodStart, midiOpen: period.midiOpen)
        drain(rtDemo, sysexBytes: nil, periodStart: periodStart, midiOpen: period.midiOpen)
        return period
    }

    /// Renders up to `frame` of the period while the audio gate is open (before an event at that frame).
    @_noLocks
    func render(_ output: inout PeriodRenderer, upTo frame: Int, _ period: Period) {
        if period.audioOpen { output.render(upTo: frame, rtSynth) }
    }

    /// Renders the rest of the period (or silence while the gate is closed), then meters, capture, statistics.
    @_noLocks
    func finishPeriod(_ period: Period, _ output: inout PeriodRenderer) {
        let left = output.left, right = output.right, frames = output.frames
        if period.audioOpen {
            output.finish(rtSynth)
        } else {
            // A suspended app runs no code: the synth is frozen and the output is silence.
            left.update(repeating: 0, count: frames)
            right.update(repeating: 0, count: frames)
        }
        measure(left: left, right: right, frames: frames)
        let synth = rtSynth
        if period.audioOpen { rtMixer._withUnsafeGuaranteedRef { $0.measure(synth) } }
        var capturing = false
        rtCaptureOn._withUnsafeGuaranteedRef { capturing = $0.isOpenRelaxed }
        if capturing { capture(left: left, right: right, frames: frames) }

        counters.activeVoices.store(rtSynth._withUnsafeGuaranteedRef { $0.activeVoiceCount }, ordering: .relaxed)
        counters.periods.wrappingAdd(1, ordering: .relaxed)
        counters.periodFrames.store(frames, ordering: .relaxed)
        let nanoseconds = MonotonicInstant.now().nanoseconds(since: period.started)
        rtDurations._withUnsafeGuaranteedRef { $0.record(nanoseconds: nanoseconds) }
        counters.recordCallback(nanoseconds: Int(truncatingIfNeeded: nanoseconds))
    }

    /// Hands the period's output to the disk thread; what does not fit is counted, never waited for.
    @_noLocks
    private func capture(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        var pushed = 0
        rtCapture._withUnsafeGuaranteedRef { pushed = pushFrames($0, left: left, right: right, frames: frames) }
        if pushed < frames { counters.captureFramesDropped.wrappingAdd(frames - pushed, ordering: .relaxed) }
    }

    /// Applies a control ring's events at the period's start. `sysexBytes`: the ring where its producer puts
    /// the bytes of the sysex it announces (`ControlEvent.sysex`), nil for producers that send none.
    @_noLocks
    private func drain(_ ring: Unmanaged<SPSCRing<ControlEvent>>, sysexBytes: Unmanaged<SPSCRing<UInt8>>?,
                       periodStart: UInt32, midiOpen: Bool) {
        while true {
            // The closure returns Void and captures only `next`: a generic result or a captured self
            // would cost metadata or retains on this thread.
            var next: ControlEvent?
            ring._withUnsafeGuaranteedRef { next = $0.pop() }
            guard let event = next else { return }
            switch event {
            case let .sysex(length, source):
                deliverQueuedSysex(length: Int(length), from: sysexBytes, source: source, frameTime: periodStart,
                                   midiOpen: midiOpen)
            case let .midi(message, source):
                deliver(message, source: source, frameTime: periodStart, midiOpen: midiOpen, sysexLength: 0, queued: 0)
            case let .parameter(index, value):
                if let parameter = SynthParameter(rawValue: Int(index)) {
                    rtSynth._withUnsafeGuaranteedRef { $0.setParameter(parameter, value) }
                }
            case .releaseAllVoices:
                rtSynth._withUnsafeGuaranteedRef { $0.releaseAllVoices() }
            case .silenceAllVoices:
                rtSynth._withUnsafeGuaranteedRef { $0.silenceAllVoices() }
            }
        }
    }

    /// A sysex whose `length` bytes wait in a producer's sysex ring (pushed before its event): they move to the
    /// monitor's sysex ring, or are consumed and counted when it is full or the gate is closed. While the gate
    /// is open the synth gets the whole message too, gathered on the stack (`SysexScratch`: a sysex longer
    /// than that is none the synth answers, so it only reaches the monitor).
    /// `toSynth` false: the monitor and the outputs only (the player's `--no-synth`).
    @_noLocks
    func deliverQueuedSysex(length: Int, from sysexBytes: Unmanaged<SPSCRing<UInt8>>?, source: MIDISource,
                            frameTime: UInt32, midiOpen: Bool, toSynth: Bool = true) {
        var scratch = SysexScratch(repeating: 0)
        var queued = 0, taken = 0
        if let sysexBytes {
            for _ in 0..<length {
                var next: UInt8?
                sysexBytes._withUnsafeGuaranteedRef { next = $0.pop() }
                guard let byte = next else { break }
                if taken < scratch.count { scratch[taken] = byte }
                taken += 1
                var pushed = false
                if midiOpen { rtSysex._withUnsafeGuaranteedRef { pushed = $0.push(byte) } }
                if pushed { queued += 1 }
            }
        }
        if midiOpen && queued < length { counters.sysexBytesDropped.wrappingAdd(length - queued, ordering: .relaxed) }
        var acted = false
        if midiOpen && toSynth && taken == length && length <= scratch.count {
            let synth = rtSynth // the closure captures this, not self
            withUnsafeMutablePointer(to: &scratch) { storage in
                storage.withMemoryRebound(to: UInt8.self, capacity: length) { start in
                    let message = UnsafeBufferPointer(start: start, count: length)
                    synth._withUnsafeGuaranteedRef { acted = $0.handle(sysex: message) }
                }
            }
        }
        deliver(ShortMessage(status: SystemStatus.exclusive), source: source, frameTime: frameTime, midiOpen: midiOpen,
                sysexLength: UInt32(truncatingIfNeeded: length), queued: UInt32(truncatingIfNeeded: queued),
                sysexIgnored: midiOpen && toSynth && !acted)
    }

    /// One MIDI event of a backend with MIDI in its period (JACK): a complete message (no running status).
    @_noLocks
    func receive(bytes: UnsafeMutablePointer<UInt8>, size: Int, frameTime: UInt32, midiOpen: Bool) {
        let status = bytes[0]
        guard status >= 0x80 else { return }
        if status == SystemStatus.exclusive {
            let message = UnsafeBufferPointer(start: UnsafePointer(bytes), count: size)
            let queued = midiOpen ? rtSysex._withUnsafeGuaranteedRef { $0.push(contentsOf: message) } : 0
            if queued < size && midiOpen { counters.sysexBytesDropped.wrappingAdd(size - queued, ordering: .relaxed) }
            // At its frame, like any message: the callback rendered up to it before calling here.
            var acted = false
            if midiOpen { rtSynth._withUnsafeGuaranteedRef { acted = $0.handle(sysex: message) } }
            deliver(ShortMessage(status: SystemStatus.exclusive), source: .jack, frameTime: frameTime, midiOpen: midiOpen,
                    sysexLength: UInt32(truncatingIfNeeded: size), queued: UInt32(truncatingIfNeeded: queued),
                    sysexIgnored: midiOpen && !acted)
            return
        }
        let message = ShortMessage(status: status, data1: size > 1 ? bytes[1] & 0x7F : 0, data2: size > 2 ? bytes[2] & 0x7F : 0)
        deliver(message, source: .jack, frameTime: frameTime, midiOpen: midiOpen, sysexLength: 0, queued: 0)
    }

    /// A message at `frameTime`, to the synth (unless `toSynth` is false), the monitor and the outputs.
    @_noLocks
    func deliver(_ message: ShortMessage, source: MIDISource, frameTime: UInt32, midiOpen: Bool,
                 sysexLength: UInt32, queued: UInt32, sysexIgnored: Bool = false, toSynth: Bool = true) {
        counters.midiReceived.wrappingAdd(1, ordering: .relaxed)
        if midiOpen {
            // A channel the mixer mutes gets no note-on (its other messages keep its state as the song sets it).
            let mutedChannels = rtMuted, bit = UInt16(1) << UInt16(message.channel)
            let muted = message.kind == .noteOn && message.data2 > 0 && mutedChannels & bit != 0
            if toSynth && !message.isSystemExclusive && !muted { rtSynth._withUnsafeGuaranteedRef { $0.handle(message) } }
        } else {
            counters.midiLost.wrappingAdd(1, ordering: .relaxed)
        }
        var event = MonitorEvent(frameTime: frameTime, message: message, source: source, lost: !midiOpen,
                                 sysexLength: sysexLength, sysexBytesQueued: queued)
        event.sysexIgnored = sysexIgnored
        if !rtUI._withUnsafeGuaranteedRef({ $0.push(.midi(event)) }) { counters.uiRingDrops.wrappingAdd(1, ordering: .relaxed) }
        if midiOpen { send(message, source: source, frameTime: frameTime) }
    }

    /// Queues a delivered message for the MIDI outputs when it is Backbeat's own (keys, piano strip, demo, player) or,
    /// with `midiThru`, incoming; never a message that is already outgoing. Sysex is not sent (its bytes went
    /// to the monitor's ring). The monitor sees it again as source `out`.
    @_noLocks
    private func send(_ message: ShortMessage, source: MIDISource, frameTime: UInt32) {
        guard midiOutActive, !message.isSystemExclusive else { return }
        switch source {
        case .keyboard, .demo, .player: break
        case .jack, .alsa: guard midiThru else { return }
        case .out: return
        }
        var queued = false
        let offset = frameTime &- currentPeriodStart
        rtMIDIOut._withUnsafeGuaranteedRef { queued = $0.append(offset: offset, message) }
        if !queued { counters.midiOutDropped.wrappingAdd(1, ordering: .relaxed); return }
        if alsaOutActive {
            var pushed = false
            rtALSAOut._withUnsafeGuaranteedRef { pushed = $0.push(message) }
            if !pushed { counters.midiOutDropped.wrappingAdd(1, ordering: .relaxed) }
        }
        let event = MonitorEvent(frameTime: frameTime, message: message, source: .out, lost: false)
        if !rtUI._withUnsafeGuaranteedRef({ $0.push(.midi(event)) }) { counters.uiRingDrops.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Per-period peak, sum of squares, K-weighted sum of squares and true peak, for the UI's meters.
    @_noLocks
    private func measure(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        var block = PeriodMeasure(frames: 0, peakLeft: 0, peakRight: 0, sumSquaresLeft: 0, sumSquaresRight: 0)
        rtLoudness._withUnsafeGuaranteedRef {
            block = $0.process(left: UnsafePointer(left), right: UnsafePointer(right), frames: frames)
        }
        if !rtUI._withUnsafeGuaranteedRef({ $0.push(.meter(block)) }) { counters.uiRingDrops.wrappingAdd(1, ordering: .relaxed) }
    }
}

@_noLocks
private func pushFrames(_ ring: SPSCRing<StereoFrame>, left: UnsafeMutablePointer<Float>,
                        right: UnsafeMutablePointer<Float>, frames: Int) -> Int {
    var pushed = 0
    // No `&&` here: its right side is an autoclosure, which would retain the ring.
    while pushed < frames {
        if !ring.push(StereoFrame(left: left[pushed], right: right[pushed])) { break }
        pushed += 1
    }
    return pushed
}

/// Where the real-time thread gathers a queued sysex for the synth: on its stack, no allocation. Holds the
/// longest message the synth answers (`UniversalSystemExclusive`: an MTS bulk tuning dump, 408 bytes).
typealias SysexScratch = InlineArray<512, UInt8>
