// The SoundFont 2.04 vocabulary, named once: generator numbers (the index into a zone's and a voice's
// generator values) and the modulator source words' fields. The loader, the resolver and the sample voices all
// read these names.

/// SoundFont 2.04 generator numbers (section 8.1.2), the index into `SoundFontZone.generators`.
public enum SoundFontGenerator {
    @inlinable public static var startAddressOffset: Int { @_noLocks get { 0 } }
    @inlinable public static var endAddressOffset: Int { @_noLocks get { 1 } }
    @inlinable public static var startLoopAddressOffset: Int { @_noLocks get { 2 } }
    @inlinable public static var endLoopAddressOffset: Int { @_noLocks get { 3 } }
    @inlinable public static var startAddressCoarseOffset: Int { @_noLocks get { 4 } }
    @inlinable public static var modLFOToPitch: Int { @_noLocks get { 5 } }
    @inlinable public static var vibLFOToPitch: Int { @_noLocks get { 6 } }
    @inlinable public static var modEnvToPitch: Int { @_noLocks get { 7 } }
    @inlinable public static var initialFilterFc: Int { @_noLocks get { 8 } }
    @inlinable public static var initialFilterQ: Int { @_noLocks get { 9 } }
    @inlinable public static var modLFOToFilterFc: Int { @_noLocks get { 10 } }
    @inlinable public static var modEnvToFilterFc: Int { @_noLocks get { 11 } }
    @inlinable public static var endAddressCoarseOffset: Int { @_noLocks get { 12 } }
    @inlinable public static var modLFOToVolume: Int { @_noLocks get { 13 } }
    @inlinable public static var chorusEffectsSend: Int { @_noLocks get { 15 } }
    @inlinable public static var reverbEffectsSend: Int { @_noLocks get { 16 } }
    @inlinable public static var pan: Int { @_noLocks get { 17 } }
    @inlinable public static var delayModLFO: Int { @_noLocks get { 21 } }
    @inlinable public static var freqModLFO: Int { @_noLocks get { 22 } }
    @inlinable public static var delayVibLFO: Int { @_noLocks get { 23 } }
    @inlinable public static var freqVibLFO: Int { @_noLocks get { 24 } }
    @inlinable public static var delayModEnv: Int { @_noLocks get { 25 } }
    @inlinable public static var attackModEnv: Int { @_noLocks get { 26 } }
    @inlinable public static var holdModEnv: Int { @_noLocks get { 27 } }
    @inlinable public static var decayModEnv: Int { @_noLocks get { 28 } }
    @inlinable public static var sustainModEnv: Int { @_noLocks get { 29 } }
    @inlinable public static var releaseModEnv: Int { @_noLocks get { 30 } }
    @inlinable public static var keynumToModEnvHold: Int { @_noLocks get { 31 } }
    @inlinable public static var keynumToModEnvDecay: Int { @_noLocks get { 32 } }
    @inlinable public static var delayVolEnv: Int { @_noLocks get { 33 } }
    @inlinable public static var attackVolEnv: Int { @_noLocks get { 34 } }
    @inlinable public static var holdVolEnv: Int { @_noLocks get { 35 } }
    @inlinable public static var decayVolEnv: Int { @_noLocks get { 36 } }
    @inlinable public static var sustainVolEnv: Int { @_noLocks get { 37 } }
    @inlinable public static var releaseVolEnv: Int { @_noLocks get { 38 } }
    @inlinable public static var keynumToVolEnvHold: Int { @_noLocks get { 39 } }
    @inlinable public static var keynumToVolEnvDecay: Int { @_noLocks get { 40 } }
    @inlinable public static var instrument: Int { @_noLocks get { 41 } }
    @inlinable public static var keyRange: Int { @_noLocks get { 43 } }
    @inlinable public static var velRange: Int { @_noLocks get { 44 } }
    @inlinable public static var startLoopAddressCoarseOffset: Int { @_noLocks get { 45 } }
    @inlinable public static var keynum: Int { @_noLocks get { 46 } }
    @inlinable public static var velocity: Int { @_noLocks get { 47 } }
    @inlinable public static var initialAttenuation: Int { @_noLocks get { 48 } }
    @inlinable public static var endLoopAddressCoarseOffset: Int { @_noLocks get { 50 } }
    @inlinable public static var coarseTune: Int { @_noLocks get { 51 } }
    @inlinable public static var fineTune: Int { @_noLocks get { 52 } }
    @inlinable public static var sampleID: Int { @_noLocks get { 53 } }
    @inlinable public static var sampleModes: Int { @_noLocks get { 54 } }
    @inlinable public static var scaleTuning: Int { @_noLocks get { 56 } }
    @inlinable public static var exclusiveClass: Int { @_noLocks get { 57 } }
    @inlinable public static var overridingRootKey: Int { @_noLocks get { 58 } }
    /// The "initial pitch" destination of the default pitch-wheel modulator (section 8.4.10): not a generator
    /// a file may set, so it uses the unused number 59 (as FluidSynth does); its value is in cents.
    @inlinable public static var initialPitch: Int { @_noLocks get { 59 } }
    /// Generators 0..<count exist (60, endOper, is the terminator).
    @inlinable public static var count: Int { @_noLocks get { 61 } }

    /// The specification's default value of each generator (section 8.1.3): -12000 timecents for envelope and
    /// LFO delays and times, 13500 cents for the filter cutoff, 100 for scale tuning, -1 for keynum, velocity
    /// and the overriding root key, 0 otherwise. Ranges are not generators here (see `SoundFontZone`).
    public static func defaultValue(_ generator: Int) -> Int32 {
        switch generator {
        case initialFilterFc: 13500
        case delayModLFO, delayVibLFO, delayModEnv, attackModEnv, holdModEnv, decayModEnv, releaseModEnv,
             delayVolEnv, attackVolEnv, holdVolEnv, decayVolEnv, releaseVolEnv: -12000
        case scaleTuning: 100
        case keynum, velocity, overridingRootKey: -1
        default: 0
        }
    }
}

/// The fields of an SFModulator source word (section 8.2): an index (bits 0-6) that names a MIDI controller
/// when the CC flag (bit 7) is set and one of the general controllers below when it is not, the direction
/// (bit 8), the polarity (bit 9) and the curve type (bits 10-15: 0 linear, 1 concave, 2 convex, 3 switch).
enum ModulatorSource {
    static var indexMask: UInt16 { @_noLocks get { 0x7F } }
    /// Set: the index is a MIDI controller number (a `Controller`).
    static var controllerFlag: UInt16 { @_noLocks get { 0x80 } }
    /// Set: the source runs from max to min.
    static var negativeDirection: UInt16 { @_noLocks get { 0x100 } }
    /// Set: the source runs -1...1 rather than 0...1.
    static var bipolar: UInt16 { @_noLocks get { 0x200 } }
    static var typeShift: UInt16 { @_noLocks get { 10 } }

    // The general controllers (section 8.2.1), indexes when the CC flag is clear.
    /// No controller: the source is a constant 1.
    static var noController: Int { @_noLocks get { 0 } }
    static var noteOnVelocity: Int { @_noLocks get { 2 } }
    static var noteOnKey: Int { @_noLocks get { 3 } }
    static var polyPressure: Int { @_noLocks get { 10 } }
    static var channelPressure: Int { @_noLocks get { 13 } }
    static var pitchWheel: Int { @_noLocks get { 14 } }
    static var pitchWheelSensitivity: Int { @_noLocks get { 16 } }
    /// The output of another modulator (linked modulators, not followed).
    static var link: Int { @_noLocks get { 127 } }
}
