/// The synth's per-voice state, struct of arrays with one entry per slot, in one `ArrayBlock`. A value of
/// plain pointers: the render loop reads them without reference counting. The synth owns it and frees it
/// in `deinit`. Between two `render` calls the phase and filter states of a voice in a kept steady group
/// live in the lane cache (Synth+LaneCache.swift), not here: only the render path reads them.
struct VoiceSlots {
    let stage: UnsafeMutablePointer<UInt8>        // Synth.Stage
    let held: UnsafeMutablePointer<UInt8>         // 1: note-off arrived while the pedal was down
    let kind: UnsafeMutablePointer<UInt8>         // VoiceKind: what the slot plays
    let channel: UnsafeMutablePointer<UInt8>
    let note: UnsafeMutablePointer<UInt8>
    let age: UnsafeMutablePointer<UInt64>         // note-on serial: smaller is older
    let phase: UnsafeMutablePointer<UInt32>       // cycles times 2^32 (fixed point, wraps)
    let increment: UnsafeMutablePointer<Float>    // cycles per sample at the note's own pitch
    let envelope: UnsafeMutablePointer<Float>
    let amplitude: UnsafeMutablePointer<Float>    // velocity curve times voiceGain
    let filterScale: UnsafeMutablePointer<Float>  // velocity's share of the filter envelope
    let ic1: UnsafeMutablePointer<Float>          // SVF integrator states
    let ic2: UnsafeMutablePointer<Float>
    let fade: UnsafeMutablePointer<Float>         // 1, or falling to 0 when stolen / sound off
    let fadeStep: UnsafeMutablePointer<Float>     // 0 unless fading
    let activeSlots: UnsafeMutablePointer<Int32>  // per slice: steady voices first, the rest last
    let glidingSlots: UnsafeMutablePointer<Int32> // per slice: settled voices whose pitch moves
    private let block: ArrayBlock

    init(count: Int) {
        var block = ArrayBlock(arrays: 17, count: count, bytesPerEntry: 5 * 1 + 8 + 4 + 8 * 4 + 2 * 4)
        stage = block.take(count, 0)
        held = block.take(count, 0)
        kind = block.take(count, 0)
        channel = block.take(count, 0)
        note = block.take(count, 0)
        age = block.take(count, 0)
        phase = block.take(count, 0)
        increment = block.take(count, 0)
        envelope = block.take(count, 0)
        amplitude = block.take(count, 0)
        filterScale = block.take(count, 0)
        ic1 = block.take(count, 0)
        ic2 = block.take(count, 0)
        fade = block.take(count, 1)
        fadeStep = block.take(count, 0)
        activeSlots = block.take(count, 0)
        glidingSlots = block.take(count, 0)
        self.block = block
    }

    func deallocate() { block.deallocate() }
}

/// What a voice slot plays, the values stored in `VoiceSlots.kind` (bytes, not an enum, for the same reason as
/// `Synth.Stage`): the built-in wavetable voice, or a SoundFont sample voice (Sources/DSP/SoundFont/).
enum VoiceKind {
    static var wavetable: UInt8 { @_noLocks get { 0 } }
    static var sample: UInt8 { @_noLocks get { 1 } }
}
