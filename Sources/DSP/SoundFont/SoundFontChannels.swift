import MIDI
import Synchronization

/// What the SoundFont voices read of each of the 16 channels beyond `ChannelControls`: every controller's
/// value (the modulators' sources), the pitch wheel, channel pressure, the bank and program selected and the
/// preset they chose. Its arrays are `FixedArray`s, freed with the synth. Real-time thread only.
struct SoundFontChannels: ~Copyable {
    /// 128 controller values per channel: `controllers[channel * 128 + number]`.
    private let controllersMemory: FixedArray<UInt8>
    var controllers: UnsafeMutablePointer<UInt8> { @_noLocks get { controllersMemory.baseAddress } }
    /// 14-bit pitch wheel, 0...16383 (8192 centre).
    let pitchWheel: FixedArray<Int32>
    let pressure: FixedArray<UInt8>
    /// Polyphonic key pressure, 128 keys per channel: `keyPressure[channel * 128 + key]`.
    private let keyPressureMemory: FixedArray<UInt8>
    var keyPressure: UnsafeMutablePointer<UInt8> { @_noLocks get { keyPressureMemory.baseAddress } }
    let program: FixedArray<UInt8>
    /// Index into the font's presets, or -1 (nothing plays on the channel).
    let preset: FixedArray<Int32>
    /// When the preset the channel plays is not the bank and program it asked for (a fallback, or nothing):
    /// `PresetSubstitution.packed`, said at the channel's next note; 0 otherwise.
    let substitution: FixedArray<Int>
    /// 1 once the channel's substitution was said (once per channel while the synth lives).
    let substitutionSaid: FixedArray<UInt8>

    init() {
        controllersMemory = FixedArray(128 * channelCount, 0 as UInt8)
        pitchWheel = FixedArray(channelCount, 8192 as Int32)
        pressure = FixedArray(channelCount, 0 as UInt8)
        keyPressureMemory = FixedArray(128 * channelCount, 0 as UInt8)
        program = FixedArray(channelCount, 0 as UInt8)
        preset = FixedArray(channelCount, -1 as Int32)
        substitution = FixedArray(channelCount, 0)
        substitutionSaid = FixedArray(channelCount, 0 as UInt8)
        for ch in 0..<channelCount { resetControllers(ch, all: true) }
    }

    /// The controllers' power-on values (`all`), or what "reset all controllers" resets (RP-015: modulation,
    /// expression, the pedals CC 64-67, the RPN and NRPN selection, the pitch wheel, channel and key pressure; volume, pan,
    /// the bank, effect depths and sound controllers stay).
    @_noLocks
    func resetControllers(_ ch: Int, all: Bool) {
        let cc = controllers + ch * 128
        if all {
            cc.update(repeating: 0, count: 128)
            cc[Int(Controller.volume.rawValue)] = 100
            cc[Int(Controller.pan.rawValue)] = 64
            // The sound controllers (CC70-79) are centred: 64 is no change (GM2; FluidSynth does the same).
            for n in 70...79 { cc[n] = 64 }
        } else {
            cc[Int(Controller.modulationWheel.rawValue)] = 0
            // The pedals: sustain, portamento, sostenuto, soft (not legato or hold 2: RP-015 lists 64-67).
            for n in Controller.sustain.rawValue...(Controller.sustain.rawValue + 3) { cc[Int(n)] = 0 }
        }
        // No parameter number selected (RP-015: null, 7F 7F).
        for n in Controller.nrpnLSB.rawValue...Controller.rpnMSB.rawValue { cc[Int(n)] = 127 }
        cc[Int(Controller.expression.rawValue)] = 127
        pitchWheel[ch] = 8192
        pressure[ch] = 0
        (keyPressure + ch * 128).update(repeating: 0, count: 128)
    }
}

/// Each channel's preset between the real-time thread and any other: the one playing, which the real-time
/// thread publishes, and the one the UI asked for, which it applies before its next slice (-1: none).
/// Also each channel's first preset substitution (`PresetSubstitution.packed`, 0: none), published by the
/// real-time thread at the note that plays it, taken by whoever reports it.
struct PresetExchange: ~Copyable {
    let playing: InlineArray<16, Atomic<Int>>
    let requested: InlineArray<16, Atomic<Int>>
    let substitution: InlineArray<16, Atomic<Int>>

    init() {
        playing = InlineArray { _ in Atomic(-1) }
        requested = InlineArray { _ in Atomic(-1) }
        substitution = InlineArray { _ in Atomic(0) }
    }
}
