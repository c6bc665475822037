/// Typed arrays carved out of one raw allocation, each starting on a 64-byte boundary (a cache line), so an
/// owner of many arrays makes one allocation and one `deallocate` call (the shape of swift-collections'
/// unsafe handles: the unsafe code lives in one small type). Carving is for `init` and `prepare`, never the
/// real-time thread.
struct ArrayBlock {
    private let base: UnsafeMutableRawPointer
    private let byteCount: Int
    private var used = 0

    /// A block for `arrays` arrays of `count` entries whose sizes add up to `bytesPerEntry` per entry.
    init(arrays: Int, count: Int, bytesPerEntry: Int) {
        byteCount = arrays * 64 + count * bytesPerEntry
        base = .allocate(byteCount: byteCount, alignment: 64)
    }

    /// The next `count` values of `T`, each initialized to `value`.
    mutating func take<T: BitwiseCopyable>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
        precondition(MemoryLayout<T>.alignment <= 64)
        let size = (count * MemoryLayout<T>.stride + 63) & ~63
        precondition(used + size <= byteCount, "ArrayBlock: more arrays taken than the block was made for")
        let p = (base + used).bindMemory(to: T.self, capacity: count)
        p.initialize(repeating: value, count: count)
        used += size
        return p
    }

    /// Frees every array taken from the block (their values are trivial: nothing to deinitialize).
    func deallocate() { base.deallocate() }
}
