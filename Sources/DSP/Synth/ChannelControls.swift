/// The synth's per-channel controller state (16 entries each), owned by its `ArrayStore` (freed with the
/// synth).
struct ChannelControls: ~Copyable {
    let bend: UnsafeMutablePointer<Float>           // semitones now
    let bendRange: UnsafeMutablePointer<Float>      // semitones at full bend
    let bendValue: UnsafeMutablePointer<Int32>      // last 14-bit bend - 8192
    let modulation: UnsafeMutablePointer<Float>     // vibrato depth target, semitones
    let vibrato: UnsafeMutablePointer<Float>        // smoothed depth
    let lfoPhase: UnsafeMutablePointer<Float>
    let volume: UnsafeMutablePointer<Float>         // CC7 / 127
    let expression: UnsafeMutablePointer<Float>     // CC11 / 127
    let pan: UnsafeMutablePointer<Float>            // 0 left ... 1 right
    let pedal: UnsafeMutablePointer<UInt8>
    let gainLeft: UnsafeMutablePointer<Float>       // smoothed channel gains
    let gainRight: UnsafeMutablePointer<Float>
    // Tuning (Synth+Tuning.swift), all in the real-time thread's hands.
    let wheel: UnsafeMutablePointer<Float>          // CC1 / 127
    let pressure: UnsafeMutablePointer<Float>       // channel pressure / 127: vibrato, 0.5 semitone at full
    let depthRange: UnsafeMutablePointer<Float>     // RPN 5: vibrato semitones at full wheel (GM2: 0.5)
    let fineTuning: UnsafeMutablePointer<Float>     // RPN 1, cents
    let coarseTuning: UnsafeMutablePointer<Float>   // RPN 2, semitones
    let tuning: UnsafeMutablePointer<Float>         // semitones: channel (RPN 1, 2) plus master tuning
    let tuningProgram: UnsafeMutablePointer<Int32>  // RPN 3: MTS program, -1 none selected
    let tuningBank: UnsafeMutablePointer<Int32>     // RPN 4
    let scale: UnsafeMutablePointer<Float>          // 12 per channel: scale/octave tuning, cents per pitch class
    /// `tuningTableCapacity` tables of 128 keys: cents off equal temperament, each the MTS tuning program of
    /// one tuning bank, taken in the order messages first write to them.
    let programs: UnsafeMutablePointer<Float>
    /// 128 tuning banks x 128 programs: the table in `programs` each uses (-1: none yet, untuned); then, at
    /// index 16384, the tables taken.
    let tuningTables: UnsafeMutablePointer<Int16>
    let master: UnsafeMutablePointer<Float>         // fine cents, coarse semitones, balance left gain, right gain
    // Portamento (Synth+Portamento.swift).
    /// 4 per channel (`Portamento` indices): CC5 x 128 + CC37 (milliseconds of a glide); CC65 on (1) or off
    /// (0); the CC84 key the next note glides from (-1 none); the channel's last note-on key (-1 none).
    let portamento: UnsafeMutablePointer<Int32>
    /// 18 per channel (Synth+MonoMode.swift): mono mode (1) or poly (0), how many keys are down, then those
    /// keys, oldest first.
    let mono: UnsafeMutablePointer<UInt8>
    // Drum parts (Synth+Drums.swift).
    let bank: UnsafeMutablePointer<UInt8>           // CC0, bank select MSB
    let rhythm: UnsafeMutablePointer<Int8>          // GS Use For Rhythm Part: -1 not set, 0 normal, 1 drum part
    private let store: ArrayStore

    init() {
        var store = ArrayStore()
        bend = store.make(channelCount, 0 as Float)
        bendRange = store.make(channelCount, 2 as Float)
        bendValue = store.make(channelCount, 0 as Int32)
        modulation = store.make(channelCount, 0 as Float)
        vibrato = store.make(channelCount, 0 as Float)
        lfoPhase = store.make(channelCount, 0 as Float)
        volume = store.make(channelCount, 100.0 / 127 as Float)
        expression = store.make(channelCount, 1 as Float)
        pan = store.make(channelCount, 0.5 as Float)
        pedal = store.make(channelCount, 0 as UInt8)
        gainLeft = store.make(channelCount, 0 as Float)
        gainRight = store.make(channelCount, 0 as Float)
        wheel = store.make(channelCount, 0 as Float)
        pressure = store.make(channelCount, 0 as Float)
        depthRange = store.make(channelCount, 0.5 as Float)
        fineTuning = store.make(channelCount, 0 as Float)
        coarseTuning = store.make(channelCount, 0 as Float)
        tuning = store.make(channelCount, 0 as Float)
        tuningProgram = store.make(channelCount, -1 as Int32)
        tuningBank = store.make(channelCount, 0 as Int32)
        scale = store.make(12 * channelCount, 0 as Float)
        programs = store.make(tuningTableCapacity * 128, 0 as Float)
        tuningTables = store.make(128 * 128 + 1, -1 as Int16)
        tuningTables[128 * 128] = 0
        master = store.make(4, 0 as Float)
        portamento = store.make(4 * channelCount) { $0 % 4 >= Portamento.from ? -1 as Int32 : 0 }
        mono = store.make(monoStride * channelCount, 0 as UInt8)
        bank = store.make(channelCount, 0 as UInt8)
        rhythm = store.make(channelCount, -1 as Int8)
        master[2] = 1
        master[3] = 1
        self.store = store
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
