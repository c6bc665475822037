/// The built-in wavetable voices' per-slot state beside `VoiceSlots` (what every kind of voice has): the
/// patch a note started with, its oscillator's phase and increment, its velocity's share of the filter
/// envelope, its key pressure's vibrato depth, and the slice's lists of the slots it renders. Each array a
/// `FixedArray` of its own, freed with the synth.
struct WavetableSlots: ~Copyable {
    private let patchMemory: FixedArray<UInt8> // built-in patch the note started with (its channel's then)
    var patch: UnsafeMutablePointer<UInt8> { @_noLocks get { patchMemory.baseAddress } }
    private let phaseMemory: FixedArray<UInt32> // cycles times 2^32 (fixed point, wraps)
    var phase: UnsafeMutablePointer<UInt32> { @_noLocks get { phaseMemory.baseAddress } }
    private let incrementMemory: FixedArray<Float> // cycles per sample at the note's own pitch
    var increment: UnsafeMutablePointer<Float> { @_noLocks get { incrementMemory.baseAddress } }
    private let filterScaleMemory: FixedArray<Float> // velocity's share of the filter envelope
    var filterScale: UnsafeMutablePointer<Float> { @_noLocks get { filterScaleMemory.baseAddress } }
    private let keyVibratoMemory: FixedArray<Float> // polyphonic key pressure's vibrato depth, semitones, at the slice's end
    var keyVibrato: UnsafeMutablePointer<Float> { @_noLocks get { keyVibratoMemory.baseAddress } }
    private let activeSlotsMemory: FixedArray<Int32> // per slice: steady voices first, the rest last
    var activeSlots: UnsafeMutablePointer<Int32> { @_noLocks get { activeSlotsMemory.baseAddress } }
    private let glidingSlotsMemory: FixedArray<Int32> // per slice: settled voices whose pitch moves
    var glidingSlots: UnsafeMutablePointer<Int32> { @_noLocks get { glidingSlotsMemory.baseAddress } }

    init(count: Int) {
        patchMemory = FixedArray(count, 0)
        phaseMemory = FixedArray(count, 0)
        incrementMemory = FixedArray(count, 0)
        filterScaleMemory = FixedArray(count, 0)
        keyVibratoMemory = FixedArray(count, 0)
        activeSlotsMemory = FixedArray(count, 0)
        glidingSlotsMemory = FixedArray(count, 0)
    }
}
