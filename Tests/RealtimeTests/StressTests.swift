// Two threads, one ring, millions of items: order and integrity under real concurrency. Run under the
// thread sanitizer too (scripts/test), where it proves the acquire/release protocol has no data race.
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Realtime

/// 16 bytes: a sequence number and a payload derived from it, so a torn or stale slot shows.
struct StressMessage: BitwiseCopyable {
    var sequence: UInt64
    var payload: UInt64
    init(_ sequence: UInt64) {
        self.sequence = sequence
        payload = StressMessage.payload(for: sequence)
    }
    static func payload(for sequence: UInt64) -> UInt64 {
        // splitmix64 finalizer: every bit depends on every bit of the sequence number.
        var z = sequence &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// The threads call the ring through these concrete @_noLocks functions, as the engine will. Besides
// checking them, that makes the compiler specialize the ring's generic methods into this (sanitized)
// module even in debug builds: unspecialized, a slot copy goes through the runtime's value witnesses,
// whose plain loads and stores the thread sanitizer cannot see.
@_noLocks func stressPush(_ ring: SPSCRing<StressMessage>, _ message: StressMessage) -> Bool { ring.push(message) }
@_noLocks func stressPop(_ ring: SPSCRing<StressMessage>) -> StressMessage? { ring.pop() }
@_noLocks func stressPush(_ ring: SPSCRing<StressMessage>, contentsOf batch: UnsafeBufferPointer<StressMessage>) -> Int {
    ring.push(contentsOf: batch)
}
@_noLocks func stressPop(_ ring: SPSCRing<StressMessage>, into batch: UnsafeMutableBufferPointer<StressMessage>) -> Int {
    ring.pop(into: batch)
}

/// Items per stress run: 10 million, or BACKBEAT_STRESS_ITEMS.
let stressItems: UInt64 = {
    if let text = getenv("BACKBEAT_STRESS_ITEMS"), let value = UInt64(String(cString: text)) { return value }
    return 10_000_000
}()

/// Runs `body` on a new POSIX thread; `join` waits for it.
final class POSIXThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            let me = Unmanaged<POSIXThread>.fromOpaque(context!).takeRetainedValue()
            me.body()
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
    }
    func join() { pthread_join(thread, nil) }
}

struct StressResult: Sendable {
    var received: UInt64 = 0
    var checksum: UInt64 = 0
    var outOfOrder: UInt64 = 0
    var corrupt: UInt64 = 0
}

/// Producer sends 0..<items in order (batches of 1...maxBatch, retrying when full); consumer checks each
/// item's sequence and payload and checksums them.
func runStress(items: UInt64, capacity: Int, maxBatch: Int) -> (sent: UInt64, failedPushes: UInt64,
                                                                 result: StressResult, overruns: Int) {
    let ring = SPSCRing<StressMessage>(capacity: capacity)
    let failed = Box(UInt64(0)), sentChecksum = Box(UInt64(0)), result = Box(StressResult())

    let producer = POSIXThread {
        var next: UInt64 = 0, checksum: UInt64 = 0, failures: UInt64 = 0
        var batch = [StressMessage](repeating: StressMessage(0), count: maxBatch)
        var batchSize = 1
        while next < items {
            if maxBatch == 1 {
                if stressPush(ring, StressMessage(next)) {
                    checksum = checksum &+ StressMessage.payload(for: next)
                    next += 1
                } else {
                    failures += 1
                    sched_yield()
                }
                continue
            }
            batchSize = batchSize % maxBatch + 1  // 1, 2, ..., maxBatch, 1, ...
            let count = Int(min(UInt64(batchSize), items - next))
            for i in 0..<count { batch[i] = StressMessage(next + UInt64(i)) }
            let pushed = batch.withUnsafeBufferPointer { stressPush(ring, contentsOf: .init(rebasing: $0[0..<count])) }
            for i in 0..<pushed { checksum = checksum &+ batch[i].payload }
            next += UInt64(pushed)
            if pushed < count {
                failures += UInt64(count - pushed)
                sched_yield()
            }
        }
        failed.value = failures
        sentChecksum.value = checksum
    }
    let consumer = POSIXThread {
        var r = StressResult()
        var buffer = [StressMessage](repeating: StressMessage(0), count: max(1, maxBatch - 1))
        func check(_ message: StressMessage) {
            if message.sequence != r.received { r.outOfOrder += 1 }
            if message.payload != StressMessage.payload(for: message.sequence) { r.corrupt += 1 }
            r.checksum = r.checksum &+ message.payload
            r.received += 1
        }
        while r.received < items {
            if maxBatch == 1 {
                if let message = stressPop(ring) { check(message) } else { sched_yield() }
            } else {
                let moved = buffer.withUnsafeMutableBufferPointer { stressPop(ring, into: $0) }
                for i in 0..<moved { check(buffer[i]) }
                if moved == 0 { sched_yield() }
            }
        }
        result.value = r
    }
    producer.join()
    consumer.join()
    #expect(sentChecksum.value == result.value.checksum)
    return (items, failed.value, result.value, ring.overruns)
}

/// A value handed between threads; pthread_join orders the write before the read.
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

@Test(arguments: [(capacity: 1024, maxBatch: 1), (capacity: 64, maxBatch: 1),
                  (capacity: 1024, maxBatch: 37), (capacity: 16, maxBatch: 7)])
func twoThreadStressKeepsOrderAndIntegrity(capacity: Int, maxBatch: Int) {
    // The first configuration carries the full count; the others a quarter each, to bound run time.
    let items = capacity == 1024 && maxBatch == 1 ? stressItems : max(1, stressItems / 4)
    let (sent, failedPushes, result, overruns) = runStress(items: items, capacity: capacity, maxBatch: maxBatch)
    #expect(result.received == sent)
    #expect(result.outOfOrder == 0)
    #expect(result.corrupt == 0)
    // Every push the producer saw fail was counted as an overrun, and nothing else was.
    #expect(UInt64(overruns) == failedPushes)
}
