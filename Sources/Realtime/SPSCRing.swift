// Lock-free single-producer single-consumer ring of fixed-size values. Real-time rule:
// rings never block; a full ring drops and counts.
import Synchronization

/// A bounded, lock-free, wait-free queue between exactly one producer thread and one consumer thread.
///
/// - Capacity is a power of two (the initializer rounds up) and every slot is usable.
/// - `push` and `pop` never block, never allocate and take no lock. They are `@inlinable` so a caller
///   specializes them for its concrete `Element`; a `@_noLocks` caller then has the compiler check the
///   specialized bodies, in debug builds too (Tests/RealtimeTests/NoLocksCrossModule.swift, and the
///   release-built Benchmarks/). The generic methods cannot carry `@_noLocks` themselves: their
///   unspecialized form moves values through type metadata. Call them from another module (the engine
///   does): inside Realtime, a debug (non-whole-module) build cannot specialize across files.
/// - A push into a full ring drops the value and increments `overruns`.
/// - Memory ordering: the producer writes a slot, then publishes it with a *release* store of `tail`;
///   the consumer *acquire*-loads `tail` before reading the slot. Symmetrically the consumer reads a slot,
///   then frees it with a *release* store of `head`; the producer *acquire*-loads `head` before
///   overwriting it. Each side reads its own index `relaxed` (only it writes it).
/// - Each side caches the other's index and reloads it only when the ring looks full (producer) or
///   empty (consumer); head and tail live on separate 64-byte cache lines.
///
/// Exactly one thread may call the producer methods (`push`) and exactly one the consumer methods
/// (`pop`) at a time; `count`, `capacity` and `overruns` may be read from anywhere. From a JACK
/// real-time thread reach it without ARC traffic:
/// `Unmanaged<SPSCRing<E>>.fromOpaque(arg)._withUnsafeGuaranteedRef { $0.push(e) }`.
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked: the storage is raw memory; the SPSC discipline and the acquire/release protocol
    // above are what make the cross-thread accesses safe.
    /// The slots and the control block, freed with the ring.
    @usableFromInline let storage: RingStorage<Element>

    /// Number of slots: the requested capacity rounded up to a power of two.
    public let capacity: Int

    /// Allocates a ring of at least `capacity` slots (rounded up to a power of two). Not real-time safe:
    /// create rings before the real-time thread starts.
    public init(capacity: Int) {
        precondition(capacity > 0, "SPSCRing capacity must be positive")
        precondition(capacity <= 1 << 40, "SPSCRing capacity is unreasonably large")
        var rounded = 1
        while rounded < capacity { rounded <<= 1 }
        self.capacity = rounded
        storage = RingStorage(capacity: rounded)
    }

    // MARK: Producer side

    /// Appends `element`. Returns `false`, drops it and counts an overrun when the ring is full.
    @inlinable @inline(__always)
    public func push(_ element: Element) -> Bool {
        let tail = storage.tail.pointee.load(ordering: .relaxed)  // only the producer writes tail
        if storage.freeSlots(tail: tail, wanted: 1) == 0 {
            storage.overruns.pointee.wrappingAdd(1, ordering: .relaxed)
            return false
        }
        storage.slots[tail & storage.mask] = element
        // Release publishes the slot write to the consumer's acquire load of tail.
        storage.tail.pointee.store(tail &+ 1, ordering: .releasing)
        return true
    }

    /// Appends as many elements of `elements` as fit, in order, and returns how many it appended.
    /// The rest are dropped and counted in `overruns`.
    @inlinable @inline(__always)
    public func push(contentsOf elements: UnsafeBufferPointer<Element>) -> Int {
        guard let source = elements.baseAddress, elements.count > 0 else { return 0 }
        return storage.move(UnsafeMutablePointer(mutating: source), wanted: elements.count, producing: true)
    }

    // MARK: Consumer side

    /// Removes and returns the oldest element, or `nil` when the ring is empty.
    @inlinable @inline(__always)
    public func pop() -> Element? {
        let head = storage.head.pointee.load(ordering: .relaxed)  // only the consumer writes head
        if storage.readableSlots(head: head, wanted: 1) == 0 { return nil }
        let element = storage.slots[head & storage.mask]
        // Release orders the slot read before the producer may reuse the slot.
        storage.head.pointee.store(head &+ 1, ordering: .releasing)
        return element
    }

    /// Moves up to `buffer.count` of the oldest elements into `buffer` (from its start), in order, and
    /// returns how many it moved.
    @inlinable @inline(__always)
    public func pop(into buffer: UnsafeMutableBufferPointer<Element>) -> Int {
        guard let destination = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return storage.move(destination, wanted: buffer.count, producing: false)
    }

    // MARK: Either side, or an observer

    /// Number of elements readable now. Exact on the consumer side (it can only grow under it) and on the
    /// producer side (it can only shrink); a snapshot anywhere else.
    @inlinable
    public var count: Int {
        get {
            // Load head first: loading tail second means tail >= head even if both move in between.
            let head = storage.head.pointee.load(ordering: .acquiring)
            let tail = storage.tail.pointee.load(ordering: .acquiring)
            return min(max(tail &- head, 0), capacity)
        }
    }

    /// `true` when no element is readable (see `count`).
    @inlinable
    public var isEmpty: Bool {
        get { count == 0 }
    }

    /// Number of elements dropped because the ring was full, since creation. Never reset, wraps at
    /// `Int.max`: show differences.
    @inlinable
    public var overruns: Int {
        get { storage.overruns.pointee.load(ordering: .relaxed) }
    }
}
