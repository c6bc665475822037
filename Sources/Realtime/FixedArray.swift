// The owned fixed-size array every module keeps its buffers in: the synth's voices, the MIDI decoder's tables,
// the rings' slots, the engine's period buffers and a font's zones are each a FixedArray of the value that
// holds them, and go with it.

/// `count` values of a `BitwiseCopyable` type in one allocation this value owns and frees in its own `deinit`:
/// made once (in an owner's `init`, never on the real-time thread), never resized, gone with its owner. An
/// owner (`VoiceSlots`, `RenderScratch`, `SPSCRing`, `OutputBytes`...) keeps one stored property per array,
/// as many as it needs. To grow, an owner makes a new array and assigns it over the old one, which frees the
/// old memory.
///
/// The subscript checks the index. Its setter is `nonmutating`: the values live in the allocation, not in
/// this value, so an owner held by a `let` (the synth's arrays, a class's tables) writes them in place, with
/// no exclusivity check and no copy. `baseAddress` hands the loops that walk a whole array an unchecked
/// pointer, valid for as long as the owner keeps this array. The memory starts on a 64-byte boundary (a
/// cache line).
public struct FixedArray<Element: BitwiseCopyable>: ~Copyable {
    /// The first element; `count` of them (at least one) follow.
    public let baseAddress: UnsafeMutablePointer<Element>
    /// Elements the array holds: as many as asked for, one when asked for none (the pointer is always valid).
    public let count: Int

    /// `count` copies of `value`.
    public init(_ count: Int, _ value: Element) {
        self.count = max(count, 1)
        baseAddress = Self.allocate(self.count)
        baseAddress.initialize(repeating: value, count: self.count)
    }

    /// `count` values, the `i`th made by `value(i)`.
    public init(count: Int, _ value: (Int) -> Element) {
        precondition(count > 0)
        self.count = count
        baseAddress = Self.allocate(count)
        for i in 0..<count { (baseAddress + i).initialize(to: value(i)) }
    }

    /// A copy of `values` (one zeroed element when `values` is empty).
    public init(copying values: [Element]) {
        count = max(values.count, 1)
        baseAddress = Self.allocate(count)
        values.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { baseAddress.initialize(from: start, count: source.count) }
        }
    }

    /// `count` elements of zeroed memory (at least one), for values that are all zero bits, or for a block of
    /// bytes (`FixedArray<UInt8>`) the owner binds to a type that is not `BitwiseCopyable` (atomics).
    public init(zeroed count: Int) {
        self.count = max(count, 1)
        baseAddress = Self.allocate(self.count)
    }

    /// Zeroed memory for `count` elements, 64-byte aligned.
    private static func allocate(_ count: Int) -> UnsafeMutablePointer<Element> {
        let byteCount = count * MemoryLayout<Element>.stride
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 64)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1))
        return raw.bindMemory(to: Element.self, capacity: count)
    }

    /// The element at `index`, which must be in `0 ..< count`.
    @inlinable
    public subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "FixedArray index out of range")
            return baseAddress[index]
        }
        @inline(__always) nonmutating set {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "FixedArray index out of range")
            baseAddress[index] = newValue
        }
    }

    /// The memory as raw bytes, for an owner that binds it to another type.
    @inlinable
    public var rawAddress: UnsafeMutableRawPointer { @inline(__always) get { UnsafeMutableRawPointer(baseAddress) } }

    /// The whole array as a buffer, valid for as long as the owner keeps this array.
    @inlinable
    public var buffer: UnsafeMutableBufferPointer<Element> {
        @inline(__always) get { UnsafeMutableBufferPointer(start: baseAddress, count: count) }
    }

    deinit { // the values are trivial: nothing to deinitialize
        baseAddress.deallocate()
    }
}
