// Flags and counters shared between the real-time thread and the rest. All methods are @_noLocks.
import Synchronization

/// An open/closed flag one thread sets and others read, e.g. the lifecycle simulator deciding whether
/// the real-time thread delivers MIDI or plays audio.
///
/// Ordering: `open()`, `close()` and `set(_:)` are *release* stores and `isOpen` is an *acquire* load,
/// so whatever the setter wrote before changing the gate is visible to a reader that sees the change.
/// Use `isOpenRelaxed` where only the flag itself matters (polling it every sample, say).
public final class AtomicGate: Sendable {
    @usableFromInline let state: Atomic<Bool>

    /// A gate, open unless `open` is `false`.
    public init(open: Bool = true) { state = Atomic(open) }

    /// `true` when open (acquire).
    @inlinable
    public var isOpen: Bool {
        @_noLocks get { state.load(ordering: .acquiring) }
    }

    /// `true` when open, without ordering other memory accesses (relaxed).
    @inlinable
    public var isOpenRelaxed: Bool {
        @_noLocks get { state.load(ordering: .relaxed) }
    }

    /// Opens the gate (release).
    @inlinable @_noLocks
    public func open() { state.store(true, ordering: .releasing) }

    /// Closes the gate (release).
    @inlinable @_noLocks
    public func close() { state.store(false, ordering: .releasing) }

    /// Opens or closes the gate (release).
    @inlinable @_noLocks
    public func set(open: Bool) { state.store(open, ordering: .releasing) }

    /// Sets the gate and returns whether it was open before (acquire-release).
    @inlinable @_noLocks
    public func exchange(open: Bool) -> Bool { state.exchange(open, ordering: .acquiringAndReleasing) }
}

/// A counter one or more threads increment and others read: drops, xruns, callbacks.
///
/// Ordering: relaxed everywhere. A counter is a statistic and publishes no other data; pair it with a
/// gate or a ring when a reader must also see what was counted. Wraps at `UInt64.max`.
public final class AtomicCounter: Sendable {
    @usableFromInline let value: Atomic<UInt64>

    /// A counter starting at `initial`.
    public init(_ initial: UInt64 = 0) { value = Atomic(initial) }

    /// Adds `amount` (relaxed, wrapping).
    @inlinable @_noLocks
    public func increment(by amount: UInt64 = 1) { value.wrappingAdd(amount, ordering: .relaxed) }

    /// The current value (relaxed).
    @inlinable @_noLocks
    public func load() -> UInt64 { value.load(ordering: .relaxed) }

    /// Sets the value to 0 and returns what it was (relaxed).
    @inlinable @_noLocks
    public func reset() -> UInt64 { value.exchange(0, ordering: .relaxed) }
}

/// A maximum one thread raises and others read (relaxed), e.g. the worst callback duration.
public final class AtomicMaximum: Sendable {
    @usableFromInline let value: Atomic<UInt64>

    /// A maximum starting at 0.
    public init() { value = Atomic(0) }

    /// Raises the maximum to `candidate` if it is larger (relaxed).
    @inlinable @_noLocks
    public func record(_ candidate: UInt64) { value.max(candidate, ordering: .relaxed) }

    /// The current maximum (relaxed).
    @inlinable @_noLocks
    public func load() -> UInt64 { value.load(ordering: .relaxed) }

    /// Sets the maximum to 0 and returns what it was (relaxed).
    @inlinable @_noLocks
    public func reset() -> UInt64 { value.exchange(0, ordering: .relaxed) }
}
