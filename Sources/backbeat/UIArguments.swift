import ArgumentParser
import DSP
import Engine
import Foundation
import MIDI
import Settings
import TUI

/// The workstation's own options. Each one left out falls back to the config file, then the default.
struct UIArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Theme: a name in themes/ (dark, light, high-contrast, monochrome, amber; a theme may extend another) or a .toml path.", valueName: "name|path"), completion: Completions.themes)
    var theme: String?

    @Flag(help: "ASCII glyphs instead of UTF-8 blocks and boxes (automatic when the locale is not UTF-8).")
    var ascii = false

    @Flag(name: .customLong("no-color"), help: "No colour (as when NO_COLOR is set).")
    var noColor = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a computer-keyboard note lasts (terminals report no key release), 0.02...10.", valueName: "seconds"),
            transform: NumberArgument.decimal(0.02...10, unit: "seconds"))
    var gate: Double?

    @Flag(help: "Hold mode: a second press of a note key ends the note.")
    var hold = false

    @Option(parsing: .unconditional, help: "Octave of the lower note row (z = C of this octave, C4 = note 60), 0...8.", transform: NumberArgument.whole(0...8))
    var octave: Int?

    @Option(parsing: .unconditional, help: "Velocity of computer-keyboard notes, 1...127.", transform: NumberArgument.whole(1...127))
    var velocity: Int?

    @Option(name: .customLong("middle-c"), help: ArgumentHelp("Name of note 60: C4 or C3.", valueName: "C4|C3"))
    var middleC: String?

    @Option(help: ArgumentHelp("Config file (default: $XDG_CONFIG_HOME/backbeat/config.toml).", valueName: "path"), completion: .file(extensions: ["toml"]))
    var config: String?

    @Option(help: ArgumentHelp("Append engine messages and timings to this file (the screen is the UI's).", valueName: "file"), completion: .file())
    var log: String?

    func validate() throws {
        if let middleC, !["C4", "C3"].contains(middleC.uppercased()) { throw ValidationError("--middle-c must be C4 or C3 (got \(middleC))") }
    }

    /// The config file (`--config`, else the default one, which may be absent), read and checked the same
    /// way in every mode: a bad one ends Backbeat here with file, line and reason (exit 2).
    func loadConfig(environment: [String: String] = ProcessInfo.processInfo.environment) -> Config {
        do {
            return try Config.load(path: config ?? Config.defaultPath(environment: environment), mustExist: config != nil)
        } catch {
            Console.fail("\(error)")
        }
    }

    /// Command line over config file over defaults.
    func settings(_ file: Config, utf8: Bool) -> WorkstationSettings {
        var s = WorkstationSettings()
        s.ascii = ascii || (file.ascii ?? false) || !utf8
        s.gate = gate ?? file.gate ?? s.gate
        s.hold = hold || (file.hold ?? false)
        s.octave = octave ?? file.octave ?? s.octave
        s.velocity = velocity ?? file.velocity ?? s.velocity
        if let middleC { s.middleC = middleC.uppercased() == "C3" ? .c3 : .c4 } else if let m = file.middleC { s.middleC = m }
        return s
    }
}

extension EngineArguments {
    /// The engine options with the config file's `[engine]` values for every flag not given on the command line.
    func options(with file: Config.EngineDefaults, commandLine: [String] = CommandLine.arguments) -> EngineOptions {
        func given(_ flag: String) -> Bool { commandLine.contains { $0 == flag || $0.hasPrefix(flag + "=") } }
        var o = engineOptions
        if !given("--server"), let v = file.server { o.serverName = v }
        if !given("--name"), let v = file.name { o.clientName = v }
        if !given("--rate"), let v = file.rate { o.rate = v }
        if !given("--period"), let v = file.period { o.period = v }
        if !given("--voices"), let v = file.voices { o.voices = v }
        if !given("--channel"), let v = file.channel { o.channel = UInt8(v - 1) }
        // --patch and --program choose the same thing: either on the command line sets aside both keys.
        if !given("--patch") && !given("--program"), let v = file.program.map(SynthPatch.generalMIDI) ?? file.patch { o.patch = v }
        if !given("--no-autoconnect"), let v = file.autoconnect { o.autoconnect = v }
        if !given("--connect-midi"), let v = file.connectMIDI { o.connectMIDI = v }
        if !given("--connect-audio"), let v = file.connectAudio { o.connectAudio = v }
        if !given("--no-reverb"), let v = file.reverb { o.reverb = v }
        if !given("--no-chorus"), let v = file.chorus { o.chorus = v }
        if !given("--outputs"), let v = file.outputs.flatMap(AudioOutputs.init(rawValue:)) { o.outputs = v }
        if !given("--interpolation"), let v = file.interpolation { o.interpolation = v }
        return o
    }
}

/// `--middle-c3`, for the commands that print note names (`decode`, `smf`, `monitor`).
struct NoteNameArguments: ParsableArguments {
    @Flag(help: "Name middle C (note 60) C3 instead of C4.")
    var middleC3 = false

    /// The octave number middle C is named with.
    var middleC: MiddleC { middleC3 ? .c3 : .c4 }
}
