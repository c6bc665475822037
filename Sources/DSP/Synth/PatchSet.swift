/// A set of built-in patch numbers below `patchCapacity` (192), as three words of bits: the patches a slice's
/// voices play, or those whose kept lanes are stale. Walked lowest first with `popFirst`.
struct PatchSet: BitwiseCopyable, Equatable {
    private var low: UInt64, middle: UInt64, high: UInt64

    /// The empty set.
    @_noLocks @inline(__always)
    init() { (low, middle, high) = (0, 0, 0) }

    var isEmpty: Bool { @_noLocks get { low | middle | high == 0 } }

    @_noLocks @inline(__always)
    mutating func insert(_ p: Int) {
        let bit = UInt64(1) << UInt64(p & 63)
        switch p >> 6 {
        case 0: low |= bit
        case 1: middle |= bit
        default: high |= bit
        }
    }

    @_noLocks @inline(__always)
    func contains(_ p: Int) -> Bool {
        let bit = UInt64(1) << UInt64(p & 63)
        switch p >> 6 {
        case 0: return low & bit != 0
        case 1: return middle & bit != 0
        default: return high & bit != 0
        }
    }

    /// Takes the lowest member out and returns it; -1 when the set is empty.
    @_noLocks @inline(__always)
    mutating func popFirst() -> Int {
        if low != 0 {
            let p = low.trailingZeroBitCount
            low &= low &- 1
            return p
        }
        if middle != 0 {
            let p = middle.trailingZeroBitCount
            middle &= middle &- 1
            return 64 + p
        }
        if high != 0 {
            let p = high.trailingZeroBitCount
            high &= high &- 1
            return 128 + p
        }
        return -1
    }
}
