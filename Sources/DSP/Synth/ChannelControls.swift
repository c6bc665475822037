/// The synth's per-channel controller state (16 entries each), each a `FixedArray` (freed with the
/// synth).
struct ChannelControls: ~Copyable {
    let bend: FixedArray<Float>           // semitones now
    let bendRange: FixedArray<Float>      // semitones at full bend
    let bendValue: FixedArray<Int32>      // last 14-bit bend - 8192
    let modulation: FixedArray<Float>     // vibrato depth target, semitones
    let vibrato: FixedArray<Float>        // smoothed depth
    let lfoPhase: FixedArray<Float>
    let volume: FixedArray<Float>         // CC7 / 127
    let expression: FixedArray<Float>     // CC11 / 127
    let pan: FixedArray<Float>            // 0 left ... 1 right
    let pedal: FixedArray<UInt8>
    let gainLeft: FixedArray<Float>       // smoothed channel gains
    let gainRight: FixedArray<Float>
    // Tuning (Synth+Tuning.swift), all in the real-time thread's hands.
    let wheel: FixedArray<Float>          // CC1 / 127
    let pressure: FixedArray<Float>       // channel pressure / 127: vibrato, 0.5 semitone at full
    let depthRange: FixedArray<Float>     // RPN 5: vibrato semitones at full wheel (GM2: 0.5)
    let fineTuning: FixedArray<Float>     // RPN 1, cents
    let coarseTuning: FixedArray<Float>   // RPN 2, semitones
    let tuning: FixedArray<Float>         // semitones: channel (RPN 1, 2) plus master tuning
    let tuningProgram: FixedArray<Int32>  // RPN 3: MTS program, -1 none selected
    let tuningBank: FixedArray<Int32>     // RPN 4
    private let scaleMemory: FixedArray<Float>          // 12 per channel: scale/octave tuning, cents per pitch class
    var scale: UnsafeMutablePointer<Float> { @_noLocks get { scaleMemory.baseAddress } }
    /// `tuningTableCapacity` tables of 128 keys: cents off equal temperament, each the MTS tuning program of
    /// one tuning bank, taken in the order messages first write to them.
    private let programsMemory: FixedArray<Float>
    var programs: UnsafeMutablePointer<Float> { @_noLocks get { programsMemory.baseAddress } }
    /// 128 tuning banks x 128 programs: the table in `programs` each uses (-1: none yet, untuned); then, at
    /// index 16384, the tables taken.
    private let tuningTablesMemory: FixedArray<Int16>
    var tuningTables: UnsafeMutablePointer<Int16> { @_noLocks get { tuningTablesMemory.baseAddress } }
    let master: FixedArray<Float>         // fine cents, coarse semitones, balance left gain, right gain
    // Portamento (Synth+Portamento.swift).
    /// 4 per channel (`Portamento` indices): CC5 x 128 + CC37 (milliseconds of a glide); CC65 on (1) or off
    /// (0); the CC84 key the next note glides from (-1 none); the channel's last note-on key (-1 none).
    let portamento: FixedArray<Int32>
    /// 18 per channel (Synth+MonoMode.swift): mono mode (1) or poly (0), how many keys are down, then those
    /// keys, oldest first.
    let mono: FixedArray<UInt8>
    // Drum parts (Synth+Drums.swift).
    let bank: FixedArray<UInt8>           // CC0, bank select MSB
    let rhythm: FixedArray<Int8>          // GS Use For Rhythm Part: -1 not set, 0 normal, 1 drum part

    init() {
        bend = FixedArray(channelCount, 0 as Float)
        bendRange = FixedArray(channelCount, 2 as Float)
        bendValue = FixedArray(channelCount, 0 as Int32)
        modulation = FixedArray(channelCount, 0 as Float)
        vibrato = FixedArray(channelCount, 0 as Float)
        lfoPhase = FixedArray(channelCount, 0 as Float)
        volume = FixedArray(channelCount, 100.0 / 127 as Float)
        expression = FixedArray(channelCount, 1 as Float)
        pan = FixedArray(channelCount, 0.5 as Float)
        pedal = FixedArray(channelCount, 0 as UInt8)
        gainLeft = FixedArray(channelCount, 0 as Float)
        gainRight = FixedArray(channelCount, 0 as Float)
        wheel = FixedArray(channelCount, 0 as Float)
        pressure = FixedArray(channelCount, 0 as Float)
        depthRange = FixedArray(channelCount, 0.5 as Float)
        fineTuning = FixedArray(channelCount, 0 as Float)
        coarseTuning = FixedArray(channelCount, 0 as Float)
        tuning = FixedArray(channelCount, 0 as Float)
        tuningProgram = FixedArray(channelCount, -1 as Int32)
        tuningBank = FixedArray(channelCount, 0 as Int32)
        scaleMemory = FixedArray(12 * channelCount, 0 as Float)
        programsMemory = FixedArray(tuningTableCapacity * 128, 0 as Float)
        tuningTablesMemory = FixedArray(128 * 128 + 1, -1 as Int16)
        master = FixedArray(4, 0 as Float)
        portamento = FixedArray(count: 4 * channelCount) { $0 % 4 >= Portamento.from ? -1 as Int32 : 0 }
        mono = FixedArray(monoStride * channelCount, 0 as UInt8)
        bank = FixedArray(channelCount, 0 as UInt8)
        rhythm = FixedArray(channelCount, -1 as Int8)
        tuningTables[128 * 128] = 0
        master[2] = 1
        master[3] = 1
    }
}

/// Indices into `ChannelControls.portamento` (4 per channel).
enum Portamento {
    static var time: Int { @_noLocks get { 0 } }
    static var on: Int { @_noLocks get { 1 } }
    static var from: Int { @_noLocks get { 2 } }
    static var lastNote: Int { @_noLocks get { 3 } }
}

/// Tuning programs that can hold a tuning at once, over all 128 tuning banks (96 KB): every program of one
/// bank and 64 more.
var tuningTableCapacity: Int { @_noLocks get { 192 } }

/// Entries per channel in `ChannelControls.mono`: the mode, the count, 16 keys.
var monoStride: Int { @_noLocks get { 18 } }
