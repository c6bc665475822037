import Engine
import Foundation
import MIDI

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
        if case .systemExclusive(let sysex) = message {
            details += " " + TerminalText.sanitized(bytes: sysex.data.prefix(24))
        }
        if e.lost { details = "LOST " + details }
        let hex = formatter.rawHex(message)
        let channel = formatter.channelText(message).fitted(5)
        let type = formatter.typeName(message).fitted(14)
        // A sysex the synth did not act on (an unknown message, a bad checksum): a dim tag before its details.
        let tag = e.ignored && !e.lost ? "ignored " : ""
        let fixed = 10 + 5 + 6 + 6 + 15 + tag.count
        let hexWidth = min(hex.count, max(0, width - fixed - 12))
        // Hex follows the details closely on wide screens rather than at the far edge.
        let detailsWidth = min(46, max(0, width - fixed - hexWidth - 1))
        return [(time + " ", .monitorTime), (source + " ", .monitorSource), (direction + " ", directionRole), (channel + " ", .dim),
                (type + " ", role), (tag, .dim), (details.fitted(detailsWidth) + " ", role),
                (String(hex.prefix(hexWidth)), .monitorHex)]
    }

    /// What was lost and why, in words (the help overlay says more): MIDI the lifecycle gate dropped while the
    /// simulated app was suspended, and events dropped because a queue between threads was full.
    public static func lossText(engineLost: Int, ringDrops: Int) -> String {
        if engineLost == 0 && ringDrops == 0 { return "nothing lost" }
        var parts: [String] = []
        if engineLost > 0 { parts.append("\(engineLost) dropped while suspended") }
        if ringDrops > 0 { parts.append("\(ringDrops) lost to input overflow") }
        return "lost: " + parts.joined(separator: " · ")
    }

    public func draw(_ log: MonitorLog, tempo: TempoReadout?, ringDrops: Int, engineLost: Int,
                     into grid: inout Grid, rect: Rect, context: DrawContext) {
        context.frame(&grid, rect, PanelID.monitor.title)
        let inner = rect.inset(1)
        guard inner.height >= 2, inner.width >= 10 else { return }
        // Filter, tempo and loss line.
        var x = inner.x
        let channel = log.channel.map { "ch \($0 + 1)" } ?? "all channels"
        x = grid.put(x, inner.y, "\(channel) · \(log.type.label)", .normal, limit: inner.maxX - x)
        x = grid.put(x, inner.y, log.showClockAndSensing ? " · clock shown" : " · clock hidden", .dim, limit: inner.maxX - x)
        let tempoText = tempo.map { String(format: "  %.1f BPM ±%.2f ms", $0.bpm, $0.jitterMilliseconds) } ?? "  -- BPM"
        x = grid.put(x, inner.y, tempoText, .normal, limit: inner.maxX - x)
        let lostRole: Role = (engineLost + ringDrops) > 0 ? .monitorLost : .dim
        x = grid.put(x, inner.y, "  " + Self.lossText(engineLost: engineLost, ringDrops: ringDrops), lostRole, limit: inner.maxX - x)
        if log.paused || log.anchor != nil {
            let tag = log.paused ? "  PAUSED" : "  SCROLLED"
            x = grid.put(x, inner.y, tag + (log.hiddenNewer > 0 ? " +\(log.hiddenNewer)" : ""), .badgeWarning, limit: inner.maxX - x)
        }
        let rows = log.visibleRows(inner.height - 1)
        if rows.isEmpty {
            grid.put(inner.x, inner.y + 1, "waiting for MIDI (play with i then z s x..., or connect a source)", .dim, limit: inner.width)
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
