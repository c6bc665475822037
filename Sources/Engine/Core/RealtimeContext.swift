// The JACK process callback and everything it calls. Real-time rules: no allocation, no
// locks, no I/O, no framework calls, no existentials, no ARC traffic; every function here is @_noLocks and the
// release build checks it. Nothing here is created or freed while the callback can run.
import CJack
import DSP
import MIDI
import Realtime
import Synchronization

/// The JACK ports a callback reads and writes. Replaced only while no client is active.
struct JackPorts: BitwiseCopyable {
    var client: OpaquePointer
    var midiIn: OpaquePointer
    var outLeft: OpaquePointer
    var outRight: OpaquePointer
}

/// Counters the callback writes and the rest of Backbeat reads (relaxed: they are statistics).
public struct EngineCounters: ~Copyable, Sendable {
    public let midiReceived = Atomic<Int>(0)
    public let midiLost = Atomic<Int>(0)
    public let uiRingDrops = Atomic<Int>(0)
    public let sysexBytesDropped = Atomic<Int>(0)
    public let xruns = Atomic<Int>(0)
    public let periods = Atomic<Int>(0)
    /// Duration of the last callback and the longest since the last `takeMaxCallbackNanos`, in ns.
    public let lastCallbackNanos = Atomic<Int>(0)
    public let maxCallbackNanos = Atomic<Int>(0)
    public let activeVoices = Atomic<Int>(0)
    /// Frames the capture ring had no room for (the disk thread fell behind).
    public let captureFramesDropped = Atomic<Int>(0)
    public init() {}
}

/// Everything the callback touches, prepared before `jack_activate` and released after the client closes.
final class RealtimeContext: @unchecked Sendable {
    let synth: Synth
    /// One ring per non-JACK producer (single producer each).
    let keyboardRing: SPSCRing<ControlEvent>
    let alsaRing: SPSCRing<ControlEvent>
    let demoRing: SPSCRing<ControlEvent>
    let uiRing: SPSCRing<EngineEvent>
    let sysexRing: SPSCRing<UInt8>
    /// Backbeat's output while capture is on, for the disk thread (never written from this thread to disk).
    let captureRing: SPSCRing<StereoFrame>
    let captureOn = Atomic<Bool>(false)
    /// Every period's callback duration, filled on the RT thread without allocating (p99.9 for the soak).
    let callbackDurations = LatencyHistogram()
    private let rtDurations: Unmanaged<LatencyHistogram>
    /// The same objects, for the callback: reached through `_withUnsafeGuaranteedRef`, so no retain/release.
    /// `self` keeps them alive.
    private let rtSynth: Unmanaged<Synth>
    private let rtKeyboard: Unmanaged<SPSCRing<ControlEvent>>
    private let rtALSA: Unmanaged<SPSCRing<ControlEvent>>
    private let rtDemo: Unmanaged<SPSCRing<ControlEvent>>
    private let rtUI: Unmanaged<SPSCRing<EngineEvent>>
    private let rtSysex: Unmanaged<SPSCRing<UInt8>>
    private let rtCapture: Unmanaged<SPSCRing<StereoFrame>>
    /// K-weighting and true-peak state for `measure` (prepared with the synth, before activation).
    let loudness: LoudnessProcessor
    private let rtLoudness: Unmanaged<LoudnessProcessor>
    let counters = EngineCounters()
    /// Lifecycle gates: open = delivered / playing. Written by the lifecycle simulator's owner.
    let midiGate: Atomic<Bool>
    let audioGate: Atomic<Bool>
    /// Set by JACK's shutdown callback; the supervisor reacts.
    let serverGone = Atomic<Bool>(false)
    /// The most frames the synth was prepared for; longer periods render in chunks.
    @exclusivity(unchecked) var maxFrames = 1024
    /// Set while no client owns the ports; written only while the callback cannot run.
    @exclusivity(unchecked) var ports: JackPorts?
    /// ALSA sequencer sysex bytes (producer: the ALSA reader thread), moved to `sysexRing` when their
    /// header arrives through `alsaRing` (see `ALSASequencer`).
    let alsaSysexRing: SPSCRing<UInt8>
    private let rtALSASysex: Unmanaged<SPSCRing<UInt8>>

    init(synth: Synth, ringCapacity: Int = 4096, uiRingCapacity: Int = 16384, sysexCapacity: Int = 1 << 16,
         captureCapacity: Int = 1 << 19) {
        self.synth = synth
        keyboardRing = SPSCRing(capacity: ringCapacity)
        alsaRing = SPSCRing(capacity: ringCapacity)
        demoRing = SPSCRing(capacity: ringCapacity)
        uiRing = SPSCRing(capacity: uiRingCapacity)
        sysexRing = SPSCRing(capacity: sysexCapacity)
        captureRing = SPSCRing(capacity: captureCapacity)
        rtSynth = .passUnretained(synth)
        rtKeyboard = .passUnretained(keyboardRing)
        rtALSA = .passUnretained(alsaRing)
        rtDemo = .passUnretained(demoRing)
        rtUI = .passUnretained(uiRing)
        rtSysex = .passUnretained(sysexRing)
        rtCapture = .passUnretained(captureRing)
        rtDurations = .passUnretained(callbackDurations)
        loudness = LoudnessProcessor()
        rtLoudness = .passUnretained(loudness)
        midiGate = Atomic(true)
        audioGate = Atomic(true)
        alsaSysexRing = SPSCRing(capacity: sysexCapacity)
        rtALSASysex = .passUnretained(alsaSysexRing)
    }

    /// One JACK period. Control rings first (at frame 0), then JACK MIDI at its frame offsets: the synth
    /// renders up to each event's frame, so an event at offset k changes the sound at frame k.
    @_noLocks
    func process(frames: Int) {
        guard let ports = ports else { return }
        let outLeft = backbeat_rt_port_buffer(ports.outLeft, jack_nframes_t(frames)).assumingMemoryBound(to: Float.self)
        let outRight = backbeat_rt_port_buffer(ports.outRight, jack_nframes_t(frames)).assumingMemoryBound(to: Float.self)
        let midiBuffer = backbeat_rt_port_buffer(ports.midiIn, jack_nframes_t(frames))
        let periodStart = backbeat_rt_last_frame_time(ports.client)
        let period = beginPeriod(periodStart: periodStart)

        var rendered = 0
        let count = backbeat_rt_midi_event_count(midiBuffer)
        var index: UInt32 = 0
        while index < count {
            var event = jack_midi_event_t()
            if backbeat_rt_midi_event_get(&event, midiBuffer, index) == 0, event.size > 0, let bytes = event.buffer {
                let at = min(Int(event.time), frames)
                if period.audioOpen && at > rendered {
                    render(left: outLeft, right: outRight, from: rendered, to: at)
                    rendered = at
                }
                receive(bytes: bytes, size: event.size, frameTime: periodStart &+ event.time, midiOpen: period.midiOpen)
            }
            index += 1
        }
        finishPeriod(period, left: outLeft, right: outRight, frames: frames, rendered: rendered)
    }

    /// One period for a backend without JACK (ALSA PCM): its MIDI arrives through the control rings only.
    /// `periodStart` is the backend's running frame count, for monitor times.
    @_noLocks
    func processWithoutJack(frames: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                            periodStart: UInt32) {
        let period = beginPeriod(periodStart: periodStart)
        finishPeriod(period, left: left, right: right, frames: frames, rendered: 0)
    }

    /// What a period starts with: its start time, the gates as they are now, the control rings applied.
    struct Period {
        var started: MonotonicInstant
        var midiOpen: Bool
        var audioOpen: Bool
    }

    @_noLocks
    private func beginPeriod(periodStart: UInt32) -> Period {
        let period = Period(started: MonotonicInstant.now(), midiOpen: midiGate.load(ordering: .acquiring),
                            audioOpen: audioGate.load(ordering: .acquiring))
        drain(rtKeyboard, periodStart: periodStart, midiOpen: period.midiOpen)
        drain(rtALSA, periodStart: periodStart, midiOpen: period.midiOpen)
        drain(rtDemo, periodStart: periodStart, midiOpen: period.midiOpen)
        return period
    }

    /// Renders the rest of the period (or silence while the gate is closed), then meters, capture, statistics.
    @_noLocks
    private func finishPeriod(_ period: Period, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                              frames: Int, rendered: Int) {
        if period.audioOpen {
            if rendered < frames { render(left: left, right: right, from: rendered, to: frames) }
        } else {
            // A suspended app runs no code: the synth is frozen and the output is silence.
            left.update(repeating: 0, count: frames)
            right.update(repeating: 0, count: frames)
        }
        measure(left: left, right: right, frames: frames)
        if captureOn.load(ordering: .relaxed) { capture(left: left, right: right, frames: frames) }

        counters.activeVoices.store(rtSynth._withUnsafeGuaranteedRef { $0.activeVoiceCount }, ordering: .relaxed)
        counters.periods.wrappingAdd(1, ordering: .relaxed)
        let nanoseconds = MonotonicInstant.now().nanoseconds(since: period.started)
        rtDurations._withUnsafeGuaranteedRef { $0.record(nanoseconds: nanoseconds) }
        let elapsed = Int(truncatingIfNeeded: nanoseconds)
        counters.lastCallbackNanos.store(elapsed, ordering: .relaxed)
        if elapsed > counters.maxCallbackNanos.load(ordering: .relaxed) {
            counters.maxCallbackNanos.store(elapsed, ordering: .relaxed)
        }
    }

    /// Hands the period's output to the disk thread; what does not fit is counted, never waited for.
    @_noLocks
    private func capture(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        var pushed = 0
        rtCapture._withUnsafeGuaranteedRef { pushed = pushFrames($0, left: left, right: right, frames: frames) }
        if pushed < frames { counters.captureFramesDropped.wrappingAdd(frames - pushed, ordering: .relaxed) }
    }

    /// Renders frames [from, to) in chunks the synth was prepared for.
    @_noLocks
    private func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, from: Int, to: Int) {
        var position = from
        while position < to {
            let count = min(to - position, maxFrames)
            rtSynth._withUnsafeGuaranteedRef { $0.render(left: left + position, right: right + position, frames: count) }
            position += count
        }
    }

    @_noLocks
    private func drain(_ ring: Unmanaged<SPSCRing<ControlEvent>>, periodStart: UInt32, midiOpen: Bool) {
        while true {
            // The closure returns Void and captures only `next`: a generic result or a captured self
            // would cost metadata or retains on this thread.
            var next: ControlEvent?
            ring._withUnsafeGuaranteedRef { next = $0.pop() }
            guard let event = next else { return }
            switch event {
            case let .midi(header, .alsa) where header.status == 0xF0:
                deliverALSASysex(length: Int(header.data1) | Int(header.data2) << 8, frameTime: periodStart, midiOpen: midiOpen)
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

    /// An ALSA sysex: its `length` bytes wait in the ALSA sysex ring (pushed before its header); they move to
    /// the monitor's sysex ring, or are consumed and counted when it is full or the gate is closed.
    @_noLocks
    private func deliverALSASysex(length: Int, frameTime: UInt32, midiOpen: Bool) {
        var queued = 0
        for _ in 0..<length {
            var next: UInt8?
            rtALSASysex._withUnsafeGuaranteedRef { next = $0.pop() }
            guard let byte = next else { break }
            var pushed = false
            if midiOpen { rtSysex._withUnsafeGuaranteedRef { pushed = $0.push(byte) } }
            if pushed { queued += 1 }
        }
        if midiOpen && queued < length { counters.sysexBytesDropped.wrappingAdd(length - queued, ordering: .relaxed) }
        deliver(ShortMessage(status: 0xF0), source: .alsa, frameTime: frameTime, midiOpen: midiOpen,
                sysexLength: UInt32(truncatingIfNeeded: length), queued: UInt32(truncatingIfNeeded: queued))
    }

    /// One JACK MIDI event: a complete message (JACK MIDI carries no running status).
    @_noLocks
    private func receive(bytes: UnsafeMutablePointer<jack_midi_data_t>, size: Int, frameTime: UInt32, midiOpen: Bool) {
        let status = bytes[0]
        guard status >= 0x80 else { return }
        if status == 0xF0 {
            let queued = midiOpen
                ? rtSysex._withUnsafeGuaranteedRef { $0.push(contentsOf: UnsafeBufferPointer(start: bytes, count: size)) } : 0
            if queued < size && midiOpen { counters.sysexBytesDropped.wrappingAdd(size - queued, ordering: .relaxed) }
            deliver(ShortMessage(status: 0xF0), source: .jack, frameTime: frameTime, midiOpen: midiOpen,
                    sysexLength: UInt32(truncatingIfNeeded: size), queued: UInt32(truncatingIfNeeded: queued))
            return
        }
        let message = ShortMessage(status: status, data1: size > 1 ? bytes[1] & 0x7F : 0, data2: size > 2 ? bytes[2] & 0x7F : 0)
        deliver(message, source: .jack, frameTime: frameTime, midiOpen: midiOpen, sysexLength: 0, queued: 0)
    }

    @_noLocks
    private func deliver(_ message: ShortMessage, source: MIDISource, frameTime: UInt32, midiOpen: Bool,
                         sysexLength: UInt32, queued: UInt32) {
        counters.midiReceived.wrappingAdd(1, ordering: .relaxed)
        if midiOpen {
            if message.status != 0xF0 { rtSynth._withUnsafeGuaranteedRef { $0.handle(message) } }
        } else {
            counters.midiLost.wrappingAdd(1, ordering: .relaxed)
        }
        let event = MonitorEvent(frameTime: frameTime, message: message, source: source, lost: !midiOpen,
                                 sysexLength: sysexLength, sysexBytesQueued: queued)
        if !rtUI._withUnsafeGuaranteedRef({ $0.push(.midi(event)) }) { counters.uiRingDrops.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Per-period peak, sum of squares, K-weighted sum of squares and true peak, for the UI's meters.
    @_noLocks
    private func measure(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        var block = MeterBlock(frames: 0, peakLeft: 0, peakRight: 0, sumSquaresLeft: 0, sumSquaresRight: 0)
        rtLoudness._withUnsafeGuaranteedRef {
            block = $0.process(left: UnsafePointer(left), right: UnsafePointer(right), frames: frames)
        }
        if !rtUI._withUnsafeGuaranteedRef({ $0.push(.meter(block)) }) { counters.uiRingDrops.wrappingAdd(1, ordering: .relaxed) }
    }
}

/// JACK's process callback: a free function, outside any actor, reaching the context without retain/release.
@_noLocks
func backbeatProcessCallback(_ frames: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let argument else { return 0 }
    Unmanaged<RealtimeContext>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.process(frames: Int(frames)) }
    return 0
}

/// JACK's xrun callback (called on JACK's thread): count only.
@_noLocks
func backbeatXrunCallback(_ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let argument else { return 0 }
    _ = Unmanaged<RealtimeContext>.fromOpaque(argument)._withUnsafeGuaranteedRef {
        $0.counters.xruns.wrappingAdd(1, ordering: .relaxed)
    }
    return 0
}

/// JACK's shutdown callback (the server went away): flag it for the supervisor.
func backbeatShutdownCallback(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<RealtimeContext>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.serverGone.store(true, ordering: .releasing) }
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
