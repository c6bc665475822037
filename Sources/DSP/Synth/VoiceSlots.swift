/// What every kind of voice has per slot, struct of arrays with one entry per slot, each a `FixedArray` (freed
/// with the synth). Control state, what the allocator (`VoiceAllocator`) and MIDI in decide on, apart from render
/// state, what the group loops read and write per sample (a kind's own is its part's: the wavetable voices'
/// `BuiltInVoices.slots`, the sample voices' `SoundFontVoices.slots`). Between two `render` calls the filter
/// states of a voice in a kept steady group live in the lane cache (Synth+LaneCache.swift), not here.
struct VoiceSlots: ~Copyable {
    // Control state (VoiceAllocator, MIDI in).
    private let stageMemory: FixedArray<UInt8>        // Synth.Stage
    var stage: UnsafeMutablePointer<UInt8> { @_noLocks get { stageMemory.baseAddress } }
    private let heldMemory: FixedArray<UInt8>         // 1: note-off arrived while the pedal was down
    var held: UnsafeMutablePointer<UInt8> { @_noLocks get { heldMemory.baseAddress } }
    private let kindMemory: FixedArray<UInt8>         // VoiceKind: what the slot plays
    var kind: UnsafeMutablePointer<UInt8> { @_noLocks get { kindMemory.baseAddress } }
    private let channelMemory: FixedArray<UInt8>
    var channel: UnsafeMutablePointer<UInt8> { @_noLocks get { channelMemory.baseAddress } }
    private let noteMemory: FixedArray<UInt8>
    var note: UnsafeMutablePointer<UInt8> { @_noLocks get { noteMemory.baseAddress } }
    private let ageMemory: FixedArray<UInt64>         // note-on serial: smaller is older
    var age: UnsafeMutablePointer<UInt64> { @_noLocks get { ageMemory.baseAddress } }
    private let exclusiveMemory: FixedArray<Int32>    // exclusive class key (VoiceAllocator.exclusiveKey), 0: none
    var exclusive: UnsafeMutablePointer<Int32> { @_noLocks get { exclusiveMemory.baseAddress } }
    private let fadeMemory: FixedArray<Float>         // 1, or falling to 0 when stolen / sound off
    var fade: UnsafeMutablePointer<Float> { @_noLocks get { fadeMemory.baseAddress } }
    private let fadeStepMemory: FixedArray<Float>     // 0 unless fading
    var fadeStep: UnsafeMutablePointer<Float> { @_noLocks get { fadeStepMemory.baseAddress } }
    private let glideMemory: FixedArray<Float>        // portamento: cents from the note's own pitch now, 0 when none
    var glide: UnsafeMutablePointer<Float> { @_noLocks get { glideMemory.baseAddress } }
    private let glideStepMemory: FixedArray<Float>    // cents per sample the glide moves toward 0
    var glideStep: UnsafeMutablePointer<Float> { @_noLocks get { glideStepMemory.baseAddress } }
    // Render state (the group loops).
    private let envelopeMemory: FixedArray<Float>
    var envelope: UnsafeMutablePointer<Float> { @_noLocks get { envelopeMemory.baseAddress } }
    private let amplitudeMemory: FixedArray<Float>    // velocity curve times voiceGain
    var amplitude: UnsafeMutablePointer<Float> { @_noLocks get { amplitudeMemory.baseAddress } }
    private let ic1Memory: FixedArray<Float>          // SVF integrator states
    var ic1: UnsafeMutablePointer<Float> { @_noLocks get { ic1Memory.baseAddress } }
    private let ic2Memory: FixedArray<Float>
    var ic2: UnsafeMutablePointer<Float> { @_noLocks get { ic2Memory.baseAddress } }

    init(count: Int) {
        stageMemory = FixedArray(count, 0)
        heldMemory = FixedArray(count, 0)
        kindMemory = FixedArray(count, 0)
        channelMemory = FixedArray(count, 0)
        noteMemory = FixedArray(count, 0)
        ageMemory = FixedArray(count, 0)
        exclusiveMemory = FixedArray(count, 0)
        fadeMemory = FixedArray(count, 1)
        fadeStepMemory = FixedArray(count, 0)
        glideMemory = FixedArray(count, 0)
        glideStepMemory = FixedArray(count, 0)
        envelopeMemory = FixedArray(count, 0)
        amplitudeMemory = FixedArray(count, 0)
        ic1Memory = FixedArray(count, 0)
        ic2Memory = FixedArray(count, 0)
    }
}

/// What a voice slot plays, the values stored in `VoiceSlots.kind` (bytes, not an enum, for the same reason as
/// `Synth.Stage`): the built-in wavetable voice, a SoundFont sample voice (Sources/DSP/SoundFont/), or a
/// built-in drum voice.
enum VoiceKind {
    static var wavetable: UInt8 { @_noLocks get { 0 } }
    static var sample: UInt8 { @_noLocks get { 1 } }
    /// The built-in drum kit's voice (DrumKit.swift, Synth+Drums.swift).
    static var drum: UInt8 { @_noLocks get { 2 } }
}
