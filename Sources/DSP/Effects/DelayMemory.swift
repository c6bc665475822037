// The delay memory of a send effect (the reverb's lines and diffusers, the chorus's line), made when the
// effect is (by `Synth.prepare`), and what the effect knows of the silence in it: how many samples of silent
// input it has taken since the last sound, and whether it holds only zeros. An effect clears it at a sample it
// counts (when its tail is inaudible), and skips a slice whose input is silent while it is cleared: silence
// costs nothing, and where a clearing falls never depends on how samples were sliced into periods.

struct DelayMemory: ~Copyable {
    private let samplesMemory: FixedArray<Float>
    var samples: UnsafeMutablePointer<Float> { @_noLocks get { samplesMemory.baseAddress } }
    let count: Int
    /// Samples of silent input since the last sound.
    var quietSamples = 0
    /// Every sample is 0 (nothing sounded since the last clearing).
    var cleared = true

    init(count: Int) {
        samplesMemory = FixedArray(count, 0 as Float)
        self.count = count
    }

    /// Every sample back to 0.
    @_noLocks
    mutating func clear() {
        samples.update(repeating: 0, count: count)
        quietSamples = 0
        cleared = true
    }

    /// Whether a slice of `frames` input samples changes nothing: the memory holds only zeros and the input is
    /// silent, so the effect's output stays exactly 0.
    @_noLocks
    func skips(_ input: UnsafePointer<Float>, frames: Int) -> Bool {
        guard cleared else { return false }
        for n in 0..<frames where input[n] != 0 { return false }
        return true
    }
}
