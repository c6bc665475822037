/// A channel's pitch: the bend and its range, and its tuning (Synth+Tuning.swift), all in the real-time
/// thread's hands.
struct ChannelPitch: BitwiseCopyable {
    var bend: Float = 0                   // semitones now
    var bendRange: Float = 2              // semitones at full bend
    var bendValue: Int32 = 0              // last 14-bit bend - 8192
    var fineTuning: Float = 0             // RPN 1, cents
    var coarseTuning: Float = 0           // RPN 2, semitones
    var tuning: Float = 0                 // semitones: channel (RPN 1, 2) plus master tuning
    var tuningProgram: Int32 = -1         // RPN 3: MTS program, -1 none selected
    var tuningBank: Int32 = 0             // RPN 4
    /// Scale/octave tuning: cents per pitch class.
    var scale = InlineArray<12, Float>(repeating: 0)
}

/// A channel's vibrato: what sets its depth (the wheel, pressure, RPN 5's range), the depth it glides to and
/// the depth now, and its LFO's phase (`VibratoLFO`).
struct ChannelVibrato: BitwiseCopyable {
    var wheel: Float = 0                  // CC1 / 127
    var pressure: Float = 0               // channel pressure / 127: vibrato, 0.5 semitone at full
    var depthRange: Float = 0.5           // RPN 5: vibrato semitones at full wheel (GM2: 0.5)
    var gm2 = false                       // RPN 5 received since the last reset: GM2's vibrato (Synth+GM2Vibrato.swift)
    var modulation: Float = 0             // vibrato depth target, semitones
    var vibrato: Float = 0                // smoothed depth
    var lfoPhase: Float = 0
    var keysPressed = false               // a key had pressure in the last slice (Synth+KeyPressure.swift)
    var keyVibrato = false                // this slice: a key has pressure, or had it in the last (the depths ramp to 0)
}

/// A channel's levels: volume, expression and pan, and the gains they make, smoothed.
struct ChannelLevels: BitwiseCopyable {
    var volume: Float = 100.0 / 127       // CC7 / 127
    var expression: Float = 1             // CC11 / 127
    var pan: Float = 0.5                  // 0 left ... 1 right
    var gainLeft: Float = 0               // smoothed channel gains
    var gainRight: Float = 0
    var mixerGain: Float = 1              // the channel mixer's volume offset as a gain (Synth+Mixer.swift)
    var mixerPan: Float = 0               // the channel mixer's pan offset, -1 ... 1 (half the pan range each way)
}

/// One channel's controller state, kept inline (no allocation): the synth holds 16 of these in
/// `ChannelControls.channels`, so a field added here (or to one of its parts) needs no new array.
struct ChannelControlState: BitwiseCopyable {
    var pitch = ChannelPitch()
    var vibrato = ChannelVibrato()
    var levels = ChannelLevels()
    var pedal: UInt8 = 0
    // Portamento (Synth+Portamento.swift).
    /// `Portamento` indices: CC5 x 128 + CC37 (milliseconds of a glide); CC65 on (1) or off (0); the CC84
    /// key the next note glides from (-1 none); the channel's last note-on key (-1 none).
    var portamento: InlineArray<4, Int32> = [0, 0, -1, -1]
    /// Mono mode (Synth+MonoMode.swift): mono (1) or poly (0), how many keys are down, then those keys,
    /// oldest first.
    var mono = InlineArray<18, UInt8>(repeating: 0)
    // Drum parts (Synth+Drums.swift).
    var bank: UInt8 = 0                   // CC0, bank select MSB
    var rhythm: Int8 = -1                 // GS Use For Rhythm Part: -1 not set, 0 normal, 1 drum part
    var drumKit: UInt8 = 0                // the built-in kit the channel's program selects (DrumKit.index(program:))
}

/// The synth's controller state: the 16 channels' `ChannelControlState`s inline, their raw values, and the tuning
/// tables and master settings, each a `FixedArray` (freed with the synth).
struct ChannelControls: ~Copyable {
    /// One `ChannelControlState` per channel.
    var channels: InlineArray<16, ChannelControlState>
    /// `tuningTableCapacity` tables of 128 keys: cents off equal temperament, each the MTS tuning program of
    /// one tuning bank, taken in the order messages first write to them.
    private let programsMemory: FixedArray<Float>
    var programs: UnsafeMutablePointer<Float> { @_noLocks get { programsMemory.baseAddress } }
    /// 128 tuning banks x 128 programs: the table in `programs` each uses (-1: none yet, untuned); then, at
    /// index 16384, the tables taken.
    private let tuningTablesMemory: FixedArray<Int16>
    var tuningTables: UnsafeMutablePointer<Int16> { @_noLocks get { tuningTablesMemory.baseAddress } }
    let master: FixedArray<Float>         // fine cents, coarse semitones, balance left gain, right gain
    /// Every controller's value as received, the pitch wheel, pressure, the program, the SoundFont preset
    /// they chose: what the SoundFont modulators and the voices' sends read.
    let midi: SoundFontChannels

    init() {
        channels = InlineArray(repeating: ChannelControlState())
        midi = SoundFontChannels()
        programsMemory = FixedArray(tuningTableCapacity * 128, 0 as Float)
        tuningTablesMemory = FixedArray(128 * 128 + 1, -1 as Int16)
        master = FixedArray(4, 0 as Float)
        tuningTables[128 * 128] = 0
        master[2] = 1
        master[3] = 1
    }
}

/// Indices into `ChannelControlState.portamento`.
enum Portamento {
    static var time: Int { @_noLocks get { 0 } }
    static var on: Int { @_noLocks get { 1 } }
    static var from: Int { @_noLocks get { 2 } }
    static var lastNote: Int { @_noLocks get { 3 } }
}

/// Tuning programs that can hold a tuning at once, over all 128 tuning banks (96 KB): every program of one
/// bank and 64 more.
var tuningTableCapacity: Int { @_noLocks get { 192 } }

/// Entries in `ChannelControlState.mono`: the mode, the count, 16 keys.
var monoStride: Int { @_noLocks get { 18 } }
