import DSP
import Foundation

/// Which audio driver runs the synth.
public enum AudioDriver: String, Sendable, CaseIterable {
    /// A JACK client (a private server is started when none runs).
    case jack
    /// An ALSA PCM device, without JACK (`ALSAPCMBackend`).
    case alsa
}

/// Where MIDI comes from.
public enum MIDIInputSelection: String, Sendable, CaseIterable {
    /// JACK's midi_in only.
    case jack
    /// The ALSA sequencer only (required: Backbeat does not start without it).
    case alsa
    /// Both (the sequencer is required).
    case both
    /// JACK always, the ALSA sequencer when it can be opened (else one line says why not).
    case auto

    var wantsALSA: Bool { self != .jack }
    var requiresALSA: Bool { self == .alsa || self == .both }
}

/// Which JACK output ports the synth plays into (`--outputs`).
public enum AudioOutputs: String, Sendable, CaseIterable {
    /// out_L and out_R: the mix.
    case main
    /// out_L and out_R, and a stereo pair per MIDI channel (`ch1_L` ... `ch16_R`) and the reverb's and the
    /// chorus's returns (`reverb_L` ... `chorus_R`), each after the master gain (JackChannelPorts.swift).
    case channels
}

/// How the engine is set up; the command line fills it.
public struct EngineOptions: Sendable {
    public var clientName = "backbeat"
    /// nil: `$JACK_DEFAULT_SERVER`, else "default".
    public var serverName: String?
    public var connectMIDI: [String] = []
    public var connectAudio: [String] = []
    public var autoconnect = true
    /// For a private server.
    public var rate = 48_000
    public var period = 256
    /// Start a private server when none runs under that name.
    public var startServer = true
    /// Polyphony (`--voices`): FluidSynth's 256 unless asked.
    public var voices = Synth.defaultVoices
    public var channel: UInt8?
    /// The built-in patch every channel starts with (`--patch`, `--program`): General MIDI program 0's unless asked.
    public var patch = SynthPatch.defaultPatch
    /// A loaded SoundFont the synth plays instead of the built-in patches (`--soundfont`), or nil.
    public var soundFont: SoundFont?
    /// The synth's send effects (`--no-reverb`, `--no-chorus` turn them off; docs/soundfont.md).
    public var reverb = true
    public var chorus = true
    /// How the sample voices interpolate (`--interpolation`; docs/soundfont.md): cubic unless asked.
    public var interpolation = SampleInterpolation.cubic
    /// The audio backend, the MIDI inputs, and for ALSA the PCM device.
    public var driver: AudioDriver = .jack
    public var midiInput: MIDIInputSelection = .auto
    /// ALSA sequencer sources to subscribe ("CLIENT:PORT", names or numbers), again whenever they come back.
    public var alsaConnect: [String] = []
    /// ALSA PCM device for `driver == .alsa` (with `rate`, `period` and `alsaPeriods`).
    public var alsaDevice = "default"
    public var alsaPeriods = 2
    /// Forward incoming MIDI (JACK midi_in, the ALSA sequencer) to the MIDI outputs as well as Backbeat's own.
    public var midiThru = false
    /// The JACK output ports (`--outputs`): the main pair, or per-channel pairs and the effect returns too.
    public var outputs: AudioOutputs = .main
    /// Whether an instrument may be changed while the synth plays (the workstation's preset browser,
    /// `Engine.changeInstrument`): the synth is made with room for a stack of instruments, and a single font is
    /// played as a stack of one (docs/sfz.md, "Changing instrument live").
    public var liveInstrumentChanges = false

    public init() {}

    public var resolvedServerName: String {
        if let serverName, !serverName.isEmpty { return serverName }
        if let name = ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"], !name.isEmpty { return name }
        return "default"
    }
}

/// A snapshot of what the engine is doing, for the header and `--headless`.
public struct EngineStatus: Sendable {
    public var server: ServerDescription
    public var clientName: String
    public var connected: Bool
    public var sampleRate: Int
    public var periodFrames: Int
    /// JACK's own DSP load estimate, percent.
    public var jackLoad: Float
    /// The last and the longest callback since the previous snapshot, as a fraction of the period.
    public var callbackLoad: Double
    public var maxCallbackLoad: Double
    public var xruns: Int
    public var voicesInUse: Int
    public var voiceCapacity: Int
    public var midiReceived: Int
    public var midiLost: Int
    public var ringDrops: Int
    /// The audio driver running: "jack" or "alsa".
    public var driver = "jack"
    /// With the ALSA driver: device, sample format, buffer, scheduling.
    public var alsaPCM: String?
    /// The ALSA MIDI line for the header: the sequencer port, or "ALSA MIDI unavailable: <reason>"; nil when
    /// not asked for.
    public var alsaMIDI: String?
}
