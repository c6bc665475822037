import ArgumentParser
import Foundation
import Engine
import MIDI
import TextOutput
import TUI

/// `backbeat monitor`: a headless MIDI monitor on midi_in, one line per message, until SIGINT/SIGTERM.
struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every MIDI message arriving on midi_in, with JACK frame time and time in seconds.",
        discussion: "The synth plays what arrives, as in the workstation. Messages dropped while the simulated app is suspended are marked lost."
    )

    @Flag(help: "One JSON object per message: the fields of `decode --json` plus frame, time and source.")
    var json = false

    @OptionGroup var noteNames: NoteNameArguments

    @Option(parsing: .singleValue,
            help: ArgumentHelp("Do not print these kinds of message (comma-separated, repeatable, any case): \(MonitorHidden.kinds.joined(separator: ", ")) (the `type` names of --json), or the TUI monitor's type-filter groups \(MonitorHidden.groups.joined(separator: ", ")). Hidden messages are still played and counted. Example: --hide clock,active-sensing.",
                               valueName: "kinds"),
            completion: .list(MonitorHidden.names),
            transform: { try MonitorHidden([$0]) })
    var hide: [MonitorHidden] = []

    @OptionGroup var engine: EngineArguments
    @OptionGroup(title: "ALSA") var alsa: ALSAArguments

    func run() throws {
        let signals = QuitSignals.install()
        let preset = engine.loadPreset()
        let engine = Engine(options: alsa.apply(to: engine.engineOptions).applying(preset), log: { Console.info($0) })
        preset?.apply(to: engine)
        do { try engine.start() } catch { Console.fail("\(error)") }
        defer { engine.stop() }
        let formatter = MonitorFormatter(middleC: noteNames.middleC)
        let hidden = hide.reduce(MonitorHidden()) { $0.union($1) }
        var hiddenCount = 0
        let rate = Double(max(engine.status().sampleRate, 1))
        let startFrame = engine.frameTime() ?? 0
        var count = 0
        while signals.wait(timeout: .milliseconds(20)) == nil {
            engine.drainEvents { event in
                guard case let .midi(monitored) = event else { return }
                let seconds = Double(monitored.frameTime &- startFrame) / rate
                count += 1
                let message = engine.message(of: monitored)
                if hidden.hides(message) { hiddenCount += 1; return }
                guard let message else {
                    let status = hexString([monitored.message.status])
                    Console.out(json ? JSONText.object([("type", .string("undefined")), ("status", .string(status)), ("frame", .int(Int(monitored.frameTime))), ("time", .double(seconds))])
                                     : "\(String(monitored.frameTime).leftPadded(10))  undefined status byte \(status)")
                    return
                }
                if json {
                    // `frame` is the JACK frame time here (issue contract); an MTC quarter frame's data byte,
                    // which decode calls `frame`, is `mtc_frame` in the monitor so no key appears twice.
                    var fields = message.jsonFields.map { $0.key == "frame" ? (key: "mtc_frame", value: $0.value) : $0 }
                    fields.append(("frame", .int(Int(monitored.frameTime))))
                    fields.append(("time", .double(seconds)))
                    fields.append(("source", .string(monitored.source.description)))
                    if monitored.lost { fields.append(("lost", .bool(true))) }
                    Console.out(JSONText.object(fields))
                } else {
                    let time = String(format: "%10.3f s", seconds)
                    let lost = monitored.lost ? " LOST" : ""
                    Console.out("\(String(monitored.frameTime).leftPadded(10))  \(time)  \(monitored.source.description.padded(5))\(lost)  \(formatter.line(message))")
                }
            }
        }
        Console.info(hidden.isEmpty ? counted(count, "message") : "\(counted(count, "message")) (\(hiddenCount) hidden: \(hidden.names.joined(separator: ",")))")
    }
}

/// The kinds of message `monitor --hide` leaves out: every message kind by the name `decode --json` gives it
/// as `type` (note-on ... reset; "undefined" for a status byte MIDI does not define), and the TUI monitor's
/// type-filter groups (notes, cc, program, bend/pressure, system, sysex), all matched without regard to case.
struct MonitorHidden {
    /// Single kinds, by their JSON `type`.
    static let kinds = ["note-on", "note-off", "poly-pressure", "control-change", "program-change", "channel-pressure",
                        "pitch-bend", "sysex", "mtc-quarter-frame", "song-position", "song-select", "tune-request",
                        "clock", "start", "continue", "stop", "active-sensing", "reset", "undefined"]
    /// The TUI monitor's type filters (`MonitorTypeFilter` labels but "all"), lower-cased.
    static let groups = ["notes", "cc", "program", "bend/pressure", "system"]
    static var names: [String] { kinds + groups }

    private var hidden: Set<String> = []
    var isEmpty: Bool { hidden.isEmpty }
    /// The names hidden, in the order of `names`.
    var names: [String] { Self.names.filter(hidden.contains) }

    init() {}

    func union(_ other: MonitorHidden) -> MonitorHidden {
        var both = self
        both.hidden.formUnion(other.hidden)
        return both
    }

    /// `values`: each a comma-separated list of names. An unknown name is an error listing the valid ones.
    init(_ values: [String]) throws {
        for value in values {
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                let name = part.trimmingCharacters(in: .whitespaces).lowercased()
                guard Self.names.contains(name) else {
                    let shown = name.isEmpty ? "an empty name" : "'\(part.trimmingCharacters(in: .whitespaces))'"
                    throw ValidationError("\(shown) is not a message kind; the kinds are \(Self.kinds.joined(separator: ", ")), and the groups \(Self.groups.joined(separator: ", "))")
                }
                hidden.insert(name)
            }
        }
    }

    /// Whether `message` (nil: an undefined status byte) is hidden.
    func hides(_ message: MIDIMessage?) -> Bool {
        guard !hidden.isEmpty else { return false }
        guard let message else { return hidden.contains("undefined") || hidden.contains("system") }
        if hidden.contains(message.jsonType) { return true }
        switch message {
        case .noteOn, .noteOff: return hidden.contains("notes")
        case .controlChange: return hidden.contains("cc")
        case .programChange: return hidden.contains("program")
        case .pitchBend, .channelPressure, .polyPressure: return hidden.contains("bend/pressure")
        default: return message.channel == nil && hidden.contains("system")
        }
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
