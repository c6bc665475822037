import Foundation
import MIDI
import Realtime

/// Plays `DemoSequencer` in real time into the engine's demo ring (source `.demo`), on a thread of its own
/// that sleeps until the next message is due. `start` and `stop` may be called from any thread; `stop`
/// returns after the thread has sent its note-offs and ended, so the ring keeps a single producer.
public final class DemoPlayer: @unchecked Sendable {
    private let ring: SPSCRing<ControlEvent>
    public let bpm: Double
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var stopRequested = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    public init(ring: SPSCRing<ControlEvent>, bpm: Double = 120) {
        self.ring = ring
        self.bpm = bpm
    }

    deinit { stop() }

    public var isPlaying: Bool {
        condition.lock(); defer { condition.unlock() }
        return thread != nil
    }

    /// Starts the loop from its beginning; does nothing when it already plays.
    public func start() {
        condition.lock(); defer { condition.unlock() }
        guard thread == nil else { return }
        stopRequested = false
        let thread = Thread { [self] in play() }
        thread.name = "backbeat-demo"
        self.thread = thread
        thread.start()
    }

    /// Stops the loop (note-offs for everything sounding, then MIDI Stop) and waits for the thread to end.
    public func stop() {
        condition.lock()
        guard thread != nil else { condition.unlock(); return }
        stopRequested = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
        condition.lock()
        thread = nil
        condition.unlock()
    }

    private func play() {
        var sequencer = DemoSequencer(bpm: bpm)
        let origin = ContinuousClock.now
        func elapsed() -> Double {
            let d = ContinuousClock.now - origin
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        while true {
            for message in sequencer.advance(to: elapsed()) { send(message, patient: false) }
            let wait = sequencer.nextEventSeconds - elapsed()
            condition.lock()
            if !stopRequested && wait > 0 {
                _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
            }
            let stopping = stopRequested
            condition.unlock()
            if stopping { break }
        }
        for message in sequencer.stop() { send(message, patient: true) }
        finished.signal()
    }

    /// A full ring drops (and counts) a message; note-offs at the end wait a little for room instead, so no
    /// note is left hanging while the engine runs.
    private func send(_ message: ShortMessage, patient: Bool) {
        var attempts = 0
        while !ring.push(.midi(message, .demo)) {
            attempts += 1
            guard patient && attempts < 50 else { return }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }
}
