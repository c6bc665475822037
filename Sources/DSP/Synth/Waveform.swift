/// The oscillator shapes of the synth: the four classic ones, then the spectra of the General MIDI families'
/// patches (docs/builtin-programs.md). Each is one cycle of harmonics (`WavetableBank`); the filter and the
/// envelopes shape it further.
public enum Waveform: Int, CaseIterable, Sendable, CustomStringConvertible {
    case sine = 0, triangle, saw, square
    /// Drawbar organ: the fundamental, octaves and the twelfth (16', 8', 5 1/3', 4', 2', 1').
    case organ
    /// Clarinet and hollow pipes: odd harmonics, the even ones almost absent.
    case clarinet
    /// Double reeds, accordion, bagpipe: a formant around the fourth harmonic over a thin 1/k.
    case nasal
    /// Brass and saxophones: a slow roll-off (k^-0.75), brighter than a saw.
    case brassy
    /// Electric piano tine: the fundamental, a soft octave and a faint bell partial.
    case tine
    /// Marimba and vibraphone bars: the fundamental with partials 4 and 10.
    case mallet
    /// Bells, celesta, glockenspiel: strong partials up to the fifteenth.
    case bell
    /// Choir "aah": formants at the third and sixth harmonics.
    case vocal
    /// A 25 % pulse: harpsichord, clavinet, chiff.
    case pulse
    /// Harmonics of equal weight and random sign (white): breath, seashore, applause, the noisy effects.
    case noise
    /// Bowed strings: a saw with a ripple of resonances.
    case bowed
    /// A string plucked at a fifth of its length: guitars, harp, koto.
    case plucked
    /// Bass strings: the fundamental strong, k^-1.6 above it.
    case bass
    /// Fifths: the fundamental with a strong twelfth (harmonic 3) and its octave.
    case fifths

    public var description: String {
        switch self {
        case .sine: "sine"
        case .triangle: "triangle"
        case .saw: "saw"
        case .square: "square"
        case .organ: "organ"
        case .clarinet: "clarinet"
        case .nasal: "nasal"
        case .brassy: "brassy"
        case .tine: "tine"
        case .mallet: "mallet"
        case .bell: "bell"
        case .vocal: "vocal"
        case .pulse: "pulse"
        case .noise: "noise"
        case .bowed: "bowed"
        case .plucked: "plucked"
        case .bass: "bass"
        case .fifths: "fifths"
        }
    }

    /// The highest waveform number, for the real-time path's clamp.
    static var last: Int { @_noLocks get { 17 } }
}
