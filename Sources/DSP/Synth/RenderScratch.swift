/// The synth's per-period working buffers for periods of up to `frames` samples, in one `ArrayBlock`:
/// allocated by `Synth.prepare`, written and read within one `render`.
struct RenderScratch {
    let pitch: UnsafeMutablePointer<Float>       // channels * frames: pitch ratios
    let left: UnsafeMutablePointer<Float>        // channels * frames: channel gains
    let right: UnsafeMutablePointer<Float>
    let cutoff: UnsafeMutablePointer<Float>      // frames: smoothed cutoff, log2 Hz
    let damping: UnsafeMutablePointer<Float>     // frames: smoothed SVF k
    let envelopeAmount: UnsafeMutablePointer<Float> // frames: smoothed filter envelope, octaves
    let master: UnsafeMutablePointer<Float>      // frames: smoothed master gain
    let pitchMax: UnsafeMutablePointer<Float>    // channels: highest pitch ratio this period
    // Eight voices at a time (VoiceLanes.swift), `frames` vectors each:
    let lanes: UnsafeMutablePointer<Lanes>       // 5 * frames: b1, b2, b3, left, right level
    let increments: UnsafeMutablePointer<LaneBits> // frames: phase steps when pitch moves
    let sumLeft: UnsafeMutablePointer<HalfLanes> // 2 * frames: lanes 0-3, 4-7 summed over groups
    let sumRight: UnsafeMutablePointer<HalfLanes>
    private let block: ArrayBlock

    init(frames: Int, channels: Int) {
        let floats = 3 * channels + 4, vectors = 5 * 32 + 32 + 2 * 2 * 16
        var block = ArrayBlock(arrays: 12, count: frames, bytesPerEntry: floats * 4 + vectors + 4 * channels)
        pitch = block.take(channels * frames, 0)
        left = block.take(channels * frames, 0)
        right = block.take(channels * frames, 0)
        cutoff = block.take(frames, 0)
        damping = block.take(frames, 0)
        envelopeAmount = block.take(frames, 0)
        master = block.take(frames, 0)
        pitchMax = block.take(channels, 0)
        lanes = block.take(5 * frames, .zero)
        increments = block.take(frames, .zero)
        sumLeft = block.take(2 * frames, .zero)
        sumRight = block.take(2 * frames, .zero)
        self.block = block
    }

    func deallocate() { block.deallocate() }
}
