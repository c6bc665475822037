import Foundation
import Testing

@testable import Engine

/// The longest-callback statistic: the real-time side raises it, the status read takes it and resets it.
/// The raise is one atomic max (a compare-and-swap loop inside `Atomic.max`), not a load followed by a
/// store: with more than one recorder a load-then-store lets a recorder that loaded before another's larger
/// value overwrite it with its own smaller one. (With the engine's single recorder a load-then-store is
/// still linearizable against the reader's `exchange(0)`: its store, landing after a reset, carries the
/// value being recorded now, so no value from before the reset survives it either way.)
@Suite struct CallbackMaximumTests {
    final class Shared: @unchecked Sendable {
        let counters = EngineCounters()
    }

    @Test func takeReturnsTheLongestAndResets() {
        let counters = EngineCounters()
        counters.recordCallback(nanoseconds: 300)
        counters.recordCallback(nanoseconds: 900)
        counters.recordCallback(nanoseconds: 500)
        #expect(counters.lastCallbackNanos.load(ordering: .relaxed) == 500)
        #expect(counters.takeLongestCallbackNanos() == 900)
        #expect(counters.takeLongestCallbackNanos() == 0)
        counters.recordCallback(nanoseconds: 42)
        #expect(counters.takeLongestCallbackNanos() == 42)
    }

    /// Conservation under contention: two recorders and a resetting reader run at once; every recorded
    /// value's maximum must come out exactly once, either from one of the reader's resets or from the final
    /// value. A lost raise (or a reset overwritten with a value compared against the old maximum) breaks it.
    @Test func noRaiseIsLostAcrossResets() {
        for round in 0..<20 {
            let shared = Shared()
            let recordsPerThread = 100_000
            let done = DispatchGroup()
            let stop = StopFlag()
            let resetsMaximum = MaximumResults()
            for writer in 0..<2 {
                DispatchQueue.global().async(group: done) {
                    var generator = MaximumTestRandom(seed: UInt64(round * 2 + writer + 1))
                    var largest = 0
                    for _ in 0..<recordsPerThread {
                        let value = Int(generator.next() % 1_000_000_000) + 1
                        largest = max(largest, value)
                        shared.counters.recordCallback(nanoseconds: value)
                    }
                    resetsMaximum.setWriter(writer, largest)
                }
            }
            let reader = Thread {
                var seen = 0
                while !stop.isSet { seen = max(seen, shared.counters.takeLongestCallbackNanos()) }
                resetsMaximum.setReader(seen)
            }
            reader.start()
            done.wait()
            stop.set()
            resetsMaximum.waitForReader()
            let final = shared.counters.takeLongestCallbackNanos()
            let largestRecorded = resetsMaximum.writers
            #expect(max(final, resetsMaximum.reader) == largestRecorded.max()!, "round \(round): a raise was lost")
        }
    }
}

/// A set-once flag for the test's threads.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// What the test's threads found, handed back under a lock; the reader's result signalled.
private final class MaximumResults: @unchecked Sendable {
    private let lock = NSLock()
    private var writerResults = [0, 0]
    private var readerResult = 0
    private let readerDone = DispatchSemaphore(value: 0)
    var writers: [Int] { lock.withLock { writerResults } }
    var reader: Int { lock.withLock { readerResult } }
    func setWriter(_ index: Int, _ value: Int) { lock.withLock { writerResults[index] = value } }
    func setReader(_ value: Int) {
        lock.withLock { readerResult = value }
        readerDone.signal()
    }
    func waitForReader() { readerDone.wait() }
}

/// A small deterministic generator (SplitMix64), so each round's values are reproducible.
private typealias MaximumTestRandom = SplitMix64
