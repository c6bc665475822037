/// The generator numbers of `SoundFontGenerator` as the real-time path reads them (`@_noLocks` getters: code
/// in other files may call them under the checker).
enum Generator {
    static var startAddressOffset: Int { @_noLocks get { 0 } }
    static var endAddressOffset: Int { @_noLocks get { 1 } }
    static var startLoopAddressOffset: Int { @_noLocks get { 2 } }
    static var endLoopAddressOffset: Int { @_noLocks get { 3 } }
    static var startAddressCoarseOffset: Int { @_noLocks get { 4 } }
    static var modLFOToPitch: Int { @_noLocks get { 5 } }
    static var vibLFOToPitch: Int { @_noLocks get { 6 } }
    static var modEnvToPitch: Int { @_noLocks get { 7 } }
    static var initialFilterFc: Int { @_noLocks get { 8 } }
    static var initialFilterQ: Int { @_noLocks get { 9 } }
    static var modLFOToFilterFc: Int { @_noLocks get { 10 } }
    static var modEnvToFilterFc: Int { @_noLocks get { 11 } }
    static var endAddressCoarseOffset: Int { @_noLocks get { 12 } }
    static var modLFOToVolume: Int { @_noLocks get { 13 } }
    static var chorusEffectsSend: Int { @_noLocks get { 15 } }
    static var reverbEffectsSend: Int { @_noLocks get { 16 } }
    static var pan: Int { @_noLocks get { 17 } }
    static var delayModLFO: Int { @_noLocks get { 21 } }
    static var freqModLFO: Int { @_noLocks get { 22 } }
    static var delayVibLFO: Int { @_noLocks get { 23 } }
    static var freqVibLFO: Int { @_noLocks get { 24 } }
    static var delayModEnv: Int { @_noLocks get { 25 } }
    static var attackModEnv: Int { @_noLocks get { 26 } }
    static var holdModEnv: Int { @_noLocks get { 27 } }
    static var decayModEnv: Int { @_noLocks get { 28 } }
    static var sustainModEnv: Int { @_noLocks get { 29 } }
    static var releaseModEnv: Int { @_noLocks get { 30 } }
    static var keynumToModEnvHold: Int { @_noLocks get { 31 } }
    static var keynumToModEnvDecay: Int { @_noLocks get { 32 } }
    static var delayVolEnv: Int { @_noLocks get { 33 } }
    static var attackVolEnv: Int { @_noLocks get { 34 } }
    static var holdVolEnv: Int { @_noLocks get { 35 } }
    static var decayVolEnv: Int { @_noLocks get { 36 } }
    static var sustainVolEnv: Int { @_noLocks get { 37 } }
    static var releaseVolEnv: Int { @_noLocks get { 38 } }
    static var keynumToVolEnvHold: Int { @_noLocks get { 39 } }
    static var keynumToVolEnvDecay: Int { @_noLocks get { 40 } }
    static var instrument: Int { @_noLocks get { 41 } }
    static var keyRange: Int { @_noLocks get { 43 } }
    static var velRange: Int { @_noLocks get { 44 } }
    static var startLoopAddressCoarseOffset: Int { @_noLocks get { 45 } }
    static var keynum: Int { @_noLocks get { 46 } }
    static var velocity: Int { @_noLocks get { 47 } }
    static var initialAttenuation: Int { @_noLocks get { 48 } }
    static var endLoopAddressCoarseOffset: Int { @_noLocks get { 50 } }
    static var coarseTune: Int { @_noLocks get { 51 } }
    static var fineTune: Int { @_noLocks get { 52 } }
    static var sampleID: Int { @_noLocks get { 53 } }
    static var sampleModes: Int { @_noLocks get { 54 } }
    static var scaleTuning: Int { @_noLocks get { 56 } }
    static var exclusiveClass: Int { @_noLocks get { 57 } }
    static var overridingRootKey: Int { @_noLocks get { 58 } }
    /// The default pitch-wheel modulator's destination (cents), as the loader stores it.
    static var initialPitch: Int { @_noLocks get { 59 } }
}
