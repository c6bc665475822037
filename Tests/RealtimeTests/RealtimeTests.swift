// SPSCRing: layout, every wraparound position, full/empty edges, overruns; helpers.
import Synchronization
import Testing
@testable import Realtime

// MARK: Layout

@Test func headAndTailLiveOnSeparateCacheLines() {
    let ring = SPSCRing<UInt64>(capacity: 16)
    let control = UInt(bitPattern: ring.storage.control)
    let head = UInt(bitPattern: ring.storage.head), tail = UInt(bitPattern: ring.storage.tail)
    #expect(control % UInt(cacheLineSize) == 0)
    #expect(head / UInt(cacheLineSize) != tail / UInt(cacheLineSize))
    #expect(head - tail == UInt(cacheLineSize))
    // Each side's own fields fit in its line.
    let atomic = MemoryLayout<Atomic<Int>>.size
    #expect(atomic == 8)
    #expect(RingLayout.overrunsOffset + atomic <= RingLayout.headOffset)
    #expect(RingLayout.cachedHeadOffset + MemoryLayout<Int>.size <= RingLayout.headOffset)
    #expect(RingLayout.headOffset % cacheLineSize == 0)
    #expect(RingLayout.cachedTailOffset + MemoryLayout<Int>.size <= RingLayout.controlSize)
    #expect(UInt(bitPattern: ring.storage.cachedHead) / 64 == tail / 64)
    #expect(UInt(bitPattern: ring.storage.cachedTail) / 64 == head / 64)
}

@Test(arguments: [(1, 1), (2, 2), (3, 4), (5, 8), (8, 8), (1000, 1024)])
func capacityRoundsUpToAPowerOfTwo(requested: Int, actual: Int) {
    #expect(SPSCRing<UInt8>(capacity: requested).capacity == actual)
}

// MARK: Every wraparound position

/// A ring whose indices start at `offset` (pushed and popped `offset` times, so the next slot is
/// `offset % capacity` and the free-running indices are past any early wrap).
func ring(capacity: Int, startingAt offset: Int) -> SPSCRing<Int32> {
    let ring = SPSCRing<Int32>(capacity: capacity)
    for _ in 0..<offset {
        _ = ring.push(-1)
        _ = ring.pop()
    }
    return ring
}

let smallCapacities = [1, 2, 4, 8, 16]

@Test(arguments: smallCapacities)
func singlePushPopAtEveryPosition(capacity: Int) {
    for start in 0..<(2 * capacity) {
        for count in 0...(capacity + 2) {
            let ring = ring(capacity: capacity, startingAt: start)
            var accepted = 0
            for value in 0..<count where ring.push(Int32(value)) { accepted += 1 }
            #expect(accepted == min(count, capacity), "capacity \(capacity) start \(start) count \(count)")
            #expect(ring.count == accepted)
            #expect(ring.overruns == count - accepted)
            for expected in 0..<accepted {
                #expect(ring.pop() == Int32(expected), "capacity \(capacity) start \(start) count \(count)")
            }
            #expect(ring.pop() == nil)
            #expect(ring.isEmpty)
        }
    }
}

@Test(arguments: smallCapacities)
func batchPushPopAtEveryPosition(capacity: Int) {
    for start in 0..<(2 * capacity) {
        for count in 0...(capacity + 2) {
            for chunk in 1...(capacity + 1) {
                let ring = ring(capacity: capacity, startingAt: start)
                let values = (0..<count).map { Int32($0) }
                let pushed = values.withUnsafeBufferPointer { ring.push(contentsOf: $0) }
                let label: Comment = "capacity \(capacity) start \(start) count \(count) chunk \(chunk)"
                #expect(pushed == min(count, capacity), label)
                #expect(ring.overruns == count - pushed, label)
                #expect(ring.count == pushed, label)
                // Drain in chunks of `chunk`, so reads also split at every position.
                var out: [Int32] = []
                var buffer = [Int32](repeating: -7, count: chunk)
                while true {
                    let moved = buffer.withUnsafeMutableBufferPointer { ring.pop(into: $0) }
                    #expect(moved <= chunk, label)
                    if moved == 0 { break }
                    out += buffer[0..<moved]
                }
                #expect(out == Array(values.prefix(pushed)), label)
                #expect(ring.isEmpty, label)
            }
        }
    }
}

@Test(arguments: smallCapacities)
func batchPushIntoPartlyFullRingAtEveryPosition(capacity: Int) {
    for start in 0..<(2 * capacity) {
        for filled in 0...capacity {
            for count in 0...(capacity + 1) {
                let ring = ring(capacity: capacity, startingAt: start)
                for value in 0..<filled { #expect(ring.push(Int32(value))) }
                let extra = (0..<count).map { Int32(filled + $0) }
                let pushed = extra.withUnsafeBufferPointer { ring.push(contentsOf: $0) }
                #expect(pushed == min(count, capacity - filled))
                #expect(ring.overruns == count - pushed)
                var all = [Int32](repeating: 0, count: capacity + 1)
                let moved = all.withUnsafeMutableBufferPointer { ring.pop(into: $0) }
                #expect(Array(all[0..<moved]) == (0..<(filled + pushed)).map { Int32($0) })
            }
        }
    }
}

// MARK: Full and empty edges

@Test func emptyRingPopsNothing() {
    let ring = SPSCRing<UInt64>(capacity: 4)
    #expect(ring.pop() == nil)
    var buffer = [UInt64](repeating: 0, count: 4)
    #expect(buffer.withUnsafeMutableBufferPointer { ring.pop(into: $0) } == 0)
    #expect(ring.count == 0 && ring.isEmpty && ring.overruns == 0)
}

@Test func emptyBuffersMoveNothingAndCountNothing() {
    let ring = SPSCRing<UInt64>(capacity: 4)
    #expect(ring.push(contentsOf: UnsafeBufferPointer(start: nil, count: 0)) == 0)
    #expect(ring.push(1))
    #expect(ring.pop(into: UnsafeMutableBufferPointer(start: nil, count: 0)) == 0)
    #expect(ring.count == 1 && ring.overruns == 0)
}

@Test func fullRingDropsAndCountsEveryRejectedElement() {
    let ring = SPSCRing<UInt64>(capacity: 4)
    for value in 0..<4 { #expect(ring.push(UInt64(value))) }
    #expect(!ring.push(99))
    #expect(!ring.push(100))
    #expect(ring.overruns == 2)
    let five: [UInt64] = [1, 2, 3, 4, 5]
    #expect(five.withUnsafeBufferPointer { ring.push(contentsOf: $0) } == 0)
    #expect(ring.overruns == 7)
    // The dropped values never appear; the ring still holds the first four.
    #expect(ring.pop() == 0)
    #expect(ring.push(4))  // space again after a pop
    var out = [UInt64](repeating: 0, count: 8)
    #expect(out.withUnsafeMutableBufferPointer { ring.pop(into: $0) } == 4)
    #expect(Array(out[0..<4]) == [1, 2, 3, 4])
    #expect(ring.overruns == 7)
}

@Test func capacityOneRingAlternates() {
    let ring = SPSCRing<UInt8>(capacity: 1)
    for value in UInt8(0)..<200 {
        #expect(ring.push(value))
        #expect(!ring.push(value))
        #expect(ring.pop() == value)
        #expect(ring.pop() == nil)
    }
    #expect(ring.overruns == 200)
}

// MARK: Helpers

@Test func monotonicClockNeverGoesBackwards() {
    var previous = MonotonicInstant.now()
    #expect(previous.nanoseconds > 0)
    for _ in 0..<10_000 {
        let now = MonotonicInstant.now()
        #expect(now >= previous)
        previous = now
    }
    let later = MonotonicInstant(nanoseconds: previous.nanoseconds + 5)
    #expect(later.nanoseconds(since: previous) == 5)
    #expect(previous.nanoseconds(since: later) == 0)
}

@Test func gateOpensAndCloses() {
    let gate = AtomicGate(open: false)
    #expect(!gate.isOpen && !gate.isOpenRelaxed)
    gate.open()
    #expect(gate.isOpen)
    gate.close()
    #expect(!gate.isOpen)
    gate.set(open: true)
    #expect(gate.exchange(open: false) == true)
    #expect(!gate.isOpen)
    #expect(AtomicGate().isOpen)
}

@Test func countersCountAndReset() {
    let counter = AtomicCounter(5)
    counter.increment()
    counter.increment(by: 10)
    #expect(counter.load() == 16)
    #expect(counter.reset() == 16)
    #expect(counter.load() == 0)
    let maximum = AtomicMaximum()
    for value: UInt64 in [3, 9, 4] { maximum.record(value) }
    #expect(maximum.load() == 9)
}

@Test func histogramBucketsCoverEveryValueInOrder() {
    var previousBucket = 0
    var value: UInt64 = 0
    while value < 1 << 36 {
        let bucket = LatencyHistogram.bucket(for: value)
        #expect(bucket >= previousBucket)
        #expect(LatencyHistogram.lowerBound(ofBucket: bucket) <= value)
        #expect(value <= LatencyHistogram.upperBound(ofBucket: bucket))
        if bucket < LatencyHistogram.bucketCount - 1, value >= 16 {
            // Relative width at most 1/16.
            let width = LatencyHistogram.upperBound(ofBucket: bucket) - LatencyHistogram.lowerBound(ofBucket: bucket) + 1
            #expect(width * 16 <= LatencyHistogram.lowerBound(ofBucket: bucket))
        }
        previousBucket = bucket
        value = value < 64 ? value + 1 : value + value / 7
    }
    for bucket in 0..<(LatencyHistogram.bucketCount - 1) {
        #expect(LatencyHistogram.upperBound(ofBucket: bucket) + 1 == LatencyHistogram.lowerBound(ofBucket: bucket + 1))
        #expect(LatencyHistogram.bucket(for: LatencyHistogram.lowerBound(ofBucket: bucket)) == bucket)
    }
    #expect(LatencyHistogram.bucket(for: .max) == LatencyHistogram.bucketCount - 1)
}

@Test func histogramPercentiles() {
    let histogram = LatencyHistogram()
    #expect(histogram.percentile(0.5) == nil)
    // 1...1000 µs, one each.
    for micros in UInt64(1)...1000 { histogram.record(nanoseconds: micros * 1000) }
    #expect(histogram.count == 1000)
    #expect(histogram.max == 1_000_000)
    let p50 = histogram.percentile(0.5)!, p99 = histogram.percentile(0.99)!
    #expect(p50 >= 500_000 && Double(p50) <= 500_000 * 1.07)
    #expect(p99 >= 990_000 && Double(p99) <= 990_000 * 1.07)
    #expect(histogram.percentile(1) == 1_000_000)
    #expect(histogram.percentile(0)! <= 1_100)
    histogram.reset()
    #expect(histogram.count == 0 && histogram.percentile(0.5) == nil)
}
