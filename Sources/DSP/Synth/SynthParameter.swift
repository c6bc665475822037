/// A sound parameter the user can edit while playing; the synth smooths continuous ones per sample.
public enum SynthParameter: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// `Waveform.rawValue` as a float (0 sine, 1 triangle, 2 saw, 3 square).
    case waveform = 0
    /// Envelope attack, seconds (linear rise to full level).
    case attack
    /// Envelope decay, seconds (from full level to within -80 dB of the sustain level).
    case decay
    /// Envelope sustain level, 0...1.
    case sustain
    /// Envelope release, seconds (from full level down to -100 dB, where the voice ends).
    case release
    /// Low-pass cutoff, Hz (before the envelope's contribution).
    case cutoff
    /// Low-pass resonance, 0 (Q 0.5) ... 1 (Q about 17).
    case resonance
    /// How far the envelope opens the filter at full level, octaves.
    case filterEnvelopeAmount
    /// Master gain, dB.
    case masterGain

    /// Display name.
    public var name: String {
        switch self {
        case .waveform: "waveform"
        case .attack: "attack"
        case .decay: "decay"
        case .sustain: "sustain"
        case .release: "release"
        case .cutoff: "cutoff"
        case .resonance: "resonance"
        case .filterEnvelopeAmount: "filter env"
        case .masterGain: "master gain"
        }
    }

    public var description: String { name }

    /// Unit for display ("" when none).
    public var unit: String {
        switch self {
        case .attack, .decay, .release: "s"
        case .cutoff: "Hz"
        case .filterEnvelopeAmount: "oct"
        case .masterGain: "dB"
        case .waveform, .sustain, .resonance: ""
        }
    }

    /// Values outside are clamped by `Synth.setParameter`.
    public var range: ClosedRange<Float> { bounds.lower...bounds.upper }

    /// The value of the patch the synth starts with (`SynthPatch.defaultPatch`).
    public var defaultValue: Float { SynthPatch.builtIn[SynthPatch.defaultPatch].value(of: self) }
}

// Read by the synth on the real-time thread: `@_noLocks` so the checker trusts them from other files.
extension SynthParameter {
    /// `range` as a plain pair (what the real-time path reads).
    var bounds: (lower: Float, upper: Float) {
        @_noLocks get {
            switch self {
            case .waveform: (0, Float(Waveform.last))
            case .attack: (0.0005, 10)
            case .decay: (0.001, 20)
            case .sustain: (0, 1)
            case .release: (0.001, 20)
            case .cutoff: (20, 20_000)
            case .resonance: (0, 1)
            case .filterEnvelopeAmount: (0, 8)
            case .masterGain: (-60, 12)
            }
        }
    }

    /// Index into the synth's parameter atomics (the synthesized `rawValue` is not inlinable).
    var index: Int {
        @_noLocks get {
            switch self {
            case .waveform: 0
            case .attack: 1
            case .decay: 2
            case .sustain: 3
            case .release: 4
            case .cutoff: 5
            case .resonance: 6
            case .filterEnvelopeAmount: 7
            case .masterGain: 8
            }
        }
    }
}

/// One built-in patch as the render keeps it (real-time thread only): its filter values smoothed toward their
/// targets per sample (cutoff in log2 Hz, SVF damping, filter envelope amount in octaves) while it has voices,
/// and what a slice works out for its voices (Synth+Rendering.swift). Entries of patches without voices in the
/// last slice (not in `BuiltInVoices.patchesInUse`) are stale.
struct PatchState: BitwiseCopyable {
    var cutoffOctaves: Float = 0
    var resonanceK: Float = 2
    var envelopeOctaves: Float = 0
    // This slice's: waveform, envelope shape, whether settled voices hold a constant level.
    var wave = 0
    var attackStep: Float = 0, sustain: Float = 0, decay: Float = 0, release: Float = 0
    var sustainHolds = false
    /// This slice's built-in voices of the patch, and where their slots go: steady ones in
    /// `activeSlots[steadyStart ..< steadyStart + steadyCount]` (gliding ones from `steadyStart` in
    /// `glidingSlots`), the others in `activeSlots[otherStart ..< end]`.
    var voices = 0
    var steadyStart = 0, steadyCount = 0, glidingCount = 0, otherStart = 0, end = 0

    var shape: LaneEnvelope.Shape {
        @_noLocks get { (attackStep, sustain, decay, release) }
    }
}

/// Every built-in patch's `PatchState`, in a `FixedArray` (freed with the synth).
struct PatchStates: ~Copyable {
    private let stateMemory: FixedArray<PatchState>
    var state: UnsafeMutablePointer<PatchState> { @_noLocks get { stateMemory.baseAddress } }
    let count: Int

    init(count: Int) {
        self.count = count
        stateMemory = FixedArray(count, PatchState())
    }
}
