import DSP
import Foundation
import MIDI
import TOML

/// `$XDG_CONFIG_HOME/backbeat/config.toml` (default `~/.config/backbeat/config.toml`). Every key is optional;
/// command-line flags win over it; an unknown key or a wrong type stops Backbeat with file and line.
///
///     theme = "dark"            # name in themes/ or a path
///     ascii = false             # ASCII glyphs instead of UTF-8 blocks and boxes
///     gate = 0.3                # seconds a computer-keyboard note lasts (terminals report no key release)
///     hold = false              # notes toggle on and off instead of ending after the gate
///     octave = 4                # octave of the lower row (z = C4)
///     velocity = 100            # 1...127
///     middle_c = "C4"           # or "C3"
///     [engine]
///     server = "default"   name = "backbeat"   rate = 48000   period = 256   voices = 256
///     channel = 1   autoconnect = true   connect_midi = []   connect_audio = []
///     patch = "piano"      # a built-in patch by name or number 0...12 (as --patch), or:
///     program = 0          # a General MIDI program 0...127, as a Program Change (as --program)
///     preset = "NAME"      # a saved synth preset, or a path to one (as --preset)
///     soundfont = "PATH"   # a SoundFont 2 file to play instead of the built-in patches (as --soundfont)
///     instruments = ["piano.sfz", "10=drums.sfz"]  # SFZ instruments, every channel or CH= one (as --instrument)
///     instrument_dir = "PATH"   # the .sfz files the preset browser offers (default $XDG_DATA_HOME/backbeat/instruments)
///     sample_cache = 512   # MiB of decoded SoundFont 3 samples kept (as --sample-cache)
///     reverb = true   chorus = true   # the synth's send effects (false: as --no-reverb, --no-chorus)
///     outputs = "main"     # or "channels": per-channel JACK outputs and the effect returns (as --outputs)
///     interpolation = "cubic"   # the sample voices' interpolation, "cubic" or "sinc" (as --interpolation)
public struct Config: Equatable, Sendable {
    public var theme: String?
    public var ascii: Bool?
    public var gate: Double?
    public var hold: Bool?
    public var octave: Int?
    public var velocity: Int?
    public var middleC: MiddleC?
    public var engine = EngineDefaults()

    /// Engine settings; the executable maps them onto its engine options.
    public struct EngineDefaults: Equatable, Sendable {
        public var server: String?
        public var name: String?
        public var rate: Int?
        public var period: Int?
        public var voices: Int?
        public var channel: Int?
        /// The built-in patch (`patch`, a name or a number, as `--patch`), as its index into `SynthPatch.builtIn`.
        public var patch: Int?
        /// A General MIDI program 0...127 (`program`, as `--program`); the executable maps it as a program change.
        public var program: Int?
        public var autoconnect: Bool?
        public var connectMIDI: [String]?
        public var connectAudio: [String]?
        public var preset: String?
        /// SoundFont files (`--soundfont`, given once or more), stacked: the later on top; a leading `~/` is
        /// the home directory. The key takes a string (one font) or an array of strings (a stack).
        public var soundFonts: [String]?
        /// The font of a one-font `soundFonts` (the top font of a stack); setting it makes a one-font list.
        public var soundFont: String? {
            get { soundFonts?.last }
            set { soundFonts = newValue.map { [$0] } }
        }
        /// SFZ instruments (`--instrument`, given once or more): "FILE.sfz" plays every channel, "CH=FILE.sfz"
        /// channel CH (`InstrumentSetting`). A string or an array of strings.
        public var instruments: [String]?
        /// The folder whose `.sfz` files the workstation's preset browser offers (docs/sfz.md); nil: the default,
        /// `$XDG_DATA_HOME/backbeat/instruments`.
        public var instrumentDirectory: String?
        /// The bound on decoded SoundFont 3 samples, MiB (`--sample-cache`).
        public var sampleCache: Int?
        /// The synth's reverb and chorus (`--no-reverb`, `--no-chorus`); nil: on.
        public var reverb: Bool?
        public var chorus: Bool?
        /// The JACK output ports (`--outputs`): "main" or "channels"; nil: main.
        public var outputs: String?
        /// The sample voices' interpolation (`--interpolation`); nil: cubic.
        public var interpolation: SampleInterpolation?
        public init() {}
    }

    public init() {}

    public static let topKeys = ["theme", "ascii", "gate", "hold", "octave", "velocity", "middle_c", "engine"]
    public static let engineKeys = ["server", "name", "rate", "period", "voices", "channel", "patch", "program", "autoconnect", "connect_midi", "connect_audio", "preset", "soundfont", "instruments", "instrument_dir", "sample_cache", "reverb", "chorus", "outputs", "interpolation"]

    public static func configDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/backbeat" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/backbeat"
    }

    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        configDirectory(environment: environment) + "/config.toml"
    }

    /// Reads the file at `path`. A missing file is an empty config when it is the default path; a path the
    /// user named (`mustExist`) must be there.
    public static func load(path: String, mustExist: Bool = false) throws(ConfigFileError) -> Config {
        guard FileManager.default.fileExists(atPath: path) else {
            if mustExist { throw ConfigFileError(file: path, line: 0, message: "no such config file") }
            return Config()
        }
        return try parse(try TOMLFile.read(path: path, what: "a config file"), file: path)
    }

    public static func parse(_ text: String, file: String) throws(ConfigFileError) -> Config {
        let root = try TOMLFile.parse(text, file: file)
        let lines = KeyLines(root)
        var config = Config()
        func fail(_ key: String, _ table: String?, _ message: String) -> ConfigFileError {
            ConfigFileError(file: file, line: lines.line(key, in: table), message: message)
        }
        func check(_ table: TOMLTable, _ allowed: [String], _ name: String?) throws(ConfigFileError) {
            for key in table.keys.sorted(by: { lines.line($0, in: name) < lines.line($1, in: name) }) where !allowed.contains(key) {
                throw fail(key, name, "unknown key \"\(key)\"\(name.map { " in [\($0)]" } ?? ""); accepted: \(allowed.joined(separator: ", "))")
            }
        }
        func string(_ t: TOMLTable, _ key: String, _ table: String?) throws(ConfigFileError) -> String? {
            guard let v = t[key] else { return nil }
            guard let s = v.string else { throw fail(key, table, "\"\(key)\" must be a string") }
            return s
        }
        func bool(_ t: TOMLTable, _ key: String, _ table: String?) throws(ConfigFileError) -> Bool? {
            guard let v = t[key] else { return nil }
            guard let b = v.bool else { throw fail(key, table, "\"\(key)\" must be true or false") }
            return b
        }
        func int(_ t: TOMLTable, _ key: String, _ table: String?, _ range: ClosedRange<Int>) throws(ConfigFileError) -> Int? {
            guard let v = t[key] else { return nil }
            guard let n = v.int, range.contains(n) else { throw fail(key, table, "\"\(key)\" must be an integer in \(range.lowerBound)...\(range.upperBound)") }
            return n
        }
        func strings(_ t: TOMLTable, _ key: String, _ table: String?) throws(ConfigFileError) -> [String]? {
            guard let v = t[key] else { return nil }
            guard let a = v.array else { throw fail(key, table, "\"\(key)\" must be an array of strings") }
            var out: [String] = []
            for element in a {
                guard let s = element.string else { throw fail(key, table, "\"\(key)\" must be an array of strings") }
                out.append(s)
            }
            return out
        }
        try check(root, topKeys, nil)
        config.theme = try string(root, "theme", nil)
        config.ascii = try bool(root, "ascii", nil)
        config.hold = try bool(root, "hold", nil)
        if let v = root["gate"] {
            guard let seconds = v.double ?? v.int.map(Double.init), seconds >= 0.02, seconds <= 10 else {
                throw fail("gate", nil, "\"gate\" must be a number of seconds in 0.02...10")
            }
            config.gate = seconds
        }
        config.octave = try int(root, "octave", nil, 0...8)
        config.velocity = try int(root, "velocity", nil, 1...127)
        if let s = try string(root, "middle_c", nil) {
            switch s.uppercased() {
            case "C4": config.middleC = .c4
            case "C3": config.middleC = .c3
            default: throw fail("middle_c", nil, "\"middle_c\" must be \"C4\" or \"C3\"")
            }
        }
        if let v = root["engine"] {
            guard let t = v.table else { throw fail("engine", nil, "\"engine\" must be a table: [engine]") }
            try check(t, engineKeys, "engine")
            var e = EngineDefaults()
            e.server = try string(t, "server", "engine")
            e.name = try string(t, "name", "engine")
            e.rate = try int(t, "rate", "engine", 8_000...192_000)
            e.period = try int(t, "period", "engine", 16...8192)
            e.voices = try int(t, "voices", "engine", 1...4096)
            e.channel = try int(t, "channel", "engine", 1...16)
            if let v = t["patch"] {
                // As --patch: a number or a name; anything else is refused with every patch listed.
                let last = SynthPatch.builtIn.count - 1
                guard let index = v.int.flatMap({ (0...last).contains($0) ? $0 : nil }) ?? v.string.flatMap(SynthPatch.index(named:)) else {
                    throw fail("patch", "engine", "\"patch\" must be a built-in patch, its number 0...\(last) or its name as a string: "
                               + SynthPatch.numberedNames + "; \"program\" chooses by General MIDI program (0...127)")
                }
                e.patch = index
            }
            e.program = try int(t, "program", "engine", 0...127)
            if e.patch != nil && e.program != nil {
                throw fail("program", "engine", "\"patch\" and \"program\" both choose the patch the synth starts with: give one of them")
            }
            e.autoconnect = try bool(t, "autoconnect", "engine")
            e.connectMIDI = try strings(t, "connect_midi", "engine")
            e.connectAudio = try strings(t, "connect_audio", "engine")
            e.preset = try string(t, "preset", "engine")
            e.instrumentDirectory = try string(t, "instrument_dir", "engine")
            if let v = t["soundfont"] {
                // One font, or a stack: later on top.
                let problem = "\"soundfont\" must be a file name or an array of file names (stacked, the later on top)"
                if let s = v.string {
                    guard !s.isEmpty else { throw fail("soundfont", "engine", problem) }
                    e.soundFonts = [s]
                } else {
                    guard let list = try strings(t, "soundfont", "engine"), !list.isEmpty, !list.contains(where: \.isEmpty) else {
                        throw fail("soundfont", "engine", problem)
                    }
                    e.soundFonts = list
                }
            }
            if let v = t["instruments"] {
                switch InstrumentSetting.parse(v) {
                case .success(let list): e.instruments = list
                case .failure(let problem): throw fail("instruments", "engine", problem.message)
                }
            }
            e.sampleCache = try int(t, "sample_cache", "engine", 1...1_048_576)
            e.reverb = try bool(t, "reverb", "engine")
            e.chorus = try bool(t, "chorus", "engine")
            e.outputs = try string(t, "outputs", "engine")
            if let v = e.outputs, v != "main" && v != "channels" {
                throw fail("outputs", "engine", "\"outputs\" must be \"main\" or \"channels\" (as --outputs)")
            }
            if let name = try string(t, "interpolation", "engine") {
                guard let mode = SampleInterpolation(name: name) else {
                    throw fail("interpolation", "engine", "\"interpolation\" is \"\(name)\"; it takes one of \(SampleInterpolation.names)")
                }
                e.interpolation = mode
            }
            config.engine = e
        }
        return config
    }
}
