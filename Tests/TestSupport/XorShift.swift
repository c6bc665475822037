/// A deterministic stream of numbers (xorshift), so a failing test's inputs can be replayed from its seed.
public struct XorShift {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return state
    }

    /// A number in `range`, in steps of a millionth of it.
    public mutating func float(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + Float(next() % 1_000_000) / 1_000_000 * (range.upperBound - range.lowerBound)
    }
}
