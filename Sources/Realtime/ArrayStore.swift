// The one owner of raw memory that every module shares: the synth's voices, the MIDI decoder's tables, the
// rings' slots, the engine's period buffers and a font's zones all come from an ArrayStore and go with it.

/// Typed arrays that this value owns and frees in its own `deinit`, the shape of swift-collections'
/// `RigidArray`: each made once (by `init` or `prepare`, never on the real-time thread), never resized, gone
/// with its owner. The raw allocations stay in here; an owner (`VoiceSlots`, `RenderScratch`, `SPSCRing`,
/// `OutputBytes`...) keeps the store and hands its loops the typed pointers `make` returned, valid for as
/// long as the owner keeps the store. To grow, an owner makes a new store and assigns it over the old one,
/// which frees the old arrays. (Pointers rather than a generic subscript: the `@_noLocks` checker sees a
/// generic type's subscript as a generic call, the pointer's own as a plain load.) Each array starts on a
/// 64-byte boundary (a cache line).
public struct ArrayStore: ~Copyable {
    private var allocations: InlineArray<32, UnsafeMutableRawPointer?> = .init(repeating: nil)
    private var made = 0

    public init() {}

    /// A new array of `count` copies of `value` (one value when `count` is 0: the pointer is always valid).
    public mutating func make<T: BitwiseCopyable>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
        let capacity = max(count, 1)
        let typed = makeBytes(capacity * MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment)
            .bindMemory(to: T.self, capacity: capacity)
        typed.initialize(repeating: value, count: capacity)
        return typed
    }

    /// A new array of `count` values, the `i`th made by `value(i)`.
    public mutating func make<T: BitwiseCopyable>(_ count: Int, _ value: (Int) -> T) -> UnsafeMutablePointer<T> {
        precondition(count > 0)
        let typed = make(count, value(0))
        for i in 1..<count { typed[i] = value(i) }
        return typed
    }

    /// A new array holding `values` (zeroed memory for one element when `values` is empty: the pointer is
    /// always valid). Any `BitwiseCopyable` value is fine: the store never deinitializes.
    public mutating func make<T: BitwiseCopyable>(copying values: [T]) -> UnsafeMutablePointer<T> {
        let capacity = max(values.count, 1)
        let typed = makeBytes(capacity * MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment)
            .bindMemory(to: T.self, capacity: capacity)
        values.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { typed.initialize(from: start, count: source.count) }
        }
        return typed
    }

    /// A new block of `byteCount` zeroed bytes (at least one), 64-byte aligned, for the caller to bind.
    public mutating func makeBytes(_ byteCount: Int, alignment: Int = 64) -> UnsafeMutableRawPointer {
        precondition(alignment <= 64)
        precondition(made < allocations.count, "ArrayStore: more arrays than it holds")
        let size = max(byteCount, 1)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        allocations[made] = raw
        made += 1
        return raw
    }

    deinit { // the values are trivial: nothing to deinitialize
        for i in 0..<made { allocations[i]?.deallocate() }
    }
}
