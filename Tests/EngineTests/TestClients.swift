import CJack
import Foundation
import MIDI
import Realtime
import Synchronization

/// In-process JACK clients for tests that need what jack_midiseq and jack_rec cannot do: any MIDI message
/// at an exact frame, and a recording whose first sample has a known JACK frame time. Sender and recorder
/// are separate clients so the graph is sender -> backbeat -> recorder, all in the same cycle.
final class TestMIDISender: @unchecked Sendable {
    struct Event { var frame: Int; var bytes: [UInt8] }

    let client: OpaquePointer
    let port: OpaquePointer
    let name: String
    private var events: [Event] = []
    private var next = 0
    /// Frame time of offset 0 of the schedule; set by the callback on the first period after `play`.
    let startFrame = Atomic<Int>(-1)
    private let armed = Atomic<Bool>(false)
    let finished = Atomic<Bool>(false)
    /// Messages to send at the start of the next period (`send`), from the test thread.
    private let immediate = SPSCRing<ShortMessage>(capacity: 256)

    init(server: String, name: String = "sender") throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = backbeat_jack_client_open(name, jack_options_t(rawValue: JackNoStartServer.rawValue), &status, server) else {
            throw HarnessError("test sender: jack_client_open failed (\(status.rawValue))")
        }
        self.client = client
        self.name = String(cString: jack_get_client_name(client))
        guard let port = jack_port_register(client, "out", backbeat_jack_midi_type(), UInt(JackPortIsOutput.rawValue), 0) else {
            throw HarnessError("test sender: port registration failed")
        }
        self.port = port
        jack_set_process_callback(client, { frames, argument in
            Unmanaged<TestMIDISender>.fromOpaque(argument!).takeUnretainedValue().process(frames: frames)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard jack_activate(client) == 0 else { throw HarnessError("test sender: jack_activate failed") }
    }

    /// Schedules `events` (frames relative to the start), starting at the next period.
    func play(_ events: [Event]) {
        self.events = events.sorted { $0.frame < $1.frame }
        next = 0
        finished.store(false, ordering: .releasing)
        startFrame.store(-1, ordering: .releasing)
        armed.store(true, ordering: .releasing)
    }

    /// Sends a three-byte message in the next period (one test thread only).
    func send(_ message: ShortMessage) {
        precondition(immediate.push(message), "test sender ring full")
    }

    private func process(frames: jack_nframes_t) {
        let buffer = jack_port_get_buffer(port, frames)
        jack_midi_clear_buffer(buffer)
        while let message = immediate.pop() {
            var bytes = [message.status, message.data1, message.data2]
            _ = jack_midi_event_write(buffer, 0, &bytes, 3)
        }
        guard armed.load(ordering: .acquiring) else { return }
        let periodStart = Int(jack_last_frame_time(client))
        var start = startFrame.load(ordering: .relaxed)
        if start < 0 { start = periodStart; startFrame.store(start, ordering: .releasing) }
        while next < events.count {
            let at = start + events[next].frame - periodStart
            guard at < Int(frames) else { break }
            let bytes = events[next].bytes
            _ = bytes.withUnsafeBufferPointer { jack_midi_event_write(buffer, jack_nframes_t(max(at, 0)), $0.baseAddress, $0.count) }
            next += 1
        }
        if next >= events.count { finished.store(true, ordering: .releasing) }
    }

    func close() {
        jack_deactivate(client)
        jack_client_close(client)
    }
}

/// Records two audio inputs into preallocated memory, with the JACK frame time of the first sample.
final class TestRecorder: @unchecked Sendable {
    let client: OpaquePointer
    let inputs: [OpaquePointer]
    let name: String
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    let capacity: Int
    let recorded = Atomic<Int>(0)
    let firstFrame = Atomic<Int>(-1)
    private let armed = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(server: String, name: String = "recorder", seconds: Double, rate: Int = 48_000) throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = backbeat_jack_client_open(name, jack_options_t(rawValue: JackNoStartServer.rawValue), &status, server) else {
            throw HarnessError("test recorder: jack_client_open failed (\(status.rawValue))")
        }
        self.client = client
        self.name = String(cString: jack_get_client_name(client))
        inputs = try ["in_L", "in_R"].map { portName in
            guard let port = jack_port_register(client, portName, backbeat_jack_audio_type(), UInt(JackPortIsInput.rawValue), 0) else {
                throw HarnessError("test recorder: port registration failed")
            }
            return port
        }
        capacity = Int(seconds * Double(rate))
        left = .allocate(capacity: capacity)
        right = .allocate(capacity: capacity)
        left.initialize(repeating: 0, count: capacity)
        right.initialize(repeating: 0, count: capacity)
        jack_set_process_callback(client, { frames, argument in
            Unmanaged<TestRecorder>.fromOpaque(argument!).takeUnretainedValue().process(frames: frames)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard jack_activate(client) == 0 else { throw HarnessError("test recorder: jack_activate failed") }
    }

    deinit {
        left.deallocate()
        right.deallocate()
    }

    func start() { armed.store(true, ordering: .releasing) }

    /// Frames recorded so far (a position to analyse from later).
    var position: Int { recorded.load(ordering: .acquiring) }

    private func process(frames: jack_nframes_t) {
        guard armed.load(ordering: .acquiring) else { return }
        let have = recorded.load(ordering: .relaxed)
        guard have < capacity else { return }
        if have == 0 { firstFrame.store(Int(jack_last_frame_time(client)), ordering: .releasing) }
        let count = min(Int(frames), capacity - have)
        let l = jack_port_get_buffer(inputs[0], frames).assumingMemoryBound(to: Float.self)
        let r = jack_port_get_buffer(inputs[1], frames).assumingMemoryBound(to: Float.self)
        (left + have).update(from: l, count: count)
        (right + have).update(from: r, count: count)
        recorded.store(have + count, ordering: .releasing)
        if have + count == capacity { done.signal() }
    }

    /// Waits until the buffer is full (the callback signals it).
    func waitUntilFull(timeout: TimeInterval = 30) throws -> (left: [Float], right: [Float]) {
        if done.wait(timeout: .now() + timeout) == .timedOut { throw HarnessError("recorder did not fill in \(timeout) s") }
        return (Array(UnsafeBufferPointer(start: left, count: capacity)), Array(UnsafeBufferPointer(start: right, count: capacity)))
    }

    func close() {
        jack_deactivate(client)
        jack_client_close(client)
    }
}

extension TestMIDISender.Event {
    static func noteOn(_ frame: Int, _ note: UInt8, _ velocity: UInt8 = 100, channel: UInt8 = 0) -> Self { .init(frame: frame, bytes: [0x90 | channel, note, velocity]) }
    static func noteOff(_ frame: Int, _ note: UInt8, channel: UInt8 = 0) -> Self { .init(frame: frame, bytes: [0x80 | channel, note, 0]) }
    static func cc(_ frame: Int, _ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) -> Self { .init(frame: frame, bytes: [0xB0 | channel, controller, value]) }
    /// `value` in -8192...8191.
    static func bend(_ frame: Int, _ value: Int, channel: UInt8 = 0) -> Self {
        let raw = UInt16(value + 8192)
        return .init(frame: frame, bytes: [0xE0 | channel, UInt8(raw & 0x7F), UInt8(raw >> 7)])
    }
}
