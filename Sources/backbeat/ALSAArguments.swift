import ArgumentParser
import Engine

extension AudioDriver: ExpressibleByArgument {}
extension MIDIInputSelection: ExpressibleByArgument {}

/// ALSA options: the audio driver, the MIDI inputs, the sequencer sources and the PCM device. Shared by
/// `run` (workstation, `--headless`) and `monitor`.
struct ALSAArguments: ParsableArguments {
    @Option(help: "Audio driver: jack (a JACK client; a private server when none runs) or alsa (an ALSA PCM device, no JACK).")
    var driver: AudioDriver = .jack

    @Option(help: "MIDI inputs: jack, alsa (the ALSA sequencer, required; JACK MIDI sources are not connected), both, or auto (JACK, and the ALSA sequencer when /dev/snd/seq can be opened).")
    var midi: MIDIInputSelection = .auto

    @Option(name: .customLong("alsa-connect"), help: ArgumentHelp("Subscribe this ALSA sequencer source to Backbeat's midi_in, now and whenever it comes back (names or numbers; repeatable).", valueName: "client:port"))
    var alsaConnect: [String] = []

    @Option(help: ArgumentHelp("ALSA PCM device for --driver alsa (with --rate, --period and --periods).", valueName: "name"))
    var device = "default"

    @Option(parsing: .unconditional, help: "Periods in the ALSA PCM buffer (--driver alsa), 2...16.", transform: NumberArgument.whole(2...16))
    var periods = 2

    func validate() throws {
        guard !device.isEmpty else { throw ValidationError("--device must not be empty") }
        if driver == .alsa && midi == .jack {
            throw ValidationError("--midi jack needs --driver jack: with --driver alsa no JACK client runs (use --midi alsa or auto)")
        }
        if midi == .jack && !alsaConnect.isEmpty { throw ValidationError("--alsa-connect needs the ALSA sequencer (--midi alsa, both or auto)") }
    }

    /// `options` with these settings.
    func apply(to options: EngineOptions) -> EngineOptions {
        var options = options
        options.driver = driver
        options.midiInput = midi
        options.alsaConnect = alsaConnect
        options.alsaDevice = device
        options.alsaPeriods = periods
        return options
    }
}
