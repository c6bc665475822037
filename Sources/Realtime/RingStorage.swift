// SPSCRing's raw memory (swift-collections style): the element slots and the control block, two FixedArrays
// this storage owns and frees with the ring. Everything here is unchecked; SPSCRing enforces the single-producer /
// single-consumer discipline and the index arithmetic that keeps every access in bounds.
import Synchronization

/// Size the control block pads to. 64 bytes is the line size of every x86-64 and most AArch64 cores.
public let cacheLineSize = 64

/// Byte offsets inside a ring's control block (a non-generic namespace: a static member of the generic
/// RingStorage would be a metadata access to the @_noLocks checker). The test suite checks that head and
/// tail land on different cache lines of a 64-aligned block.
@usableFromInline
enum RingLayout {
    @_transparent @usableFromInline static var tailOffset: Int { 0 }
    @_transparent @usableFromInline static var cachedHeadOffset: Int { 8 }
    @_transparent @usableFromInline static var overrunsOffset: Int { 16 }
    @_transparent @usableFromInline static var headOffset: Int { 64 }
    @_transparent @usableFromInline static var cachedTailOffset: Int { 64 + 8 }
    @_transparent @usableFromInline static var controlSize: Int { 2 * 64 }
}

/// The raw storage of an `SPSCRing`, owned by it: `capacity` element slots and a control block of two cache lines.
///
/// Control block (one allocation, 64-byte aligned):
///
///     line 0, written by the producer:  tail (Atomic<Int>)  cachedHead (Int)  overruns (Atomic<Int>)
///     line 1, written by the consumer:  head (Atomic<Int>)  cachedTail (Int)
///
/// `head` and `tail` are free-running indices (they wrap at `Int.max` with `&+`, never reset);
/// `tail &- head` is the number of readable slots and `index & mask` the slot. Each side keeps a plain,
/// non-atomic copy of the other side's index on its own line, so the common case reads no line the
/// other core is writing. A side reloads the other's index only when its cached copy says full/empty.
@usableFromInline
struct RingStorage<Element: BitwiseCopyable>: ~Copyable {
    @usableFromInline let slotMemory: FixedArray<Element>
    @usableFromInline let controlMemory: FixedArray<UInt8>
    @usableFromInline let mask: Int

    /// Makes `capacity` zeroed slots (a power of two, at least 1) and a zeroed control block, freed with this
    /// storage.
    init(capacity: Int) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
        mask = capacity - 1
        slotMemory = FixedArray(zeroed: capacity)
        controlMemory = FixedArray(zeroed: RingLayout.controlSize)
        let control = controlMemory.rawAddress
        for offset in [RingLayout.tailOffset, RingLayout.overrunsOffset, RingLayout.headOffset] {
            (control + offset).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        }
        for offset in [RingLayout.cachedHeadOffset, RingLayout.cachedTailOffset] {
            (control + offset).bindMemory(to: Int.self, capacity: 1).initialize(to: 0)
        }
    }

    /// The slots, unchecked: the index arithmetic below keeps every access in bounds.
    @_transparent @usableFromInline
    var slots: UnsafeMutablePointer<Element> { slotMemory.baseAddress }
    @_transparent @usableFromInline
    var control: UnsafeMutableRawPointer { controlMemory.rawAddress }

    @_transparent @usableFromInline
    var tail: UnsafeMutablePointer<Atomic<Int>> {
        (control + RingLayout.tailOffset).assumingMemoryBound(to: Atomic<Int>.self)
    }
    @_transparent @usableFromInline
    var head: UnsafeMutablePointer<Atomic<Int>> {
        (control + RingLayout.headOffset).assumingMemoryBound(to: Atomic<Int>.self)
    }
    @_transparent @usableFromInline
    var overruns: UnsafeMutablePointer<Atomic<Int>> {
        (control + RingLayout.overrunsOffset).assumingMemoryBound(to: Atomic<Int>.self)
    }
    /// Producer-only.
    @_transparent @usableFromInline
    var cachedHead: UnsafeMutablePointer<Int> {
        (control + RingLayout.cachedHeadOffset).assumingMemoryBound(to: Int.self)
    }
    /// Consumer-only.
    @_transparent @usableFromInline
    var cachedTail: UnsafeMutablePointer<Int> {
        (control + RingLayout.cachedTailOffset).assumingMemoryBound(to: Int.self)
    }

    /// Producer side: the free slots before free-running index `tail`. Reads the cached head; only when it
    /// shows fewer than `wanted` free slots (looks full) reloads head, with an acquire that pairs with the
    /// consumer's release of head, so the consumer's reads of the slots about to be overwritten are done.
    @_transparent @usableFromInline
    func freeSlots(tail: Int, wanted: Int) -> Int {
        if (mask &+ 1) &- (tail &- cachedHead.pointee) < wanted {
            cachedHead.pointee = head.pointee.load(ordering: .acquiring)
        }
        return (mask &+ 1) &- (tail &- cachedHead.pointee)
    }

    /// Consumer side: the readable slots from free-running index `head`. Reads the cached tail; only when it
    /// shows fewer than `wanted` (looks empty) reloads tail, with an acquire that pairs with the producer's
    /// release of tail, so the slots' contents are visible.
    @_transparent @usableFromInline
    func readableSlots(head: Int, wanted: Int) -> Int {
        if cachedTail.pointee &- head < wanted {
            cachedTail.pointee = tail.pointee.load(ordering: .acquiring)
        }
        return cachedTail.pointee &- head
    }

    /// Either side's batch move, one algorithm for both: read this side's own index (relaxed: only it writes
    /// it), take at most `wanted` of the slots it may use (free for the producer, readable for the consumer),
    /// copy them in at most two runs, and publish the new index with a release store (the producer's makes
    /// the slots visible to the consumer's acquire, the consumer's frees them for the producer's). The
    /// producer counts what did not fit as overruns. `producing` is a constant at each call site; the
    /// transparent body folds the other side's branches away.
    @_transparent @usableFromInline
    func move(_ outside: UnsafeMutablePointer<Element>, wanted: Int, producing: Bool) -> Int {
        let own = producing ? tail : head
        let index = own.pointee.load(ordering: .relaxed)
        let usable = producing ? freeSlots(tail: index, wanted: wanted) : readableSlots(head: index, wanted: wanted)
        let moved = min(usable, wanted)
        if producing && moved < wanted { overruns.pointee.wrappingAdd(wanted &- moved, ordering: .relaxed) }
        if moved == 0 { return 0 }
        if producing { write(outside, count: moved, at: index) } else { read(into: outside, count: moved, at: index) }
        own.pointee.store(index &+ moved, ordering: .releasing)
        return moved
    }

    /// Copies `count` elements from `source` into the slots starting at free-running index `index`,
    /// in at most two runs (before and after the wrap). The caller has checked there is room.
    @_transparent @usableFromInline
    func write(_ source: UnsafePointer<Element>, count: Int, at index: Int) {
        let start = index & mask
        let first = min(count, mask + 1 - start)
        copyElements(from: source, to: slots + start, count: first)
        if first < count { copyElements(from: source + first, to: slots, count: count &- first) }
    }

    /// Copies `count` elements out of the slots starting at free-running index `index` into
    /// `destination`, in at most two runs. The caller has checked they are readable.
    @_transparent @usableFromInline
    func read(into destination: UnsafeMutablePointer<Element>, count: Int, at index: Int) {
        let start = index & mask
        let first = min(count, mask + 1 - start)
        copyElements(from: slots + start, to: destination, count: first)
        if first < count { copyElements(from: slots, to: destination + first, count: count &- first) }
    }

    /// An element-by-element copy. Not `update(from:count:)`, which the @_noLocks checker counts as a
    /// possible deinitialization; not `copyMemory`, whose out-of-line stdlib memcpy in debug builds the
    /// thread sanitizer does not see (a broken batch publication went unreported). Specialized and
    /// optimized, this loop compiles to the same vector copy.
    @_transparent @usableFromInline
    func copyElements(from source: UnsafePointer<Element>, to destination: UnsafeMutablePointer<Element>,
                      count: Int) {
        var index = 0
        while index < count {
            destination[index] = source[index]
            index &+= 1
        }
    }
}
