import Engine
import Foundation
import MIDI
import TextOutput

/// The MIDI monitor: a filter/tempo/loss line, then the log, newest at the bottom.
public struct MonitorPanel {
    public var formatter: MonitorFormatter

    public init(middleC: MiddleC = .c4) { formatter = MonitorFormatter(middleC: middleC, maxRawBytes: 6) }

    /// One log row as coloured segments: time, source, channel, type, details, raw hex.
    public func segments(_ e: MonitorEntry, width: Int) -> [(String, Role)] {
        let time = String(format: "%9.3f", e.time)
        let source = e.source.description.fitted(4)
        // What Backbeat sent on its MIDI outputs stands out from what came in.
        let direction = e.direction.fitted(5)
        let directionRole: Role = e.direction == "out" || e.direction == "thru" ? .badgeActive : .monitorSource
        guard let message = e.message else {
            return [(time + " ", .monitorTime), (source + " ", .monitorSource), (direction + " ", directionRole),
                    ("undefined status " + hexString([e.status]), .monitorSystem)]
        }
        let role: Role = e.lost ? .monitorLost : {
            switch message {
            case .noteOn, .noteOff, .polyPressure: .monitorNote
            case .controlChange, .programChange, .pitchBend, .channelPressure: .monitorControl
            default: .monitorSystem
            }
        }()
        var details = e.label ?? formatter.details(message)
        // A sysex's bytes as text (names in a GS message) go first when room is short: its hex is the message.
        var sysexText = "", isSysex = false
        if case .systemExclusive(let sysex) = message {
            sysexText = " " + TerminalText.sanitized(bytes: sysex.data.prefix(24))
            isSysex = true
        }
        if e.lost { details = "LOST " + details }
        let hex = formatter.rawHex(message)
        let typeName = formatter.typeName(message)
        // A sysex the synth did not act on (an unknown message, a bad checksum): a dim tag before its details.
        let tag = e.ignored && !e.lost ? "ignored " : ""
        // Columns drop whole, never cut inside a number or a word: the raw bytes first, then the type's long
        // name (its short one stays), the source, the channel, the direction, the time; the details (the
        // values) stay, cut only at a word when even they alone do not fit.
        var showHex = !hex.isEmpty, longType = true, showSource = true, showChannel = true, showDirection = true, showTime = true
        func fixed() -> Int {
            (showTime ? 10 : 0) + (showSource ? 5 : 0) + (showDirection ? 6 : 0) + (showChannel ? 6 : 0) + (longType ? 15 : 7) + tag.count
        }
        var showSysexText = !sysexText.isEmpty
        // A sysex's hex shows as many whole bytes as fit (at least one), others' hex whole or not at all.
        func hexNeed() -> Int { showHex ? 1 + (isSysex ? min(hex.count, 11) : hex.count) : 0 }
        func needed() -> Int { fixed() + details.count + (showSysexText ? sysexText.count : 0) + hexNeed() }
        let steps: [() -> Void] = [{ showSysexText = false }, { showHex = false }, { longType = false }, { showSource = false },
                                   { showChannel = false }, { showDirection = false }, { showTime = false }]
        for step in steps where needed() > width { step() }
        if showSysexText { details += sysexText }
        let hexShown = isSysex ? hex.fitWords(max(0, width - fixed() - details.count - 1)) : hex
        let detailsRoom = max(0, width - fixed() - (showHex ? hexShown.count + 1 : 0))
        // Hex follows the details closely on wide screens rather than at the far edge.
        let shownDetails = details.count <= detailsRoom ? details : details.fitWords(detailsRoom)
        let detailsWidth = showHex ? max(shownDetails.count, min(46, detailsRoom)) : shownDetails.count
        var out: [(String, Role)] = []
        if showTime { out.append((time + " ", .monitorTime)) }
        if showSource { out.append((source + " ", .monitorSource)) }
        if showDirection { out.append((direction + " ", directionRole)) }
        if showChannel { out.append((formatter.channelText(message).fitted(5) + " ", .dim)) }
        out.append(((longType ? typeName.fitted(14) : Self.shortType(typeName).fitted(6)) + " ", role))
        out.append((tag, .dim))
        out.append((shownDetails.fitted(detailsWidth) + (showHex ? " " : ""), role))
        if showHex { out.append((hexShown, .monitorHex)) }
        return out
    }

    /// A message type's short name, for a narrow monitor.
    static func shortType(_ name: String) -> String {
        switch name {
        case "Note On": "On"
        case "Note Off": "Off"
        case "Poly Pressure": "PolyAT"
        case "Control Change": "CC"
        case "Channel Mode": "Mode"
        case "Program Change": "PC"
        case "Channel Pressure": "ChanAT"
        case "Pitch Bend": "Bend"
        case "MTC Quarter Frame": "MTC"
        case "Song Position": "SongP"
        case "Song Select": "SongS"
        case "Tune Request": "Tune"
        case "Active Sensing": "Sense"
        case "Continue": "Cont"
        default: String(name.prefix(6))
        }
    }

    /// What was lost and why, in words (the help overlay says more): MIDI the lifecycle gate dropped while the
    /// simulated app was suspended, and events dropped because a queue between threads was full.
    public static func lossText(engineLost: Int, ringDrops: Int, short: Bool = false) -> String {
        if engineLost == 0 && ringDrops == 0 { return "nothing lost" }
        var parts: [String] = []
        if engineLost > 0 { parts.append(short ? "\(engineLost) suspended" : "\(engineLost) dropped while suspended") }
        if ringDrops > 0 { parts.append(short ? "\(ringDrops) overflow" : "\(ringDrops) lost to input overflow") }
        return "lost: " + parts.joined(separator: " · ")
    }

    public func draw(_ log: MonitorLog, tempo: TempoReadout?, ringDrops: Int, engineLost: Int,
                     into grid: inout Grid, rect: Rect, context: DrawContext) {
        context.frame(&grid, rect, PanelID.monitor.title)
        let inner = rect.inset(1)
        guard inner.height >= 2, inner.width >= 10 else { return }
        // Filter, tempo and loss line: each piece in a long and a short form (or none), shortened in order of
        // least use until the line fits whole.
        let channel = log.channel.map { "ch \($0 + 1)" } ?? "all channels"
        let lostRole: Role = (engineLost + ringDrops) > 0 ? .monitorLost : .dim
        let tempoText = tempo.map { String(format: "  %.1f BPM ±%.2f ms", $0.bpm, $0.jitterMilliseconds) } ?? "  -- BPM"
        let tempoShort = tempo.map { String(format: "  %.1f BPM", $0.bpm) } ?? ""
        var pieces: [(forms: [String], role: Role)] = [
            (["\(channel) · \(log.type.label)"], .normal),
            ([log.showClockAndSensing ? " · clock shown" : " · clock hidden", ""], .dim),
            ([tempoText, tempoShort], .normal),
            (["  " + Self.lossText(engineLost: engineLost, ringDrops: ringDrops), "  " + Self.lossText(engineLost: engineLost, ringDrops: ringDrops, short: true)], lostRole),
        ]
        if log.paused || log.anchor != nil {
            let tag = (log.paused ? "  PAUSED" : "  SCROLLED") + (log.hiddenNewer > 0 ? " +\(log.hiddenNewer)" : "")
            pieces.append(([tag], .badgeWarning))
        }
        var choice = pieces.map { _ in 0 }
        func length() -> Int { pieces.indices.reduce(0) { $0 + pieces[$1].forms[choice[$1]].count } }
        for i in [1, 2, 3, 2] where length() > inner.width { choice[i] = min(choice[i] + 1, pieces[i].forms.count - 1) }
        var x = inner.x
        for (i, piece) in pieces.enumerated() {
            let text = piece.forms[choice[i]]
            x = grid.put(x, inner.y, text.fitWords(inner.maxX - x), piece.role, limit: inner.maxX - x)
        }
        let rows = log.visibleRows(inner.height - 1)
        if rows.isEmpty {
            let waiting = String.firstFitting(["waiting for MIDI (play with i then z s x..., or connect a source)",
                                               "waiting for MIDI (i then z s x... plays)", "waiting for MIDI"], width: inner.width)
            grid.put(inner.x, inner.y + 1, waiting, .dim, limit: inner.width)
            return
        }
        let top = inner.y + 1 + (inner.height - 1 - rows.count)
        for (i, entry) in rows.enumerated() {
            var cx = inner.x
            for (text, role) in segments(entry, width: inner.width) {
                cx = grid.put(cx, top + i, text, role, limit: inner.maxX - cx)
            }
        }
    }
}
