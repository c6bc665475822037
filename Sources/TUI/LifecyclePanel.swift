import Foundation
import Lifecycle
import MIDI

/// The lifecycle panel: state and time in state, configuration, narration, a strip of the last 60 s,
/// callbacks in order with the style's names, the streams table and the warnings. Lines are dropped from
/// the bottom when the panel is short.
public enum LifecyclePanel {
    /// One cell per second of the strip: a letter per state, so it reads without colour too.
    public static func letter(_ state: AppState?) -> Character {
        switch state {
        case .active: "A"
        case .inactive: "i"
        case .background: "B"
        case .suspended: "S"
        case .terminated: "T"
        case .notRunning: "-"
        case nil: " "
        }
    }

    static func role(_ state: AppState?) -> Role {
        switch state {
        case .active: .meterLow
        case .inactive, .background: .meterMid
        case .terminated: .error
        case .suspended, .notRunning, nil: .dim
        }
    }

    /// The strip's text for `width` seconds ending at `live.now` (oldest left).
    public static func strip(_ live: LiveLifecycle, width: Int) -> String {
        String((0..<width).map { i in letter(live.state(at: live.now - Double(width - 1 - i))) })
    }

    public static func draw(_ live: LiveLifecycle, into grid: inout Grid, rect: Rect, context: DrawContext) {
        guard !rect.isEmpty else { return }
        context.frame(&grid, rect, PanelID.lifecycle.title + (live.scenarioTitle.map { ": " + TerminalText.sanitized($0) } ?? ""))
        let inner = rect.inset(1)
        guard inner.height >= 1, inner.width >= 10 else { return }
        let sim = live.simulator
        var y = inner.y
        func line(_ text: String, _ role: Role = .normal, x: Int? = nil) {
            guard y < inner.maxY else { return }
            grid.put(x ?? inner.x, y, text, role, limit: inner.maxX - (x ?? inner.x))
            y += 1
        }

        // State and time in state, then the configuration.
        let stateText = sim.state.rawValue
        let x = grid.put(inner.x, y, "state ", .title)
        let after = grid.put(x, y, " \(stateText) ", sim.state == .active ? .badgeActive : .badgeWarning)
        var tail = " for \(Int(live.timeInState)) s"
        if !sim.aliveBy.isEmpty { tail += " · alive by " + sim.aliveBy.joined(separator: ", ") }
        if live.isScenario {
            tail += " · expect \(live.expectationsPassed) ok" + (live.expectationsFailed > 0 ? ", \(live.expectationsFailed) FAILED" : "")
        }
        grid.put(after, y, tail, .normal, limit: inner.maxX - after)
        y += 1
        let c = sim.configuration
        line("\(c.style.rawValue) · modes [\(c.backgroundModes.map(\.rawValue).joined(separator: ", "))] · \(c.category.rawValue)"
             + " · mixWithOthers \(c.mixesWithOthers ? "on" : "off")", .dim)
        if let say = live.narration { line("“" + TerminalText.sanitized(say) + "”", .title) }

        // The strip: the last 60 s, one cell a second, newest right.
        if y < inner.maxY {
            let width = min(LiveLifecycle.stripSeconds, inner.width - 10)
            var sx = grid.put(inner.x, y, "-\(width)s ", .dim)
            for (i, ch) in strip(live, width: max(0, width)).enumerated() {
                let state = live.state(at: live.now - Double(width - 1 - i))
                grid.set(sx, y, ch.unicodeScalars.first!, role(state))
                sx += 1
            }
            grid.put(sx, y, " now", .dim, limit: inner.maxX - sx)
            y += 1
        }

        // Callbacks in order (the last few groups).
        line("callbacks", .title)
        let groups = live.callbacks.suffix(3)
        if groups.isEmpty { line("  none yet", .dim) }
        for g in groups { line(String(format: "%7.1f ", g.time) + g.names.joined(separator: ", ")) }

        // Streams: running, keeps the app alive, why. On a narrow panel with rows to spare, the why and
        // the warnings' explanations get lines of their own.
        let streams = sim.streamStatuses
        var seen: [WarningCode] = []
        for w in sim.raisedWarnings where !seen.contains(w.code) { seen.append(w.code) }
        let row = "stream     kind              run  alive  "
        let needed = 3 + streams.reduce(0) { $0 + 1 + wrapped($1.why, width: inner.width - 4).count }
            + seen.reduce(0) { $0 + 1 + wrapped($1.explanation, width: inner.width - 4).count }
        let roomy = inner.width - row.count < 40 && inner.maxY - y >= needed
        line(row + (roomy ? "" : "why"), .title)
        for s in streams {
            let role: Role = s.keepsAlive ? .normal : .dim
            let head = s.name.fitted(10) + " " + s.kind.rawValue.fitted(17) + " " + (s.isRunning ? "yes" : "no").fitted(4) + " "
                + (s.keepsAlive ? "yes" : "no").fitted(6) + " "
            if roomy {
                line(head, role)
                for part in wrapped(s.why, width: inner.width - 4) { line("    " + part, .dim) }
            } else {
                line(head + s.why, role)
            }
        }

        // Warnings: each code once, with its explanation.
        line(seen.isEmpty ? "warnings: none" : "warnings", .title)
        for code in seen {
            if roomy {
                line(code.rawValue, .error)
                for part in wrapped(code.explanation, width: inner.width - 4) { line("    " + part, .dim) }
            } else {
                line("\(code.rawValue): \(code.explanation)", .error)
            }
        }
        if let remark = live.remark { line(TerminalText.sanitized(remark), .dim) }
    }

    /// Words to lines of at most `width` characters.
    static func wrapped(_ text: String, width: Int) -> [String] {
        guard width > 8 else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
