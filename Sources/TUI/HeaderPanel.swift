import Engine
import Foundation
import MIDI
import TextOutput

/// The header's figures: a plain value so the panel draws the same from a live engine and from a test.
public struct HeaderInfo: Equatable, Sendable {
    public var serverName = "default"
    public var serverPrivate = false
    public var driver: String?
    public var connected = false
    public var sampleRate = 0, periodFrames = 0
    public var dspLoad: Float = 0
    public var xruns = 0
    public var voicesInUse = 0, voiceCapacity = 0
    public var midiPerSecond = 0
    public var ringDrops = 0
    /// The simulated app's lifecycle state (the lifecycle panel's simulator).
    public var lifecycleBadge = "active"
    /// ALSA (EngineStatus): the PCM line when the ALSA driver runs instead of JACK; the sequencer's line.
    public var alsaPCM, alsaMIDI: String?
    /// What is being recorded (file, seconds), shown before the badge.
    public var recordings: [Recording] = []
    /// Whether the output is heard: false while the lifecycle gate silences it (suspended, terminated, the
    /// synth stream stopped), when the header counts no voices, as none plays.
    public var audible = true
    /// What the keyboard's channel plays: "patch 0 Warm saw", or a SoundFont preset "000:000 Grand Piano".
    public var program: String?
    public init() {}

    /// The recording field: "REC MIDI take.mid 3.2 s · audio take.wav 3.1 s", empty when nothing records.
    public var recordingText: String {
        guard !recordings.isEmpty else { return "" }
        return "REC " + recordings.map { r in
            let name = TerminalText.sanitized((r.path as NSString).lastPathComponent)
            return "\(r.kind) \(name) " + (r.failure == nil ? String(format: "%.1f s", r.seconds) : String(format: "%.1f s, write failed", r.seconds))
        }.joined(separator: " · ")
    }

    public init(_ status: EngineStatus, midiPerSecond: Int, lifecycleBadge: String = "active") {
        serverName = status.server.name
        serverPrivate = status.server.isPrivate
        driver = status.server.driver
        connected = status.connected
        sampleRate = status.sampleRate
        periodFrames = status.periodFrames
        dspLoad = status.jackLoad
        xruns = status.xruns
        voicesInUse = status.voicesInUse
        voiceCapacity = status.voiceCapacity
        self.midiPerSecond = midiPerSecond
        ringDrops = status.ringDrops
        self.lifecycleBadge = lifecycleBadge
        alsaPCM = status.alsaPCM
        alsaMIDI = status.alsaMIDI
    }
}

/// One line: JACK server, rate, period, DSP load, xruns, voices, MIDI rate, drops, notices and the lifecycle
/// badge, laid out by priority: when the line is too narrow, the least important fields shorten or go first,
/// whole (nothing is cut mid-word), so that the state (connection and lifecycle badge), DSP load, xruns and
/// REC always show from 80 columns up.
public enum HeaderPanel {
    /// The header's fields, in the order they appear.
    enum Field: Int, CaseIterable {
        case title, server, rate, period, dsp, xruns, voices, program, midi, drops, alsaMIDI, notice, rec
    }

    /// How the line degrades when it is too narrow, in order: (field, the variant to show, nil: leave it out).
    /// The rate ("48 kHz") and the period in milliseconds are what a JACK user reads first: they shorten
    /// early but go last; the dummy-driver notice keeps its words ("output goes nowhere") while the voices
    /// show; the server's name (in the status line at the start, and on the Lifecycle panel's streams) goes
    /// before the program a player changes.
    static let degradation: [(Field, Int?)] = [
        (.notice, 1), (.drops, nil), (.alsaMIDI, 1), (.rate, 1), (.server, 1), (.period, 1), (.alsaMIDI, nil),
        (.midi, nil), (.program, 1), (.rec, 1), (.server, nil), (.program, nil), (.voices, nil), (.notice, 2), (.rec, 2),
        (.title, nil), (.period, nil), (.rate, nil), (.notice, nil),
    ]

    /// "48 kHz", "44.1 kHz".
    static func kilohertz(_ rate: Int) -> String {
        rate % 1000 == 0 ? "\(rate / 1000) kHz" : String(format: "%.1f kHz", Double(rate) / 1000)
    }

    /// The notice shown with the dummy driver (a private server started because no sound card was found),
    /// longest first.
    public static let noSoundCard = ["no sound card: output goes nowhere; connect out_L/out_R or use --driver alsa",
                                     "no sound card: output goes nowhere", "no sound card"]

    /// Each field's variants, longest first, as (label, value) pairs; empty when the field does not apply.
    static func variants(_ info: HeaderInfo) -> [Field: [(String, String)]] {
        var v: [Field: [(String, String)]] = [.title: [("", "Backbeat")]]
        let server = TerminalText.sanitized(info.serverName)
        if let pcm = info.alsaPCM {
            let text = TerminalText.sanitized(pcm)
            v[.server] = [("", text), ("", String(text.prefix { $0 != "," }))]
        } else {
            let kind = info.serverPrivate ? "private" + (info.driver.map { ", \(TerminalText.sanitized($0))" } ?? "") : "external"
            v[.server] = [("JACK ", "\(server) (\(kind))"), ("JACK ", server)]
        }
        if info.connected {
            let ms = info.sampleRate > 0 ? String(format: " %.1f ms", Double(info.periodFrames) / Double(info.sampleRate) * 1000) : ""
            v[.rate] = [("", "\(info.sampleRate) Hz"), ("", kilohertz(info.sampleRate))]
            v[.period] = [("period ", "\(info.periodFrames)\(ms)"), ("period ", ms.trimmingCharacters(in: .whitespaces))]
            v[.dsp] = [("DSP ", String(format: "%.1f%%", info.dspLoad))]
            v[.voices] = [("voices ", "\(info.audible ? info.voicesInUse : 0)/\(info.voiceCapacity)")]
            v[.midi] = [("MIDI ", "\(info.midiPerSecond)/s")]
            v[.drops] = [("overflow ", "\(info.ringDrops)")]
        } else {
            v[.dsp] = [("", "disconnected, waiting for the server"), ("", "disconnected")]
        }
        v[.xruns] = [("xruns ", "\(info.xruns)")]
        if let alsaMIDI = info.alsaMIDI {
            let text = TerminalText.sanitized(alsaMIDI)
            v[.alsaMIDI] = [("", text), ("", String(text.prefix { $0 != ":" }))]
        }
        if let program = info.program {
            let text = TerminalText.sanitized(program)
            // Shorter: the name alone (without "patch N" or "bank:program"), at most 20 characters.
            let name = text.split(separator: " ", maxSplits: text.hasPrefix("patch ") ? 2 : 1).last.map(String.init) ?? text
            var short = ""
            for word in name.split(separator: " ") {
                guard short.isEmpty || short.count + word.count + 1 <= 20 else { break }
                short += (short.isEmpty ? "" : " ") + word
            }
            v[.program] = [("", text), ("", short)]
        }
        if info.serverPrivate, info.driver == "dummy", info.alsaPCM == nil {
            v[.notice] = noSoundCard.map { ("", $0) }
        }
        if !info.recordings.isEmpty { v[.rec] = recordingVariants(info).map { (" ", $0 + " ") } }
        return v
    }

    /// REC with files and seconds; with seconds only; REC and the longest take's seconds.
    static func recordingVariants(_ info: HeaderInfo) -> [String] {
        let full = info.recordingText
        let kinds = "REC " + info.recordings.map { r in
            "\(r.kind) " + String(format: "%.1f s", r.seconds) + (r.failure == nil ? "" : " failed")
        }.joined(separator: " · ")
        let seconds = info.recordings.map(\.seconds).max() ?? 0
        let failed = info.recordings.contains { $0.failure != nil }
        return [full, kinds, "REC " + String(format: "%.0f s", seconds) + (failed ? " failed" : "")]
    }

    /// The fields shown for a line `width` cells wide (the badge excluded), each with its variant.
    static func fit(_ info: HeaderInfo, width: Int, separator: Int) -> [(Field, (String, String))] {
        let all = variants(info)
        var chosen: [Field: Int?] = [:]
        for field in Field.allCases where all[field] != nil { chosen[field] = 0 }
        func shown() -> [(Field, (String, String))] {
            Field.allCases.compactMap { f in
                guard let choice = chosen[f], let i = choice, let list = all[f] else { return nil }
                return (f, list[min(i, list.count - 1)])
            }
        }
        func length(_ fields: [(Field, (String, String))]) -> Int {
            fields.enumerated().reduce(1) { sum, item in
                sum + (item.offset == 0 ? 0 : separator) + item.element.1.0.count + item.element.1.1.count
            }
        }
        for (field, variant) in degradation {
            if length(shown()) <= width { break }
            guard chosen[field] != nil else { continue }
            chosen[field] = .some(variant)
        }
        return shown()
    }

    public static func draw(_ info: HeaderInfo, into grid: inout Grid, rect: Rect, glyphs: Glyphs) {
        grid.fill(rect, " ", .header)
        let sep = glyphs.isASCII ? " | " : " │ "
        let badge = " \(info.lifecycleBadge) "
        let limit = rect.maxX - badge.count - 1
        var x = rect.x
        for (i, (field, (label, value))) in fit(info, width: limit - rect.x, separator: sep.count).enumerated() {
            guard x < limit else { break }
            if i == 0 { x = grid.put(x, rect.y, " ", .header, limit: limit - x) } else { x = grid.put(x, rect.y, sep, .header, limit: limit - x) }
            switch field {
            case .rec:
                x = grid.put(x, rect.y, label + value, .badgeWarning, limit: limit - x)
            case .notice:
                x = grid.put(x, rect.y, value, .badgeWarning, limit: limit - x)
            default:
                x = grid.put(x, rect.y, label, .header, limit: limit - x)
                x = grid.put(x, rect.y, value, .headerValue, limit: limit - x)
            }
        }
        let badgeRole: Role = info.connected && info.lifecycleBadge == "active" ? .badgeActive : .badgeWarning
        grid.put(rect.maxX - badge.count, rect.y, badge, badgeRole)
    }
}
