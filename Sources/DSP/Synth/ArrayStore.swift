/// Typed arrays that this value owns and frees in its own `deinit`, the shape of swift-collections'
/// `RigidArray`: each made once (by `init` or `prepare`, never on the real-time thread), never resized, gone
/// with its owner. The raw allocations stay in here; an owner (`VoiceSlots`, `RenderScratch`...) keeps the
/// store and hands its loops the typed pointers `make` returned, valid for as long as the owner lives.
/// (Pointers rather than a generic subscript: the `@_noLocks` checker sees a generic type's subscript as a
/// generic call, the pointer's own as a plain load.) Each array starts on a 64-byte boundary (a cache line).
struct ArrayStore: ~Copyable {
    private var allocations: InlineArray<32, UnsafeMutableRawPointer?> = .init(repeating: nil)
    private var made = 0

    init() {}

    /// A new array of `count` copies of `value` (one value when `count` is 0: the pointer is always valid).
    mutating func make<T: BitwiseCopyable>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
        precondition(MemoryLayout<T>.alignment <= 64)
        precondition(made < allocations.count, "ArrayStore: more arrays than it holds")
        let capacity = max(count, 1)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: capacity * MemoryLayout<T>.stride, alignment: 64)
        allocations[made] = raw
        made += 1
        let typed = raw.bindMemory(to: T.self, capacity: capacity)
        typed.initialize(repeating: value, count: capacity)
        return typed
    }

    /// A new array of `count` values, the `i`th made by `value(i)`.
    mutating func make<T: BitwiseCopyable>(_ count: Int, _ value: (Int) -> T) -> UnsafeMutablePointer<T> {
        precondition(count > 0)
        let typed = make(count, value(0))
        for i in 1..<count { typed[i] = value(i) }
        return typed
    }

    deinit { // the values are trivial: nothing to deinitialize
        for i in 0..<made { allocations[i]?.deallocate() }
    }
}
