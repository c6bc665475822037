/// The synth's per-period working buffers for periods of up to `frames` samples, owned by its `ArrayStore`: made by
/// `Synth.prepare` (the old ones freed as the new ones replace them), written and read within one `render`.
struct RenderScratch: ~Copyable {
    let pitch: UnsafeMutablePointer<Float>       // channels * frames: pitch ratios
    let left: UnsafeMutablePointer<Float>        // channels * frames: channel gains
    let right: UnsafeMutablePointer<Float>
    let cutoff: UnsafeMutablePointer<Float>      // patches * frames: each built-in patch's smoothed cutoff, log2 Hz
    let damping: UnsafeMutablePointer<Float>     // patches * frames: smoothed SVF k
    let envelopeAmount: UnsafeMutablePointer<Float> // patches * frames: smoothed filter envelope, octaves
    let master: UnsafeMutablePointer<Float>      // frames: smoothed master gain
    let pitchMax: UnsafeMutablePointer<Float>    // channels: highest pitch ratio this period
    // Eight voices at a time (VoiceLanes.swift), `frames` vectors each:
    let lanes: UnsafeMutablePointer<Lanes>       // 5 * frames: b1, b2, b3, left, right level
    let increments: UnsafeMutablePointer<LaneBits> // frames: phase steps when pitch moves
    let sumLeft: UnsafeMutablePointer<HalfLanes> // 2 * frames: lanes 0-3, 4-7 summed over groups
    let sumRight: UnsafeMutablePointer<HalfLanes>

    private let store: ArrayStore

    init(frames: Int, channels: Int, patches: Int) {
        var store = ArrayStore()
        pitch = store.make(channels * frames, 0)
        left = store.make(channels * frames, 0)
        right = store.make(channels * frames, 0)
        cutoff = store.make(patches * frames, 0)
        damping = store.make(patches * frames, 0)
        envelopeAmount = store.make(patches * frames, 0)
        master = store.make(frames, 0)
        pitchMax = store.make(channels, 0)
        lanes = store.make(5 * frames, .zero)
        increments = store.make(frames, .zero)
        sumLeft = store.make(2 * frames, .zero)
        sumRight = store.make(2 * frames, .zero)
        self.store = store
    }
}
