/// The synth's per-voice state, struct of arrays with one entry per slot, owned by its `ArrayStore` (freed
/// with the synth). Control state, what the allocator (`VoiceAllocator`) and MIDI in decide on, apart from render
/// state, what the group loops read and write per sample. Between two `render` calls the phase and filter
/// states of a voice in a kept steady group live in the lane cache (Synth+LaneCache.swift), not here.
struct VoiceSlots: ~Copyable {
    // Control state (VoiceAllocator, MIDI in).
    let stage: UnsafeMutablePointer<UInt8>        // Synth.Stage
    let held: UnsafeMutablePointer<UInt8>         // 1: note-off arrived while the pedal was down
    let kind: UnsafeMutablePointer<UInt8>         // VoiceKind: what the slot plays
    let channel: UnsafeMutablePointer<UInt8>
    let note: UnsafeMutablePointer<UInt8>
    let age: UnsafeMutablePointer<UInt64>         // note-on serial: smaller is older
    let exclusive: UnsafeMutablePointer<Int32>    // exclusive class key (VoiceAllocator.exclusiveKey), 0: none
    let fade: UnsafeMutablePointer<Float>         // 1, or falling to 0 when stolen / sound off
    let fadeStep: UnsafeMutablePointer<Float>     // 0 unless fading
    let glide: UnsafeMutablePointer<Float>        // portamento: cents from the note's own pitch now, 0 when none
    let glideStep: UnsafeMutablePointer<Float>    // cents per sample the glide moves toward 0
    let patch: UnsafeMutablePointer<UInt8>        // built-in patch the note started with (its channel's then)
    // Render state (the group loops).
    let phase: UnsafeMutablePointer<UInt32>       // cycles times 2^32 (fixed point, wraps)
    let increment: UnsafeMutablePointer<Float>    // cycles per sample at the note's own pitch
    let envelope: UnsafeMutablePointer<Float>
    let amplitude: UnsafeMutablePointer<Float>    // velocity curve times voiceGain
    let filterScale: UnsafeMutablePointer<Float>  // velocity's share of the filter envelope
    let ic1: UnsafeMutablePointer<Float>          // SVF integrator states
    let ic2: UnsafeMutablePointer<Float>
    let activeSlots: UnsafeMutablePointer<Int32>  // per slice: steady voices first, the rest last
    let glidingSlots: UnsafeMutablePointer<Int32> // per slice: settled voices whose pitch moves

    private let store: ArrayStore

    init(count: Int) {
        var store = ArrayStore()
        stage = store.make(count, 0)
        held = store.make(count, 0)
        kind = store.make(count, 0)
        channel = store.make(count, 0)
        note = store.make(count, 0)
        age = store.make(count, 0)
        exclusive = store.make(count, 0)
        fade = store.make(count, 1)
        fadeStep = store.make(count, 0)
        glide = store.make(count, 0)
        glideStep = store.make(count, 0)
        patch = store.make(count, 0)
        phase = store.make(count, 0)
        increment = store.make(count, 0)
        envelope = store.make(count, 0)
        amplitude = store.make(count, 0)
        filterScale = store.make(count, 0)
        ic1 = store.make(count, 0)
        ic2 = store.make(count, 0)
        activeSlots = store.make(count, 0)
        glidingSlots = store.make(count, 0)
        self.store = store
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
