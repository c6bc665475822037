// SPSCRing against JACK's jack_ringbuffer: the same capacity (16 KiB), the same 16-byte messages, the same
// access pattern, in the same run. Targets (issue "Foundation"): at least 2x jack_ringbuffer on one thread,
// no slower across two threads, zero allocations per operation.
import Benchmark
import CJackBench
import Realtime
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A 16-byte message (the engine's MIDI event size).
struct Message16: BitwiseCopyable {
    var sequence: UInt64
    var payload: UInt64
}

let messageSize = MemoryLayout<Message16>.size  // 16
let ringBytes = 16 * 1024
let ringMessages = ringBytes / 16  // 1024

// MARK: The measured operations, @_noLocks (checked in this release build, across packages)

/// Reached the way the JACK process callback will reach its rings: an opaque context pointer and
/// `_withUnsafeGuaranteedRef` (no retain/release), inside @_noLocks, compiled -O in another package.
@_noLocks
func backbeatPushPop(_ context: UnsafeMutableRawPointer, _ n: Int) -> UInt64 {
    Unmanaged<SPSCRing<Message16>>.fromOpaque(context)._withUnsafeGuaranteedRef { ring in
        var sum: UInt64 = 0
        var i = 0
        while i < n {
            _ = ring.push(Message16(sequence: UInt64(truncatingIfNeeded: i), payload: 7))
            if let m = ring.pop() { sum &+= m.sequence }
            i &+= 1
        }
        return sum
    }
}

/// jack_ringbuffer_write/read of one 16-byte message each. The C calls are invisible to @_noLocks.
@_semantics("no_performance_analysis")
func jackPushPop(_ rb: UnsafeMutablePointer<jack_ringbuffer_t>, _ n: Int) -> UInt64 {
    var sum: UInt64 = 0
    var message = Message16(sequence: 0, payload: 7)
    var out = Message16(sequence: 0, payload: 0)
    var i = 0
    while i < n {
        message.sequence = UInt64(truncatingIfNeeded: i)
        withUnsafeBytes(of: &message) { _ = jack_ringbuffer_write(rb, $0.baseAddress!.assumingMemoryBound(to: CChar.self), messageSize) }
        let got = withUnsafeMutableBytes(of: &out) { jack_ringbuffer_read(rb, $0.baseAddress!.assumingMemoryBound(to: CChar.self), messageSize) }
        if got == messageSize { sum &+= out.sequence }
        i &+= 1
    }
    return sum
}

// MARK: Two threads: a persistent producer thread, so an iteration creates no thread and allocates nothing

/// What the producer thread moves messages into.
enum Target {
    case backbeat(SPSCRing<Message16>)
    case jack(UnsafeMutablePointer<jack_ringbuffer_t>)
}

/// A producer thread started once; each `transfer(count:)` asks it for `count` messages and consumes them
/// on the calling thread. Full/empty sides call sched_yield (same policy for both rings: the machines
/// are shared, and a spinning peer on the same core would starve).
final class TransferRig: @unchecked Sendable {
    let target: Target
    let requested = Atomic<Int>(0)  // generation * 2^32 + count; 0 = idle
    let stop = Atomic<Bool>(false)
    var thread = pthread_t()

    init(_ target: Target) {
        self.target = target
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            let rig = Unmanaged<TransferRig>.fromOpaque(context!).takeRetainedValue()
            rig.produceLoop()
            return nil
        }, context)
    }

    func produceLoop() {
        var lastGeneration = 0
        while !stop.load(ordering: .acquiring) {
            let request = requested.load(ordering: .acquiring)
            let generation = request >> 32
            if generation == lastGeneration {
                sched_yield()
                continue
            }
            lastGeneration = generation
            produce(count: request & 0xFFFF_FFFF)
        }
    }

    func produce(count: Int) {
        switch target {
        case .backbeat(let ring): backbeatProduce(ring, count)
        case .jack(let rb): jackProduce(rb, count)
        }
    }

    var generation = 0
    /// Moves `count` messages through the ring; returns the consumer's checksum.
    func transfer(count: Int) -> UInt64 {
        generation += 1
        requested.store(generation << 32 | count, ordering: .releasing)
        switch target {
        case .backbeat(let ring): return backbeatConsume(ring, count)
        case .jack(let rb): return jackConsume(rb, count)
        }
    }

    func shutdown() {
        stop.store(true, ordering: .releasing)
        pthread_join(thread, nil)
    }
}

@_noLocks
func backbeatProduce(_ ring: SPSCRing<Message16>, _ count: Int) {
    var i = 0
    while i < count {
        if ring.push(Message16(sequence: UInt64(truncatingIfNeeded: i), payload: 7)) { i &+= 1 } else { yieldCPU() }
    }
}

@_noLocks
func backbeatConsume(_ ring: SPSCRing<Message16>, _ count: Int) -> UInt64 {
    var sum: UInt64 = 0
    var i = 0
    while i < count {
        if let m = ring.pop() {
            sum &+= m.sequence
            i &+= 1
        } else {
            yieldCPU()
        }
    }
    return sum
}

@_semantics("no_performance_analysis")
func yieldCPU() { sched_yield() }

@_semantics("no_performance_analysis")
func jackProduce(_ rb: UnsafeMutablePointer<jack_ringbuffer_t>, _ count: Int) {
    var message = Message16(sequence: 0, payload: 7)
    var i = 0
    while i < count {
        message.sequence = UInt64(truncatingIfNeeded: i)
        // Same contract as push: write a whole message or nothing.
        if jack_ringbuffer_write_space(rb) >= messageSize {
            withUnsafeBytes(of: &message) { _ = jack_ringbuffer_write(rb, $0.baseAddress!.assumingMemoryBound(to: CChar.self), messageSize) }
            i &+= 1
        } else {
            sched_yield()
        }
    }
}

@_semantics("no_performance_analysis")
func jackConsume(_ rb: UnsafeMutablePointer<jack_ringbuffer_t>, _ count: Int) -> UInt64 {
    var out = Message16(sequence: 0, payload: 0)
    var sum: UInt64 = 0
    var i = 0
    while i < count {
        let got = withUnsafeMutableBytes(of: &out) { jack_ringbuffer_read(rb, $0.baseAddress!.assumingMemoryBound(to: CChar.self), messageSize) }
        if got == messageSize {
            sum &+= out.sequence
            i &+= 1
        } else {
            sched_yield()
        }
    }
    return sum
}

// MARK: Suite

// The plugin's generated main calls this once, on the main thread, before any benchmark runs.
nonisolated(unsafe) let benchmarks = {
    // Exact allocation counts are the gate; times are reported, not gated (shared, noisy machines).
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p25: 0, .p50: 0, .p75: 0, .p90: 0, .p99: 0, .p100: 0]),
    ]
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
    let singleThread = Benchmark.Configuration(
        metrics: metrics, timeUnits: .nanoseconds, warmupIterations: 3, scalingFactor: .mega,
        maxDuration: .seconds(3), maxIterations: 30, thresholds: zeroAllocations)
    let twoThreads = Benchmark.Configuration(
        metrics: metrics, timeUnits: .nanoseconds, warmupIterations: 2, scalingFactor: .mega,
        maxDuration: .seconds(4), maxIterations: 20, thresholds: zeroAllocations)

    let ring = SPSCRing<Message16>(capacity: ringMessages)
    Benchmark("RingSingleThread16B:Backbeat-SPSCRing", configuration: singleThread) { benchmark in
        blackHole(backbeatPushPop(Unmanaged.passUnretained(ring).toOpaque(), benchmark.scaledIterations.count))
    }

    let jackRing = jack_ringbuffer_create(ringBytes)!
    Benchmark("RingSingleThread16B:JACK-jack_ringbuffer", configuration: singleThread) { benchmark in
        blackHole(jackPushPop(jackRing, benchmark.scaledIterations.count))
    }

    var rigs: [TransferRig] = []
    Benchmark("RingTwoThreads16B:Backbeat-SPSCRing", configuration: twoThreads) { benchmark in
        let rig = rigs[0]
        benchmark.startMeasurement()
        blackHole(rig.transfer(count: benchmark.scaledIterations.count))
    } setup: {
        rigs = [TransferRig(.backbeat(SPSCRing<Message16>(capacity: ringMessages)))]
    } teardown: {
        rigs.forEach { $0.shutdown() }
        rigs = []
    }

    Benchmark("RingTwoThreads16B:JACK-jack_ringbuffer", configuration: twoThreads) { benchmark in
        let rig = rigs[0]
        benchmark.startMeasurement()
        blackHole(rig.transfer(count: benchmark.scaledIterations.count))
    } setup: {
        rigs = [TransferRig(.jack(jack_ringbuffer_create(ringBytes)!))]
    } teardown: {
        rigs.forEach { $0.shutdown() }
        rigs = []
    }
}
