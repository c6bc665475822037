import Realtime

// Per-channel outputs (`--outputs channels`, FluidSynth's multi-channel JACK output): each MIDI channel's dry
// voices in a stereo pair of their own, and the reverb's and the chorus's returns in two more pairs, each after
// the master gain. With them on, every group of voices is rendered into the group buffers and the split fold
// (Synth+ChannelOutputs.swift) adds lane k into voice k's channel as well as into the lane sums, so the main
// output is the same, sample for sample, as with them off. Below the clip knee, the sixteen channels plus the
// two returns add up to the main output. With them off, nothing here is allocated and each fold point is one
// branch.

/// The per-channel output buffers: `bufferCount` rows of `capacity` samples. A period's slices are written one
/// after the other from `cursor` (the engine sets it back to 0 at a period's start, `Synth.startChannelOutputs`).
struct ChannelOutputs: ~Copyable {
    /// Rows: channel ch's left `2 ch`, right `2 ch + 1` (ch 0...15), the reverb's return 32 and 33, the
    /// chorus's 34 and 35.
    static var bufferCount: Int { @_noLocks get { 36 } }
    static var reverbRow: Int { @_noLocks get { 32 } }
    static var chorusRow: Int { @_noLocks get { 34 } }
    /// The most frames one period may have (a JACK period of more gets silence on these ports).
    static var periodLimit: Int { @_noLocks get { 8192 } }

    let isOn: Bool
    /// Samples a row holds: a whole period's.
    let capacity: Int
    private let memory: FixedArray<Float>
    var base: UnsafeMutablePointer<Float> { @_noLocks get { memory.baseAddress } }
    /// Where the slice being rendered starts in every row.
    var cursor = 0

    /// Off: one float, never written.
    init() {
        isOn = false
        capacity = 0
        memory = FixedArray(1, 0)
    }

    /// On, for periods of up to `frames` (at least `periodLimit`).
    init(frames: Int) {
        isOn = true
        capacity = max(frames, Self.periodLimit)
        memory = FixedArray(Self.bufferCount * capacity, 0)
    }

    /// Row `row` at the slice being rendered.
    @_noLocks @inline(__always)
    func at(_ row: Int) -> UnsafeMutablePointer<Float> { base + (row &* capacity &+ cursor) }

    /// A slice's start: its part of every row cleared (a slice past the rows' end starts them again).
    @_noLocks
    mutating func beginSlice(frames: Int) {
        if cursor &+ frames > capacity { cursor = 0 }
        for row in 0..<Self.bufferCount { at(row).update(repeating: 0, count: frames) }
    }

    /// A slice's end: every row times the master gain (`master`, per sample), and the cursor past the slice.
    @_noLocks
    mutating func finishSlice(master: UnsafePointer<Float>, frames: Int) {
        for row in 0..<Self.bufferCount {
            let samples = at(row)
            for n in 0..<frames { samples[n] *= master[n] }
        }
        cursor &+= frames
    }
}
