/// Stereo sums over fixed slots of audio time (the last `slotCount` kept). A block that straddles a slot
/// boundary is split in proportion to its frames: periods rarely divide 10 or 100 ms.
struct SlotWindow: Sendable {
    let slotFrames: Double
    let slotCount: Int
    private var slots: [SIMD2<Double>]
    private var next = 0
    /// Completed slots kept (at most `slotCount`).
    private(set) var filled = 0
    private var partial = SIMD2<Double>(0, 0)
    private var partialFrames = 0.0

    init(slotSeconds: Double, slotCount: Int, sampleRate: Double) {
        slotFrames = max(1, slotSeconds * sampleRate)
        self.slotCount = slotCount
        slots = Array(repeating: SIMD2(0, 0), count: slotCount)
    }

    /// Adds a block; returns how many slots it completed (`add` callers that need each slot use `take`).
    @discardableResult
    mutating func add(frames: Double, sums: SIMD2<Double>) -> Int {
        var frames = frames, sums = sums, completed = 0
        while take(frames: &frames, sums: &sums) { completed += 1 }
        return completed
    }

    /// Moves the block's frames into the current slot; true when that completed a slot (call again with what
    /// is left), false when the block is used up.
    mutating func take(frames: inout Double, sums: inout SIMD2<Double>) -> Bool {
        guard frames > 0 else { return false }
        let room = slotFrames - partialFrames
        if frames < room {
            partial += sums
            partialFrames += frames
            frames = 0
            return false
        }
        let part = sums * (room / frames)
        sums -= part
        frames -= room
        slots[next] = partial + part
        next = (next + 1) % slotCount
        filled = min(filled + 1, slotCount)
        partial = SIMD2(0, 0)
        partialFrames = 0
        return true
    }

    /// Sum of the last `count` completed slots (fewer when fewer exist) and how many that was.
    func sum(lastSlots count: Int) -> (sums: SIMD2<Double>, slots: Int) {
        let n = min(count, filled)
        var total = SIMD2<Double>(0, 0)
        var index = next
        for _ in 0..<n {
            index = (index + slotCount - 1) % slotCount
            total += slots[index]
        }
        return (total, n)
    }

    /// Mean square per channel over the last `count` slots (zero when none completed yet).
    func meanSquares(lastSlots count: Int) -> SIMD2<Double> {
        let (sums, n) = sum(lastSlots: count)
        return n > 0 ? sums / (Double(n) * slotFrames) : SIMD2(0, 0)
    }
}
