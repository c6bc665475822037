// Callback-duration statistics: the real-time side records into fixed buckets (no allocation, relaxed
// atomic increments); the UI side reads counts and percentiles whenever it likes.
import Synchronization

/// A histogram of durations in nanoseconds with a fixed set of log-linear buckets: 16 equal buckets per
/// power of two, so a bucket's width is at most 1/16 (6.25 %) of its lower bound. Values 0...15 ns get
/// exact buckets; the last bucket collects everything from about 32 s up.
///
/// `record(nanoseconds:)` is `@_noLocks` and may run on the real-time thread while another thread reads;
/// readers see each bucket's count atomically (relaxed), not a snapshot of all buckets at one instant.
/// One writer at a time is intended, but concurrent writers lose nothing (each increment is atomic).
public final class LatencyHistogram: Sendable {
    /// Number of buckets.
    public static var bucketCount: Int { 512 }
    static var subBucketBits: Int { 4 }
    static var subBuckets: Int { 1 << subBucketBits }

    @usableFromInline let buckets: InlineArray<512, Atomic<UInt64>>
    @usableFromInline let maximum: Atomic<UInt64>
    @usableFromInline let total: Atomic<UInt64>

    /// An empty histogram. Allocates: create it before the real-time thread starts.
    public init() {
        buckets = InlineArray { _ in Atomic(0) }
        maximum = Atomic(0)
        total = Atomic(0)
    }

    /// The bucket `nanoseconds` falls in.
    @inlinable
    public static func bucket(for nanoseconds: UInt64) -> Int { latencyBucket(for: nanoseconds) }

    /// The smallest duration in `bucket`, in nanoseconds.
    public static func lowerBound(ofBucket bucket: Int) -> UInt64 {
        precondition(bucket >= 0 && bucket < bucketCount)
        if bucket < subBuckets { return UInt64(bucket) }
        let exponent = bucket / subBuckets &+ subBucketBits &- 1
        let sub = UInt64(bucket % subBuckets)
        return (UInt64(subBuckets) &+ sub) << UInt64(exponent &- subBucketBits)
    }

    /// The largest duration in `bucket`, in nanoseconds (`UInt64.max` for the last bucket).
    public static func upperBound(ofBucket bucket: Int) -> UInt64 {
        bucket == bucketCount - 1 ? .max : lowerBound(ofBucket: bucket + 1) - 1
    }

    /// Counts one duration. Real-time safe.
    @inlinable @_noLocks
    public func record(nanoseconds: UInt64) {
        buckets[latencyBucket(for: nanoseconds)].wrappingAdd(1, ordering: .relaxed)
        total.wrappingAdd(1, ordering: .relaxed)
        maximum.max(nanoseconds, ordering: .relaxed)
    }

    /// Counts the time from `start` to now. Real-time safe.
    @inlinable @_noLocks
    public func record(since start: MonotonicInstant) {
        record(nanoseconds: MonotonicInstant.now().nanoseconds(since: start))
    }

    /// Number of durations recorded.
    public var count: UInt64 { total.load(ordering: .relaxed) }

    /// The largest duration recorded, exactly.
    public var max: UInt64 { maximum.load(ordering: .relaxed) }

    /// How many durations fell in `bucket`.
    public func count(inBucket bucket: Int) -> UInt64 { buckets[bucket].load(ordering: .relaxed) }

    /// The duration below or at which a fraction `quantile` (0...1) of the recorded durations fall,
    /// as the upper bound of its bucket (clamped to the exact maximum), or `nil` when empty.
    /// E.g. `percentile(0.99)`. Reads each bucket once; may run while the real-time thread records.
    public func percentile(_ quantile: Double) -> UInt64? {
        precondition(quantile >= 0 && quantile <= 1, "quantile must be in 0...1")
        var counts = [UInt64](repeating: 0, count: Self.bucketCount)
        var seen: UInt64 = 0
        for bucket in 0..<Self.bucketCount {
            counts[bucket] = count(inBucket: bucket)
            seen &+= counts[bucket]
        }
        if seen == 0 { return nil }
        let rank = Swift.max(1, UInt64((quantile * Double(seen)).rounded(.up)))
        var cumulative: UInt64 = 0
        for bucket in 0..<Self.bucketCount {
            cumulative &+= counts[bucket]
            if cumulative >= rank { return Swift.min(Self.upperBound(ofBucket: bucket), max) }
        }
        return max
    }

    /// Sets every count to zero. Durations recorded concurrently may survive or be lost.
    public func reset() {
        for bucket in 0..<Self.bucketCount { buckets[bucket].store(0, ordering: .relaxed) }
        total.store(0, ordering: .relaxed)
        maximum.store(0, ordering: .relaxed)
    }
}

/// LatencyHistogram's bucket for a duration (a free function: a static method would need the class's
/// metatype, which @_noLocks rejects). The bucket `nanoseconds` falls in.
@inlinable @_noLocks
func latencyBucket(for nanoseconds: UInt64) -> Int {
    // Constants spelled out: a static property read would be a metadata access to @_noLocks.
    if nanoseconds < 16 { return Int(truncatingIfNeeded: nanoseconds) }
    let exponent = 63 &- nanoseconds.leadingZeroBitCount  // >= 4
    let sub = Int(truncatingIfNeeded: nanoseconds &>> UInt64(truncatingIfNeeded: exponent &- 4)) & 15
    let bucket = (exponent &- 3) &* 16 &+ sub
    return bucket < 511 ? bucket : 511
}

