import Engine
import Foundation
import MIDI

/// The header's figures: a plain value so the panel draws the same from a live engine and from a test.
public struct HeaderInfo: Equatable, Sendable {
    public var serverName = "default"
    public var serverPrivate = false
    public var driver: String?
    public var connected = false
    public var sampleRate = 0
    public var periodFrames = 0
    public var dspLoad: Float = 0
    public var xruns = 0
    public var voicesInUse = 0
    public var voiceCapacity = 0
    public var midiPerSecond = 0
    public var ringDrops = 0
    /// The simulated app's lifecycle state (the lifecycle panel's simulator).
    public var lifecycleBadge = "active"
    /// ALSA (EngineStatus): the PCM line when the ALSA driver runs instead of JACK; the sequencer's line.
    public var alsaPCM: String?
    public var alsaMIDI: String?
    /// What is being recorded (file, seconds), shown before the badge.
    public var recordings: [Recording] = []
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

/// One line: JACK server, rate, period, DSP load, xruns, voices, MIDI rate, drops and the lifecycle badge.
public enum HeaderPanel {
    public static func draw(_ info: HeaderInfo, into grid: inout Grid, rect: Rect, glyphs: Glyphs) {
        grid.fill(rect, " ", .header)
        let sep = glyphs.isASCII ? " | " : " │ "
        let server = TerminalText.sanitized(info.serverName)
        let kind = info.serverPrivate ? "private" + (info.driver.map { ", \(TerminalText.sanitized($0))" } ?? "") : "external"
        var fields: [(String, String)] = [info.alsaPCM.map { ("", TerminalText.sanitized(String($0.prefix { $0 != "," }))) } ?? ("JACK ", "\(server) (\(kind))")]
        if info.connected {
            let ms = info.sampleRate > 0 ? String(format: " %.1f ms", Double(info.periodFrames) / Double(info.sampleRate) * 1000) : ""
            fields += [("", "\(info.sampleRate) Hz"), ("period ", "\(info.periodFrames)\(ms)"),
                       ("DSP ", String(format: "%.1f%%", info.dspLoad)), ("xruns ", "\(info.xruns)"),
                       ("voices ", "\(info.voicesInUse)/\(info.voiceCapacity)"), ("MIDI ", "\(info.midiPerSecond)/s"),
                       ("drops ", "\(info.ringDrops)")]
        } else {
            fields += [("", "disconnected, waiting for the server"), ("xruns ", "\(info.xruns)")]
        }
        if let alsaMIDI = info.alsaMIDI { fields.append(("", TerminalText.sanitized(alsaMIDI))) }
        let badge = " \(info.lifecycleBadge) "
        var limit = rect.maxX - badge.count - 1
        let rec = info.recordingText
        if !rec.isEmpty {
            let text = " " + String(rec.prefix(max(0, rect.width / 2))) + " "
            limit -= text.count + 1
            grid.put(limit + 1, rect.y, text, .badgeWarning)
        }
        var x = grid.put(rect.x, rect.y, " Backbeat", .headerValue, limit: limit - rect.x)
        for (label, value) in fields {
            guard x < limit else { break }
            x = grid.put(x, rect.y, sep + label, .header, limit: limit - x)
            x = grid.put(x, rect.y, value, .headerValue, limit: limit - x)
        }
        let badgeRole: Role = info.connected && info.lifecycleBadge == "active" ? .badgeActive : .badgeWarning
        grid.put(rect.maxX - badge.count, rect.y, badge, badgeRole)
    }
}
