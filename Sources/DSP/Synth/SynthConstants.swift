// The synth's constants.
/// MIDI channels with their own controller state.
var channelCount: Int { @_noLocks get { 16 } }
/// Stolen voices and CC 120 fade out over these times: short, but long enough not to click.
var stealFadeSeconds: Double { @_noLocks get { 0.003 } }
var soundOffFadeSeconds: Double { @_noLocks get { 0.002 } }
/// A voice at velocity 127 and full envelope peaks near this level before pan: a single note leaves
/// about 14 dB of headroom; the soft clipper catches dense chords.
var voiceGain: Float { @_noLocks get { 0.3 } }
/// Above this output level the soft clipper bends the curve; output never reaches 1.
var clipKnee: Float { @_noLocks get { 0.6 } }
/// `WavetableBank.tableSize`, as the real-time path reads it (checked in `init`).
var wavetableSize: Float { @_noLocks get { 2048 } }
/// `WavetableBank.maxHarmonics`.
var maxHarmonics: Float { @_noLocks get { 1023 } }
/// Moving voices get exact filter coefficients every this many samples, interpolated linearly between.
var coefficientInterval: Int { @_noLocks get { 8 } }
/// ... where the cutoff moves by at most this many octaves over the interval (else exact per sample).
var interpolationLimit: Float { @_noLocks get { 1.0 / 32 } }
/// Releases end when the envelope falls below this (-100 dB).
var silenceLevel: Float { @_noLocks get { 1e-5 } }
