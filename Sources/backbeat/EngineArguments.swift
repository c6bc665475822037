import ArgumentParser
import DSP
import Engine
import Settings

extension AudioOutputs: ExpressibleByArgument {}

/// The engine's options, shared by the workstation, `--headless` and `monitor`.
struct EngineArguments: ParsableArguments {
    @Option(name: .customLong("name"), help: "JACK client name.")
    var clientName = "backbeat"

    @Option(help: "JACK server name (default: $JACK_DEFAULT_SERVER, else the default server): letters, digits, '-', '_', '.'. Started privately when none runs.")
    var server: String?

    @Option(name: .customLong("connect-midi"), help: ArgumentHelp("Connect this JACK MIDI output port to midi_in (repeatable).", valueName: "port"))
    var connectMIDI: [String] = []

    @Option(name: .customLong("connect-audio"), help: ArgumentHelp("Connect out_L/out_R to these JACK ports (repeatable; L, R, L...).", valueName: "port"))
    var connectAudio: [String] = []

    @Flag(name: .customLong("no-autoconnect"), help: "Do not connect the outputs to the physical playback ports.")
    var noAutoconnect = false

    @Option(parsing: .unconditional, help: "Sample rate of a private JACK server (8000...192000).", transform: NumberArgument.whole(8_000...192_000))
    var rate = 48_000

    @Option(parsing: .unconditional, help: "Period (frames) of a private JACK server: a power of two, 16...8192.",
            transform: NumberArgument.whole(16...8192, powerOfTwo: true))
    var period = 256

    @Option(parsing: .unconditional, help: "Synth polyphony (1...4096; 256 by default, as FluidSynth: a stereo SoundFont preset takes two voices a note).", transform: NumberArgument.whole(1...4096))
    var voices = Synth.defaultVoices

    @Option(parsing: .unconditional, help: "Listen to one MIDI channel (1...16); default: all (omni).", transform: NumberArgument.whole(1...16))
    var channel: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(PatchHelp.patch, valueName: "name|number"),
            completion: .list(SynthPatch.builtIn.map { $0.name.replacingOccurrences(of: " ", with: "-") }), transform: NumberArgument.patch)
    var patch: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(PatchHelp.program, valueName: "program"), transform: NumberArgument.whole(0...127))
    var program: Int?

    @Option(help: ArgumentHelp("Start the synth with a saved preset: a name in $XDG_DATA_HOME/backbeat/presets (default ~/.local/share/backbeat/presets), or a .toml path. Overrides --patch and --program.", valueName: "name|path"), completion: Completions.presets)
    var preset: String?

    @OptionGroup var sound: SoundArguments

    @Option(help: ArgumentHelp("JACK output ports: main (out_L, out_R) or channels (out_L/out_R, a stereo pair per MIDI channel, ch1_L ... ch16_R, and the effect returns, reverb_L/R and chorus_L/R, each after the master gain: record each part in a DAW).", valueName: "main|channels"))
    var outputs: AudioOutputs = .main

    @Flag(name: .customLong("midi-thru"), help: "Forward incoming MIDI (JACK midi_in, the ALSA sequencer) to the MIDI outputs (JACK midi_out, the ALSA sequencer port) as well as what Backbeat plays itself.")
    var midiThru = false

    @Flag(help: "Play the built-in demo loop (120 BPM: melody, chords, bass, MIDI clock) through the synth.")
    var demo = false

    @Option(name: .customLong("record-midi"), help: ArgumentHelp("Record the MIDI Backbeat receives to a Standard MIDI File, written as it arrives: 960 ticks per quarter note, the tempo of an incoming MIDI clock as Set Tempo events (else 120 BPM), transport messages as markers, each channel's bank, program, controllers and pitch bend at the start. Nothing received: no file.", valueName: "file.mid"), completion: .file(extensions: ["mid", "midi"]))
    var recordMIDI: String?

    @Option(name: .customLong("record-midi-format"), parsing: .unconditional, help: ArgumentHelp("Standard MIDI File format of a MIDI take: 1 (a tempo track, then one track per input port) or 0 (one track).", valueName: "0|1"),
            transform: NumberArgument.whole(0...1))
    var recordMIDIFormat = 1

    @Flag(name: .customLong("record-midi-raw"), help: "Keep every MIDI byte of a take as it arrived (clock ticks and other system messages as F7 escape events, 120 BPM, format 0, no channel state at the start). Most readers (mido, FluidSynth, DAWs) reject or misplay such files.")
    var recordMIDIRaw = false

    @Option(name: .customLong("record-audio"), help: ArgumentHelp("Record Backbeat's output to a stereo 32-bit float WAV file, written as it plays.", valueName: "file.wav"), completion: .file(extensions: ["wav"]))
    var recordAudio: String?

    func validate() throws {
        // A bad server name is bad input, not a usage error: one line naming option and value, exit 2.
        if let server, let problem = JackServerNameRule.problem(server) {
            Console.info("--server \(String(reflecting: server)) is not a JACK server name: \(problem)")
            throw ExitCode(2)
        }
        guard !clientName.isEmpty else { throw ValidationError("--name must not be empty") }
        guard clientName.utf8.count <= JackClient.maximumNameLength else {
            throw ValidationError("--name is \(clientName.utf8.count) bytes long; a JACK client name has at most \(JackClient.maximumNameLength)")
        }
        if let recordMIDI, recordMIDI.isEmpty { throw ValidationError("--record-midi needs a file name") }
        if let recordAudio, recordAudio.isEmpty { throw ValidationError("--record-audio needs a file name") }
        guard recordMIDIFormat == 0 || recordMIDIFormat == 1 else {
            throw ValidationError("--record-midi-format must be 0 or 1 (got \(recordMIDIFormat))")
        }
        if let recordMIDI, let recordAudio, recordMIDI == recordAudio {
            throw ValidationError("--record-midi and --record-audio must name different files")
        }
        try PatchHelp.validate(patch: patch, program: program)
    }

    /// The preset named by `--preset` (or `fallback`, the config file's), read before anything starts: a
    /// missing or bad file ends Backbeat here with its file:line (exit 2).
    func loadPreset(fallback: String? = nil) -> SynthPreset? {
        guard let nameOrPath = preset ?? fallback else { return nil }
        do { return try PresetLibrary().resolve(nameOrPath) } catch { Console.fail("\(error)") }
    }

    /// The fonts named by `--soundfont` (or `fallback`, the config file's `soundfont`), stacked (the later on
    /// top) and loaded before anything starts: a missing or broken file ends Backbeat here with the loader's
    /// message (exit 2). `--sample-cache` (or `sampleCacheFallback`) bounds each SoundFont 3 font's cache.
    /// The SFZ instruments of `--instrument` (or `instrumentFallback`, the preset's or config's `instruments`)
    /// go on top.
    func loadSoundFont(fallback: [String]? = nil, sampleCacheFallback: Int? = nil, instrumentFallback: [String]? = nil) -> SoundFont? {
        let paths = sound.soundFont.isEmpty ? fallback ?? [] : sound.soundFont
        let base = paths.isEmpty ? nil : SoundFontFile.loadOrExit(paths, sampleCacheMiB: sound.sampleCache ?? sampleCacheFallback)
        return InstrumentFile.loadOrExit(instruments(fallback: instrumentFallback), over: base, // InstrumentFile.swift
                                         sampleCacheMiB: sound.sampleCache ?? sampleCacheFallback)
    }

    /// The SFZ instruments in effect: `--instrument`'s, else `fallback` (the preset's or the config's).
    func instruments(fallback: [String]?) -> [String] { sound.instrument.isEmpty ? fallback ?? [] : sound.instrument }

    /// How MIDI takes are written.
    var takeOptions: MIDITakeOptions { MIDITakeOptions(format: recordMIDIRaw ? 0 : recordMIDIFormat, raw: recordMIDIRaw) }

    var engineOptions: EngineOptions {
        var options = EngineOptions()
        options.clientName = clientName
        options.serverName = server
        options.connectMIDI = connectMIDI
        options.connectAudio = connectAudio
        options.autoconnect = !noAutoconnect
        options.rate = rate
        options.period = period
        options.voices = voices
        options.channel = channel.map { UInt8($0 - 1) }
        options.patch = PatchHelp.startingPatch(patch: patch, program: program) ?? options.patch
        options.midiThru = midiThru
        options.outputs = outputs
        options.reverb = !sound.noReverb
        options.chorus = !sound.noChorus
        options.interpolation = sound.interpolation ?? options.interpolation
        return options
    }
}

/// `--patch` and `--program`, the two ways to choose the built-in patch the synth starts with (`run`,
/// `--headless`, `render`): one help, one check, one mapping.
enum PatchHelp {
    static let patch = "Start every channel on this built-in patch: its number or its name (\(SynthPatch.numberedNames)). "
        + "Default: General MIDI program 0's, \(SynthPatch.defaultPatch) \(SynthPatch.builtIn[SynthPatch.defaultPatch].name)."
    static let program = "Start every channel on General MIDI program N (0...127), as a Program Change N selects it: "
        + "the built-in patch nearest that instrument (docs/builtin-programs.md; --program 29 is \(SynthPatch.generalMIDI(program: 29)) \(SynthPatch.builtIn[SynthPatch.generalMIDI(program: 29)].name))."

    /// Both options choose the same thing: only one may be given.
    static func validate(patch: Int?, program: Int?) throws {
        if patch != nil && program != nil {
            throw ValidationError("--patch and --program both choose the patch the synth starts with: give one of them")
        }
    }

    /// The patch asked for, or nil when neither option was given.
    static func startingPatch(patch: Int?, program: Int?) -> Int? {
        patch ?? program.map { SynthPatch.generalMIDI(program: $0) }
    }
}
