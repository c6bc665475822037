// The one type in Realtime that touches raw memory (swift-collections style): SPSCRing's element slots
// and its control block. Everything here is unchecked; SPSCRing enforces the single-producer /
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

/// Raw storage of an `SPSCRing`: `capacity` element slots and a control block of two cache lines.
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
struct RingStorage<Element: BitwiseCopyable> {
    @usableFromInline let slots: UnsafeMutablePointer<Element>
    @usableFromInline let control: UnsafeMutableRawPointer
    @usableFromInline let mask: Int

    /// Allocates `capacity` slots (a power of two, at least 1) and a zeroed control block.
    init(capacity: Int) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
        mask = capacity - 1
        slots = .allocate(capacity: capacity)
        control = .allocate(byteCount: RingLayout.controlSize, alignment: cacheLineSize)
        control.initializeMemory(as: UInt8.self, repeating: 0, count: RingLayout.controlSize)
        for offset in [RingLayout.tailOffset, RingLayout.overrunsOffset, RingLayout.headOffset] {
            (control + offset).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        }
        for offset in [RingLayout.cachedHeadOffset, RingLayout.cachedTailOffset] {
            (control + offset).bindMemory(to: Int.self, capacity: 1).initialize(to: 0)
        }
    }

    /// Frees both allocations. Elements are BitwiseCopyable: nothing to deinitialize.
    func deallocate() {
        for offset in [RingLayout.tailOffset, RingLayout.overrunsOffset, RingLayout.headOffset] {
            _ = (control + offset).assumingMemoryBound(to: Atomic<Int>.self).move()
        }
        control.deallocate()
        slots.deallocate()
    }

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
