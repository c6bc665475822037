// Proof that another module can call the ring from real-time code: these @_noLocks functions use only
// Realtime's public API on a concrete SPSCRing<struct>, so the compiler specializes the @inlinable ring
// methods here and checks the specialized bodies (no locks, allocation, ARC or metadata). Building this
// target fails if a change to the ring breaks that; the test below also runs them.
import Realtime
import Testing

/// A 16-byte message like the engine's MIDI events.
struct WireMessage: BitwiseCopyable, Equatable {
    var frame: UInt32
    var bytes: (UInt8, UInt8, UInt8, UInt8)
    var sequence: UInt64

    static func == (lhs: WireMessage, rhs: WireMessage) -> Bool {
        lhs.frame == rhs.frame && lhs.sequence == rhs.sequence && lhs.bytes.0 == rhs.bytes.0
            && lhs.bytes.1 == rhs.bytes.1 && lhs.bytes.2 == rhs.bytes.2 && lhs.bytes.3 == rhs.bytes.3
    }
}

@_noLocks
func realtimeProducer(_ ring: SPSCRing<WireMessage>, _ message: WireMessage,
                      _ batch: UnsafeBufferPointer<WireMessage>) -> Int {
    let one = ring.push(message) ? 1 : 0
    return one &+ ring.push(contentsOf: batch)
}

@_noLocks
func realtimeConsumer(_ ring: SPSCRing<WireMessage>, _ batch: UnsafeMutableBufferPointer<WireMessage>) -> Int {
    let one = ring.pop() == nil ? 0 : 1
    return one &+ ring.pop(into: batch)
}

@_noLocks
func realtimeObserver(_ ring: SPSCRing<WireMessage>) -> Int {
    ring.count &+ ring.overruns &+ ring.capacity &+ (ring.isEmpty ? 1 : 0)
}

/// The engine's pattern: the JACK process callback gets its context as a raw pointer.
@_noLocks
func realtimeProcessCallback(_ context: UnsafeMutableRawPointer, _ message: WireMessage) -> Bool {
    Unmanaged<SPSCRing<WireMessage>>.fromOpaque(context)._withUnsafeGuaranteedRef { ring in
        ring.push(message)
    }
}

@_noLocks
func realtimeHelpers(_ gate: AtomicGate, _ counter: AtomicCounter, _ histogram: LatencyHistogram) {
    let start = MonotonicInstant.now()
    if gate.isOpen { counter.increment() }
    histogram.record(since: start)
}

@Test func noLocksFunctionsInAnotherModuleMoveMessages() {
    let ring = SPSCRing<WireMessage>(capacity: 8)
    let message = WireMessage(frame: 7, bytes: (0x90, 60, 100, 0), sequence: 1)
    let batch = [WireMessage](repeating: message, count: 3)
    #expect(batch.withUnsafeBufferPointer { realtimeProducer(ring, message, $0) } == 4)
    #expect(realtimeProcessCallback(Unmanaged.passUnretained(ring).toOpaque(), message))
    #expect(realtimeObserver(ring) == 5 + 0 + 8 + 0)
    var out = [WireMessage](repeating: WireMessage(frame: 0, bytes: (0, 0, 0, 0), sequence: 0), count: 8)
    #expect(out.withUnsafeMutableBufferPointer { realtimeConsumer(ring, $0) } == 5)
    #expect(out[0] == message)

    let gate = AtomicGate(open: true), counter = AtomicCounter(), histogram = LatencyHistogram()
    realtimeHelpers(gate, counter, histogram)
    #expect(counter.load() == 1 && histogram.count == 1)
}
