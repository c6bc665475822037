// Real-time-safe time reads: clock_gettime(CLOCK_MONOTONIC) is a vDSO call on Linux (no syscall, no lock).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the monotonic clock, in nanoseconds since an unspecified origin (boot, on Linux).
/// Comparable and subtractable; unrelated to wall-clock time and unaffected by its adjustments.
@frozen
public struct MonotonicInstant: Hashable, Comparable, Sendable, BitwiseCopyable {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: UInt64

    @inlinable
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// Reads `clock_gettime(CLOCK_MONOTONIC)`. Real-time safe: no allocation, no lock.
    @inlinable @_noLocks
    public static func now() -> MonotonicInstant {
        let spec = readMonotonicClock()
        return MonotonicInstant(nanoseconds: UInt64(truncatingIfNeeded: spec.tv_sec) &* 1_000_000_000
            &+ UInt64(truncatingIfNeeded: spec.tv_nsec))
    }

    /// Nanoseconds from `earlier` to `self`; 0 if `earlier` is later.
    @inlinable @_noLocks
    public func nanoseconds(since earlier: MonotonicInstant) -> UInt64 {
        nanoseconds >= earlier.nanoseconds ? nanoseconds &- earlier.nanoseconds : 0
    }

    @inlinable
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}

/// `clock_gettime(CLOCK_MONOTONIC)`. The performance checker cannot see into C functions and rejects any
/// call to one from `@_noLocks` code; this one is a vDSO read (no syscall, no lock, no allocation), so it
/// is exempted by name here, and only here.
@usableFromInline @_semantics("no_performance_analysis")
func readMonotonicClock() -> timespec {
    var spec = timespec()
    _ = clock_gettime(CLOCK_MONOTONIC, &spec)
    return spec
}
