// The state of one SoundFont sample voice and its control-rate math: the volume and modulation envelopes
// (DAHDSR), the two triangle LFOs, and the SoundFont units. The per-sample work (interpolation, filter, mix)
// is in Synth+SampleGroup.swift; the voice is set up from its zone in Synth+SampleVoices.swift.
//
// Units, as the SoundFont 2.04 specification defines them: timecents -> seconds 2^(tc/1200), absolute cents
// -> Hz 8.176 * 2^(c/1200), centibels of attenuation -> amplitude 10^(-cB/200).

/// An envelope: delay, attack, hold, decay, sustain, release, done. The value is 0...1. For the volume
/// envelope the attack is linear in amplitude and the later stages are linear in the value, which is read
/// as 96 dB * (1 - value) of attenuation (exponential in amplitude), as FluidSynth does; for the modulation
/// envelope every stage is linear in the value.
struct SampleEnvelope: BitwiseCopyable {
    var stage: Int32 = SampleEnvelope.delay
    var value: Float = 0
    /// Samples left in the delay or hold stage; the hold's length.
    var remaining: Float = 0, hold: Float = 0
    /// The attack's and decay's steps per sample, the sustain level, the release's step.
    var attackStep: Float = 1, decayStep: Float = 1, sustain: Float = 1, releaseStep: Float = 1

    @_noLocks init() {}

    static var delay: Int32 { @_noLocks get { 0 } }
    static var attack: Int32 { @_noLocks get { 1 } }
    static var holding: Int32 { @_noLocks get { 2 } }
    static var decay: Int32 { @_noLocks get { 3 } }
    static var sustaining: Int32 { @_noLocks get { 4 } }
    static var release: Int32 { @_noLocks get { 5 } }
    static var done: Int32 { @_noLocks get { 6 } }

    /// An envelope from its generators in timecents (delay, attack, hold, decay, release) and the sustain
    /// level (0...1 of the value), at `rate` samples per second.
    @_noLocks
    init(delay: Float, attack: Float, hold: Float, decay: Float, sustain: Float, release: Float, rate: Float) {
        // The specification's most negative delay (-12000, its default) is taken as none, as FluidSynth's
        // period-quantized envelope does in effect: a default voice starts at its note's frame.
        remaining = delay <= -12000 ? 0 : samples(timecents: min(delay, 5000), rate: rate)
        attackStep = 1 / max(samples(timecents: min(attack, 8000), rate: rate), 1)
        self.hold = hold <= -12000 ? 0 : samples(timecents: min(hold, 5000), rate: rate)
        decayStep = 1 / max(samples(timecents: min(decay, 8000), rate: rate), 1)
        self.sustain = min(max(sustain, 0), 1)
        releaseStep = 1 / max(samples(timecents: min(release, 8000), rate: rate), 1)
        stage = remaining > 0 ? SampleEnvelope.delay : SampleEnvelope.attack
    }

    /// The envelope of the six generators from `delay` on (delay, attack, hold, decay, sustain, release:
    /// 25-30 for the modulation envelope, 33-38 for the volume envelope) and the two key-number scalings of
    /// hold and decay that follow them, keyed `keyOffset` (60 - key) keys away; `sustain` is read by the caller.
    @_noLocks
    init(_ values: GeneratorValues, delay: Int, sustain: Float, keyOffset: Float, rate: Float) {
        self.init(delay: values[delay], attack: values[delay + 1],
                  hold: values[delay + 2] + values[delay + 6] * keyOffset,
                  decay: values[delay + 3] + values[delay + 7] * keyOffset,
                  sustain: sustain, release: values[delay + 5], rate: rate)
    }

    /// Moves the envelope `count` samples on, through as many stages as that crosses.
    @_noLocks
    mutating func advance(_ count: Float) {
        var n = count
        while n > 0 {
            switch stage {
            case SampleEnvelope.delay, SampleEnvelope.holding: // a wait, then the attack or the decay
                if remaining > n { remaining -= n; return }
                n -= remaining
                remaining = 0
                stage = stage == SampleEnvelope.delay ? SampleEnvelope.attack : SampleEnvelope.decay
            case SampleEnvelope.attack:
                value += attackStep * n
                if value < 1 { return }
                n = (value - 1) / attackStep
                value = 1
                remaining = hold
                stage = SampleEnvelope.holding
            case SampleEnvelope.decay:
                value -= decayStep * n
                if value > sustain { return }
                n = 0
                value = sustain
                stage = sustain > 0 ? SampleEnvelope.sustaining : SampleEnvelope.done
            case SampleEnvelope.release:
                value -= releaseStep * n
                if value > 0 { return }
                value = 0
                stage = SampleEnvelope.done
                return
            default:
                return
            }
        }
    }

    /// The key is let go. A volume envelope still in its attack (`decibelValue`) first converts its linear
    /// amplitude into the value that gives the same attenuation, so the release starts where the sound is.
    @_noLocks
    mutating func release(decibelValue: Bool) {
        guard stage < SampleEnvelope.release else { return }
        if stage == SampleEnvelope.delay {
            value = 0
        } else if stage == SampleEnvelope.attack && decibelValue {
            // amplitude a = 10^(-960 (1 - v) / 200)  =>  v = 1 + (200 / 960) log10(a)
            value = value > 0 ? min(max(1 + 0.208_333_33 * 0.301_029_995 * FastMath.log2(value), 0), 1) : 0
        }
        stage = value > 0 ? SampleEnvelope.release : SampleEnvelope.done
    }

}

/// A triangle LFO (-1...1, starting at 0 and rising) after a delay.
struct SampleLFO: BitwiseCopyable {
    var remaining: Float = 0
    var phase: Float = 0
    var increment: Float = 0
    /// A sine in place of the triangle: GM2's vibrato (Synth+GM2Vibrato.swift), SFZ's sine LFOs (`SampleZoneRule.sineLFOs`).
    var isSine = false

    @_noLocks init() {}

    /// An LFO from its delay (timecents) and frequency (absolute cents) at `rate` samples per second.
    @_noLocks
    init(delay: Float, frequency: Float, rate: Float) {
        remaining = delay <= -12000 ? 0 : samples(timecents: min(delay, 5000), rate: rate)
        let hertz = 8.176 * FastMath.exp2(min(max(frequency, -16000), 4500) / 1200)
        increment = hertz / rate
    }

    @_noLocks @inline(__always)
    mutating func advance(_ count: Float) {
        var n = count
        if remaining > 0 {
            if remaining >= n { remaining -= n; return }
            n -= remaining
            remaining = 0
        }
        phase += n * increment
        // The phase passes 1 at most once a block or so: the float-to-integer conversion (with its range
        // checks) only then, which gives the same phase as always doing it.
        if phase >= 1 { phase -= Float(Int(phase)) }
    }
}

/// Where a sample voice plays in its sample: the rate, position, end and loop, its copy of a short loop, and
/// the channel gains the next control block ramps from.
struct SamplePlayback: BitwiseCopyable {
    var rateRatio: Float = 1
    /// Position: integer frame index into the font's sample data and a 32-bit fraction.
    var position: Int32 = 0, fraction: UInt32 = 0
    /// Frame indices of the sample's end and its loop.
    var end: Int32 = 0, loopStart: Int32 = 0, loopEnd: Int32 = 0
    /// Frame index of the sample's first frame (its header's start): the sinc reads silence before it, not the
    /// frames of the sample before.
    var first: Int32 = 0
    /// Channel gains at the end of the last control block (what the next block ramps from).
    var lastLeft: Float = 0, lastRight: Float = 0
    /// Frames its copy of a short loop spans (`SampleVoiceSlots.unrolledLoops`), 0 while it plays from the
    /// font's data.
    var unrolledSpan: Int32 = 0
    /// Which copy it plays from, while `unrolledSpan` is not 0.
    var copy: Int32 = 0

    @_noLocks init() {}
}

/// A sample voice's modulated parameters: its generators plus its modulators (Synth+SoundFontModulators.swift),
/// set at note-on and when a controller moves.
struct SampleModulation: BitwiseCopyable {
    /// Cents the key's tuning moves it (scale/octave and MTS program tuning), set at note-on and by
    /// real-time tuning messages (Synth+Tuning.swift).
    var tuningCents: Float = 0
    var pitchCents: Float = 0, attenuation: Float = 0
    var panLeft: Float = 0.707, panRight: Float = 0.707
    /// Shares of the output sent to the reverb and chorus buses, 0...1 (generators 16 and 15 with their modulators).
    var reverbSend: Float = 0, chorusSend: Float = 0
    var filterCents: Float = 13500, filterDamping: Float = 1.414
    /// The filter's output as `svfMixStep` mixes it (`SampleFilterShape.mix`): the low-pass alone unless the
    /// zone has another shape.
    var filterMixInput: Float = 0, filterMixBand: Float = 0, filterMixLow: Float = 1
    /// How far the modulation LFO, the vibrato LFO and the modulation envelope move the pitch (cents), the
    /// modulation LFO and envelope the cutoff (cents), the modulation LFO the level (centibels).
    var modLFOToPitch: Float = 0, vibLFOToPitch: Float = 0, modEnvToPitch: Float = 0
    var modLFOToFilter: Float = 0, modEnvToFilter: Float = 0, modLFOToVolume: Float = 0

    @_noLocks init() {}
}

/// One sample voice, beside its slot's state (`VoiceSlots`): which zone it plays, where it is in the sample
/// (`playback`, with the levels of its last control block), its modulated parameters (`modulation`, refreshed
/// when the channel's controllers change), its envelopes and LFOs.
struct SampleVoice: BitwiseCopyable {
    /// The zone and preset it plays, its key and velocity, its zone's exclusive class.
    var zone: Int32 = 0, preset: Int32 = -1
    var key: UInt8 = 60, velocity: UInt8 = 0, exclusiveClass: UInt8 = 0
    /// Generator 54: 0 no loop, 1 continuous, 3 loop until release then on to the end (2 is taken as 0).
    var loopMode: UInt8 = 0
    /// 1 once the key was let go and the envelopes entered their release.
    var released: UInt8 = 0
    /// The stack layer whose sample data `playback.position` indexes (0 for one font:
    /// `SoundFontTables.layer(ofSample:)`).
    var layer: UInt8 = 0
    /// The level the note keeps as a factor: the zone's `gain` times what its rules chose at the note-on (an
    /// SFZ region's crossfades, key tracking, a release's decay). 1 for SF2 zones; the pan gains carry it.
    var gain: Float = 1
    var playback = SamplePlayback()
    var modulation = SampleModulation()
    var volumeEnvelope = SampleEnvelope()
    var modulationEnvelope = SampleEnvelope()
    var modulationLFO = SampleLFO()
    var vibratoLFO = SampleLFO()

    @_noLocks init() {}

    /// Whether the voice still loops (mode 1, or mode 3 before the release).
    @inline(__always)
    var loops: Bool { @_noLocks get { loopMode == 1 || (loopMode == 3 && released == 0) } }
}

@_noLocks @inline(__always)
func samples(timecents: Float, rate: Float) -> Float {
    FastMath.exp2(max(timecents, -12000) / 1200) * rate
}
