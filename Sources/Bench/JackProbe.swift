// Measurement clients: a MIDI sender that plays messages at exact frames and a recorder whose first sample
// has a known frame time. Wired sender -> device under test -> recorder, they measure in one JACK cycle
// what a note-on at frame k does to the output (latency, onset, pitch). Used by `backbeat bench` and the
// integration tests. Their callbacks follow the same real-time rules as Backbeat's own.
import CJack
import Engine
import MIDI
import Realtime
import Synchronization

/// One message of up to 8 bytes at a frame offset from the start of a schedule.
public struct ProbeEvent: Sendable, BitwiseCopyable {
    public var frame: Int
    public var count: Int
    public var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    public init(frame: Int, bytes: [UInt8]) {
        precondition(bytes.count <= 8, "a probe event carries at most 8 bytes")
        self.frame = frame
        count = bytes.count
        var fixed: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &fixed) { raw in for (i, byte) in bytes.enumerated() { raw[i] = byte } }
        self.bytes = fixed
    }

    public static func noteOn(_ frame: Int, _ note: UInt8, _ velocity: UInt8 = 100, channel: UInt8 = 0) -> Self { .init(frame: frame, bytes: [MessageKind.noteOn.status(channel: channel), note, velocity]) }
    public static func noteOff(_ frame: Int, _ note: UInt8, channel: UInt8 = 0) -> Self { .init(frame: frame, bytes: [MessageKind.noteOff.status(channel: channel), note, 0]) }
    public static func cc(_ frame: Int, _ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) -> Self { .init(frame: frame, bytes: [MessageKind.controlChange.status(channel: channel), controller, value]) }
    public static func cc(_ frame: Int, _ controller: Controller, _ value: UInt8, channel: UInt8 = 0) -> Self {
        cc(frame, controller.rawValue, value, channel: channel)
    }
    /// A universal sysex (at most 8 bytes: master volume is the longest Backbeat names).
    public static func sysex(_ frame: Int, _ message: UniversalSystemExclusive) -> Self { .init(frame: frame, bytes: message.bytes()) }
    /// `value` in -8192...8191.
    public static func bend(_ frame: Int, _ value: Int, channel: UInt8 = 0) -> Self {
        let raw = UInt16(clamping: value + 8192)
        return .init(frame: frame, bytes: [MessageKind.pitchBend.status(channel: channel), UInt8(raw & 0x7F), UInt8(raw >> 7)])
    }
}

/// Plays a schedule of MIDI events at exact frames, and single messages "now" (next period).
public final class ProbeMIDISender: @unchecked Sendable {
    public let client: JackClient
    public let port: OpaquePointer
    /// `client.handle`, for the process callback.
    private let clientHandle: OpaquePointer
    /// The client's name as JACK gave it (its port is "NAME:out").
    public let name: String
    private let capacity = 4096
    private let schedule: FixedArray<ProbeEvent>
    @exclusivity(unchecked) private var scheduled = 0
    @exclusivity(unchecked) private var next = 0
    private let immediate = SPSCRing<ShortMessage>(capacity: 256)
    private let rtImmediate: Unmanaged<SPSCRing<ShortMessage>>
    private let armed = Atomic<Bool>(false)
    /// JACK frame time of offset 0 of the schedule; -1 until the first period after `play`.
    public let startFrame = Atomic<Int>(-1)
    public let finished = Atomic<Bool>(false)

    public init(server: String, name: String = "probe-out") throws {
        client = try JackClient(name: name, server: server)
        clientHandle = client.handle
        self.name = client.name
        port = try client.registerPort("out", kind: .midi, input: false)
        schedule = FixedArray(zeroed: capacity)
        rtImmediate = .passUnretained(immediate)
        client.setProcessCallback(probeSenderCallback, argument: Unmanaged.passUnretained(self).toOpaque())
        try client.activate()
    }

    /// Schedules `events` (frames relative to the start), starting at the next period. Call once.
    public func play(_ events: [ProbeEvent]) {
        precondition(!armed.load(ordering: .acquiring), "a probe sender plays one schedule")
        let sorted = events.sorted { $0.frame < $1.frame }.prefix(capacity)
        for (i, event) in sorted.enumerated() { schedule[i] = event }
        scheduled = sorted.count
        armed.store(true, ordering: .releasing)
    }

    /// Sends a message in the next period (from one thread).
    public func send(_ message: ShortMessage) -> Bool { immediate.push(message) }

    @_noLocks
    fileprivate func process(frames: Int) {
        let buffer = backbeat_rt_port_buffer(port, jack_nframes_t(frames))
        backbeat_rt_midi_clear_buffer(buffer)
        while true {
            var message: ShortMessage?
            rtImmediate._withUnsafeGuaranteedRef { message = $0.pop() }
            guard var bytes = message else { break }
            _ = withUnsafeBytes(of: &bytes) { raw in
                backbeat_rt_midi_event_write(buffer, 0, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 3)
            }
        }
        guard armed.load(ordering: .acquiring) else { return }
        let periodStart = Int(backbeat_rt_last_frame_time(clientHandle))
        var start = startFrame.load(ordering: .relaxed)
        if start < 0 {
            start = periodStart
            startFrame.store(start, ordering: .releasing)
        }
        while next < scheduled {
            var event = schedule[next]
            let at = start + event.frame - periodStart
            if at >= frames { break }
            _ = withUnsafeBytes(of: &event.bytes) { raw in
                backbeat_rt_midi_event_write(buffer, jack_nframes_t(max(at, 0)), raw.baseAddress!.assumingMemoryBound(to: UInt8.self), event.count)
            }
            next += 1
        }
        if next >= scheduled { finished.store(true, ordering: .releasing) }
    }

    public func close() { client.close() }
}

@_noLocks
private func probeSenderCallback(_ frames: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let argument else { return 0 }
    Unmanaged<ProbeMIDISender>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.process(frames: Int(frames)) }
    return 0
}

/// Records two audio inputs ("NAME:in_L", "NAME:in_R") into preallocated memory, noting the JACK frame
/// time of the first sample.
public final class ProbeRecorder: @unchecked Sendable {
    public let client: JackClient
    private let clientHandle: OpaquePointer
    public let name: String
    /// The input ports, and what each recorded: `capacity` samples.
    private let inLeft, inRight: OpaquePointer
    private let left, right: FixedArray<Float>
    public let capacity: Int
    public let recorded = Atomic<Int>(0)
    public let firstFrame = Atomic<Int>(-1)
    private let armed = Atomic<Bool>(false)
    private let full = Atomic<Bool>(false)

    public init(server: String, name: String = "probe-in", seconds: Double, sampleRate: Int = 48_000) throws {
        client = try JackClient(name: name, server: server)
        clientHandle = client.handle
        self.name = client.name
        inLeft = try client.registerPort("in_L", kind: .audio, input: true)
        inRight = try client.registerPort("in_R", kind: .audio, input: true)
        capacity = Int(seconds * Double(sampleRate))
        left = FixedArray(capacity, 0)
        right = FixedArray(capacity, 0)
        client.setProcessCallback(probeRecorderCallback, argument: Unmanaged.passUnretained(self).toOpaque())
        try client.activate()
    }

    public func start() { armed.store(true, ordering: .releasing) }

    /// Frames recorded so far.
    public var position: Int { recorded.load(ordering: .acquiring) }

    /// Waits until the first period after `start()` has been recorded, so that whatever is played from
    /// now on lands inside the recording: a starved machine can make the recorder miss the period in which
    /// it was started, and a sender started right after it would then begin a period earlier than the
    /// recording. Polls every millisecond (the callback may not signal a semaphore).
    public func waitUntilStarted(timeout: Duration = .seconds(10)) throws {
        let deadline = ContinuousClock.now + timeout
        while firstFrame.load(ordering: .acquiring) < 0 {
            if ContinuousClock.now > deadline { throw BenchError.recorderTimedOut(timeout: timeout) }
            usleepMilliseconds(1)
        }
    }

    /// Each period lands at its own frame time's place, so a cycle lost to an xrun leaves a gap of
    /// silence instead of shifting everything after it.
    @_noLocks
    fileprivate func process(frames: Int) {
        guard armed.load(ordering: .acquiring), !full.load(ordering: .relaxed) else { return }
        let now = Int(backbeat_rt_last_frame_time(clientHandle))
        var first = firstFrame.load(ordering: .relaxed)
        if first < 0 {
            first = now
            firstFrame.store(now, ordering: .releasing)
        }
        let at = now &- first
        guard at >= 0, at < capacity else {
            full.store(true, ordering: .releasing)
            return
        }
        let count = min(frames, capacity - at)
        let l = backbeat_rt_port_buffer(inLeft, jack_nframes_t(frames)).assumingMemoryBound(to: Float.self)
        let r = backbeat_rt_port_buffer(inRight, jack_nframes_t(frames)).assumingMemoryBound(to: Float.self)
        UnsafeMutableRawPointer(left.baseAddress + at).copyMemory(from: l, byteCount: count * 4)
        UnsafeMutableRawPointer(right.baseAddress + at).copyMemory(from: r, byteCount: count * 4)
        recorded.store(at + count, ordering: .releasing)
        if at + count == capacity { full.store(true, ordering: .releasing) }
    }

    /// Waits until the buffer is full. The callback sets a flag; this polls it every 10 ms, as the
    /// callback may not signal a semaphore (that could wake a thread from the real-time thread).
    public func waitUntilFull(timeout: Duration = .seconds(60)) throws -> (left: [Float], right: [Float]) {
        let deadline = ContinuousClock.now + timeout
        while !full.load(ordering: .acquiring) {
            if ContinuousClock.now > deadline { throw BenchError.recorderTimedOut(timeout: timeout) }
            usleepMilliseconds(10)
        }
        return (Array(left.buffer), Array(right.buffer))
    }

    public func close() { client.close() }
}

@_noLocks
private func probeRecorderCallback(_ frames: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let argument else { return 0 }
    Unmanaged<ProbeRecorder>.fromOpaque(argument)._withUnsafeGuaranteedRef { $0.process(frames: Int(frames)) }
    return 0
}
