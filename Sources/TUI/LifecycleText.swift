import Foundation
import Lifecycle
import MIDI
import TextOutput

/// The lifecycle panel's and the presenter view's text, as blocks of lines that fit a width and a height:
/// every text is wrapped at word boundaries (a word longer than the line is split, never dropped), and when
/// rows are short the least important blocks shrink to a compact form first, then go.
enum LifecycleText {
    /// One row of a block.
    enum Line: Equatable {
        case text(String, Role, indent: Int)
        /// The state badge, then `tail` (only the first row of a state block).
        case state(tail: String)
        /// The strip of the last seconds.
        case strip
    }

    /// A block: its full and compact forms (compact may be empty: dropped first) and its priority (0 is kept
    /// longest).
    struct Block {
        var priority: Int
        var full: [Line]
        var compact: [Line]
        /// A form between the two, tried when the full one does not fit.
        var medium: [Line]? = nil

        /// Forms from the most detailed to the compact one.
        var forms: [[Line]] { [full] + (medium.map { [$0] } ?? []) + [compact] }
    }

    /// Words to lines of at most `width` characters (`first` for the first line); no word is lost: one
    /// longer than its line is split.
    static func wrap(_ text: String, width: Int, first: Int? = nil) -> [String] {
        var lines: [String] = []
        var current = ""
        func limit() -> Int { max(1, lines.isEmpty ? (first ?? width) : width) }
        for w in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            var word = Substring(w)
            if !current.isEmpty && current.count + 1 + word.count > limit() {
                lines.append(current)
                current = ""
            }
            while current.isEmpty && word.count > limit() {
                let n = limit()
                lines.append(String(word.prefix(n)))
                word = word.dropFirst(n)
            }
            if !word.isEmpty { current += (current.isEmpty ? "" : " ") + word }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `text` wrapped to `width`, starting at `indent`, continuation lines indented `hang` more.
    static func paragraph(_ text: String, _ role: Role, width: Int, indent: Int = 0, hang: Int = 2) -> [Line] {
        wrap(text, width: width - indent - hang, first: width - indent).enumerated().map { i, part in
            .text(part, role, indent: i == 0 ? indent : indent + hang)
        }
    }

    /// The blocks chosen for `height` rows: all compact forms (dropping the least important until they fit),
    /// then full forms in order of importance while they fit. Returns the lines in display order.
    static func fit(_ blocks: [Block], height: Int) -> [Line] {
        var kept = Array(blocks.indices)
        // The form each block shows: an index into its `forms`, the compact one to start with.
        var form = blocks.map { $0.forms.count - 1 }
        func total() -> Int { kept.reduce(0) { $0 + blocks[$1].forms[form[$1]].count } }
        while total() > height, let worst = kept.max(by: { blocks[$0].priority < blocks[$1].priority }) {
            kept.removeAll { $0 == worst }
        }
        for i in kept.sorted(by: { blocks[$0].priority < blocks[$1].priority }) {
            let compact = form[i]
            for candidate in 0..<compact {
                form[i] = candidate
                if total() <= height { break }
                form[i] = compact
            }
        }
        return kept.sorted().flatMap { blocks[$0].forms[form[$0]] }
    }

    // MARK: - The blocks both views show

    static func stateTail(_ live: LiveSession) -> String {
        let sim = live.simulator
        var tail = " for \(Int(live.timeInState)) s"
        if !sim.aliveBy.isEmpty { tail += " · alive by " + sim.aliveBy.joined(separator: ", ") }
        if live.isScenario {
            tail += " · expect \(live.expectationsPassed) ok" + (live.expectationsFailed > 0 ? ", \(live.expectationsFailed) FAILED" : "")
        }
        if live.isPaused || live.speed != 1 { tail += " · " + live.clockText }
        return tail
    }

    static func configuration(_ live: LiveSession, width: Int) -> Block {
        let c = live.simulator.configuration
        let text = "\(c.style.rawValue) · modes [\(c.backgroundModes.map(\.rawValue).joined(separator: ", "))] · \(c.category.rawValue)"
            + " · mixWithOthers \(c.mixesWithOthers ? "on" : "off")"
        return Block(priority: 7, full: paragraph(text, .dim, width: width), compact: [])
    }

    static func narration(_ live: LiveSession, width: Int) -> Block {
        guard let n = live.narration else { return Block(priority: 1, full: [], compact: []) }
        let text = TerminalText.sanitized(n.text)
        let lines = paragraph(n.fromScenario ? "“" + text + "”" : text, .title, width: width)
        return Block(priority: 1, full: lines, compact: lines)
    }

    /// Per MIDI stream of a scenario: its `midi:S` messages delivered and lost since the scenario started.
    static func midiCounts(_ live: LiveSession, width: Int) -> Block {
        guard let text = live.midiCountsText else { return Block(priority: 2, full: [], compact: []) }
        let lines = paragraph("MIDI " + text, live.midiCounts.contains { $0.lost > 0 } ? .error : .normal, width: width)
        return Block(priority: 2, full: lines, compact: lines)
    }

    static func hint(_ live: LiveSession, width: Int) -> Block {
        guard let hint = live.hint else { return Block(priority: 4, full: [], compact: []) }
        let short: String
        if live.scenarioFinished {
            short = "scenario finished"
        } else if live.state == .suspended {
            short = "f: back to the app (every voice released)"
        } else if live.simulator.status(of: LiveSession.synthStream)?.keepsAlive == true {
            short = "never suspended while the synth plays: a stops it"
        } else {
            short = hint
        }
        let role: Role = live.scenarioFinished ? .title : .badgeWarning
        return Block(priority: live.scenarioFinished ? 2 : 4, full: paragraph(hint, role == .title ? .title : .dim, width: width),
                     compact: paragraph(short, role == .title ? .title : .dim, width: width))
    }

    static func callbacks(_ live: LiveSession, width: Int, groups: Int) -> Block {
        var full: [Line] = [.text("callbacks", .title, indent: 0)]
        let shown = live.callbacks.suffix(groups)
        if shown.isEmpty { full.append(.text("  none yet", .dim, indent: 0)) }
        for g in shown {
            full += paragraph(String(format: "%7.1f ", g.time) + g.names.joined(separator: ", "), .normal, width: width, hang: 8)
        }
        let compact = live.callbacks.last.map { paragraph("callbacks: " + $0.names.joined(separator: ", "), .normal, width: width) } ?? []
        return Block(priority: 5, full: full, compact: compact)
    }

    /// Streams: a table with each why in full (on the row when the width allows, else indented below), or
    /// compact: the names, `*` for those keeping the app alive.
    static func streams(_ live: LiveSession, width: Int, roomy: Bool? = nil) -> Block {
        let streams = live.simulator.streamStatuses
        let header = "stream     kind              run  alive  "
        let roomy = roomy ?? (width - header.count < 40)
        var full: [Line] = [.text(header + (roomy ? "" : "why"), .title, indent: 0)]
        for s in streams {
            let role: Role = s.keepsAlive ? .normal : .dim
            let head = s.name.fitted(10) + " " + s.kind.rawValue.fitted(17) + " " + (s.isRunning ? "yes" : "no").fitted(4) + " "
                + (s.keepsAlive ? "yes" : "no").fitted(6) + " "
            if roomy {
                full.append(.text(head, role, indent: 0))
                full += paragraph(s.why, .dim, width: width, indent: 4, hang: 0)
            } else {
                let parts = wrap(s.why, width: width - head.count)
                full.append(.text(head + (parts.first ?? ""), role, indent: 0))
                for part in parts.dropFirst() { full.append(.text(part, role, indent: head.count)) }
            }
        }
        let names = streams.map { $0.name + ($0.keepsAlive ? "*" : "") + ($0.isOn ? "" : "(off)") }.joined(separator: " ")
        let compact = paragraph("streams: " + names + (streams.contains(where: \.keepsAlive) ? "  (* keeps alive)" : ""), .normal, width: width)
        // Medium: each stream with its why, no table.
        var medium: [Line] = [.text("streams (* keeps the app alive)", .title, indent: 0)]
        for s in streams {
            let text = s.name + (s.keepsAlive ? "*" : "") + (s.isOn ? "" : " (off)") + ": " + s.why
            medium += paragraph(text, s.keepsAlive ? .normal : .dim, width: width, hang: 4)
        }
        return Block(priority: 2, full: full, compact: compact, medium: medium)
    }

    /// Warnings, each code once: with its explanation (full) or the codes alone (compact).
    static func warnings(_ live: LiveSession, width: Int, messages: Bool = false) -> Block {
        var latest: [(WarningCode, LifecycleWarning)] = []
        for w in live.simulator.raisedWarnings {
            if let i = latest.firstIndex(where: { $0.0 == w.code }) { latest[i].1 = w } else { latest.append((w.code, w)) }
        }
        // A warning whose cause is gone (the stream stopped, the app back in the foreground) is not shown as
        // current: one line names those past.
        let past = latest.filter { !live.simulator.stillHolds($0.1) }.map(\.0.rawValue)
        latest.removeAll { !live.simulator.stillHolds($0.1) }
        let pastLines = past.isEmpty ? [] : paragraph("earlier, cause gone: " + past.joined(separator: ", "), .dim, width: width)
        if latest.isEmpty {
            let none: [Line] = [.text("warnings: none", .title, indent: 0)]
            return Block(priority: 3, full: none + pastLines, compact: none)
        }
        var full: [Line] = [.text("warnings", .title, indent: 0)]
        for (code, w) in latest {
            let text = messages ? "\(code.rawValue): \(TerminalText.sanitized(w.message))" : "\(code.rawValue): \(code.explanation)"
            full += paragraph(text, .error, width: width, hang: 4)
        }
        full += pastLines
        // Never a bare code: each with the words before its explanation's first colon; on the shortest panel
        // the codes and where their words are (the presenter view shows them whole).
        let medium = paragraph("warnings: " + latest.map { "\($0.0.rawValue) (\(shortExplanation($0.0)))" }.joined(separator: ", "),
                               .error, width: width)
        let compact = paragraph("warnings: " + latest.map(\.0.rawValue).joined(separator: ", ") + " (P says why)", .error, width: width)
        return Block(priority: 3, full: full, compact: compact, medium: medium)
    }

    /// A warning's explanation up to its first colon, semicolon or comma: the words a code is never shown without.
    static func shortExplanation(_ code: WarningCode) -> String {
        String(code.explanation.prefix { $0 != ":" && $0 != ";" && $0 != "," && $0 != "(" }).trimmingCharacters(in: .whitespaces)
    }

    /// The strip's legend: what each letter means.
    static let stripLegend = "A active · i inactive · B background · S suspended · T terminated · - not running"

    /// The strip of the last seconds, with its legend when there is room.
    static func strip(width: Int, priority: Int) -> Block {
        Block(priority: priority, full: [.strip] + paragraph(stripLegend, .dim, width: width), compact: [], medium: [.strip])
    }

    static func remark(_ live: LiveSession, width: Int) -> Block {
        guard let remark = live.remark else { return Block(priority: 6, full: [], compact: []) }
        return Block(priority: 6, full: paragraph(TerminalText.sanitized(remark), .dim, width: width), compact: [])
    }

    // MARK: - Drawing lines

    /// Draws `lines` from (x, y) within `width` columns; returns the row after the last.
    @discardableResult
    static func draw(_ lines: [Line], live: LiveSession, into grid: inout Grid, x: Int, y: Int, width: Int) -> Int {
        var y = y
        for line in lines {
            switch line {
            case .text(let text, let role, let indent):
                grid.put(x + indent, y, text, role, limit: width - indent)
            case .state(let tail):
                let sx = grid.put(x, y, "state ", .title)
                let after = grid.put(sx, y, " \(live.state.rawValue) ", live.state == .active ? .badgeActive : .badgeWarning)
                grid.put(after, y, tail, .normal, limit: x + width - after)
            case .strip:
                drawStrip(live, into: &grid, x: x, y: y, width: width)
            }
            y += 1
        }
        return y
    }

    /// The strip: one cell a second, newest right, between "-Ns " and " now".
    static func drawStrip(_ live: LiveSession, into grid: inout Grid, x: Int, y: Int, width: Int) {
        let seconds = max(0, min(LiveSession.stripSeconds, width - 10))
        var sx = grid.put(x, y, "-\(seconds)s ", .dim)
        for (i, ch) in LifecyclePanel.strip(live, width: seconds).enumerated() {
            let state = live.state(at: live.now - Double(seconds - 1 - i))
            grid.set(sx, y, ch.unicodeScalars.first!, LifecyclePanel.role(state))
            sx += 1
        }
        grid.put(sx, y, " now", .dim, limit: x + width - sx)
    }
}
