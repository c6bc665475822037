/// The synth's per-period working buffers for periods of up to `frames` samples, each a `FixedArray` it owns: made by
/// `Synth.prepare` (the old ones freed as the new ones replace them), written and read within one `render`.
struct RenderScratch: ~Copyable {
    private let pitchMemory: FixedArray<Float>       // channels * frames: pitch ratios
    var pitch: UnsafeMutablePointer<Float> { @_noLocks get { pitchMemory.baseAddress } }
    private let vibratoMemory: FixedArray<Float>     // channels * frames: the vibrato LFO, where a key has pressure
    var vibrato: UnsafeMutablePointer<Float> { @_noLocks get { vibratoMemory.baseAddress } }
    private let leftMemory: FixedArray<Float>        // channels * frames: channel gains
    var left: UnsafeMutablePointer<Float> { @_noLocks get { leftMemory.baseAddress } }
    private let rightMemory: FixedArray<Float>
    var right: UnsafeMutablePointer<Float> { @_noLocks get { rightMemory.baseAddress } }
    private let cutoffMemory: FixedArray<Float>      // patches * frames: each built-in patch's smoothed cutoff, log2 Hz
    var cutoff: UnsafeMutablePointer<Float> { @_noLocks get { cutoffMemory.baseAddress } }
    private let dampingMemory: FixedArray<Float>     // patches * frames: smoothed SVF k
    var damping: UnsafeMutablePointer<Float> { @_noLocks get { dampingMemory.baseAddress } }
    private let envelopeAmountMemory: FixedArray<Float> // patches * frames: smoothed filter envelope, octaves
    var envelopeAmount: UnsafeMutablePointer<Float> { @_noLocks get { envelopeAmountMemory.baseAddress } }
    private let masterMemory: FixedArray<Float>      // frames: smoothed master gain
    var master: UnsafeMutablePointer<Float> { @_noLocks get { masterMemory.baseAddress } }
    private let pitchMaxMemory: FixedArray<Float>    // channels: highest pitch ratio this period
    var pitchMax: UnsafeMutablePointer<Float> { @_noLocks get { pitchMaxMemory.baseAddress } }
    // Eight voices at a time (VoiceLanes.swift), `frames` vectors each:
    private let lanesMemory: FixedArray<Lanes>       // 5 * frames: b1, b2, b3, left, right level
    var lanes: UnsafeMutablePointer<Lanes> { @_noLocks get { lanesMemory.baseAddress } }
    private let incrementsMemory: FixedArray<LaneBits> // frames: phase steps when pitch moves
    var increments: UnsafeMutablePointer<LaneBits> { @_noLocks get { incrementsMemory.baseAddress } }
    private let sumLeftMemory: FixedArray<HalfLanes> // 2 * frames: lanes 0-3, 4-7 summed over groups
    var sumLeft: UnsafeMutablePointer<HalfLanes> { @_noLocks get { sumLeftMemory.baseAddress } }
    private let sumRightMemory: FixedArray<HalfLanes>
    var sumRight: UnsafeMutablePointer<HalfLanes> { @_noLocks get { sumRightMemory.baseAddress } }

    init(frames: Int, channels: Int, patches: Int) {
        pitchMemory = FixedArray(channels * frames, 0)
        vibratoMemory = FixedArray(channels * frames, 0)
        leftMemory = FixedArray(channels * frames, 0)
        rightMemory = FixedArray(channels * frames, 0)
        cutoffMemory = FixedArray(patches * frames, 0)
        dampingMemory = FixedArray(patches * frames, 0)
        envelopeAmountMemory = FixedArray(patches * frames, 0)
        masterMemory = FixedArray(frames, 0)
        pitchMaxMemory = FixedArray(channels, 0)
        lanesMemory = FixedArray(5 * frames, .zero)
        incrementsMemory = FixedArray(frames, .zero)
        sumLeftMemory = FixedArray(2 * frames, .zero)
        sumRightMemory = FixedArray(2 * frames, .zero)
    }
}
