import Foundation
import Lifecycle
import MIDI
import TextOutput

/// The presenter view (`P`): the lifecycle panel filling the screen for an audience. A large state badge
/// with the time in state and the clock (paused, speed), the narration, the strip, every stream with its
/// reason in full, the warnings with their text, and the callbacks as they fire. On a wide screen streams
/// and warnings are on the left, callbacks on the right; on a small one the least important blocks shrink.
public enum LifecyclePresenter {
    /// The keys, shown at the bottom when there is room.
    static let keys = "Space pause · . step · - + speed · h l home/lock · f foreground · a synth · P Esc back"

    public static func draw(_ live: LiveSession, into grid: inout Grid, rect: Rect, context: DrawContext) {
        guard !rect.isEmpty else { return }
        context.frame(&grid, rect, "Lifecycle presenter" + (live.scenarioTitle.map { ": " + TerminalText.sanitized($0) } ?? ""))
        let inner = rect.inset(1)
        guard inner.height >= 4, inner.width >= 20 else { return }
        drawBadge(live, into: &grid, inner: inner, ascii: context.glyphs == .ascii)

        let top = inner.y + 4
        let height = inner.maxY - top
        let w = inner.width
        let keysBlock = LifecycleText.Block(priority: 5, full: LifecycleText.paragraph(keys, .dim, width: w), compact: [])
        let narration = LifecycleText.narration(live, width: w)
        let counts = LifecycleText.midiCounts(live, width: w)
        var hint = LifecycleText.hint(live, width: w)
        hint.priority = 1
        let strip = LifecycleText.strip(width: w, priority: 6)
        if w >= 100 {
            // Full width: narration, hint, strip; then two columns; the keys last.
            let head = LifecycleText.fit([narration, counts, hint, strip], height: max(0, height - 4))
            var y = LifecycleText.draw(head, live: live, into: &grid, x: inner.x, y: top, width: w)
            y += head.isEmpty ? 0 : 1
            let keyLines = LifecycleText.wrap(keys, width: w).count
            let columnHeight = max(0, inner.maxY - y - keyLines)
            let leftWidth = w * 3 / 5
            let rightX = inner.x + leftWidth + 2
            let rightWidth = inner.maxX - rightX
            let left = LifecycleText.fit([LifecycleText.streams(live, width: leftWidth, roomy: true),
                                          LifecycleText.warnings(live, width: leftWidth, messages: true)], height: columnHeight)
            LifecycleText.draw(left, live: live, into: &grid, x: inner.x, y: y, width: leftWidth)
            let right = callbacks(live, width: rightWidth, height: columnHeight)
            LifecycleText.draw(right, live: live, into: &grid, x: rightX, y: y, width: rightWidth)
            LifecycleText.draw(keysBlock.full, live: live, into: &grid, x: inner.x, y: inner.maxY - keyLines, width: w)
        } else {
            var warnings = LifecycleText.warnings(live, width: w, messages: true)
            warnings.priority = 3
            var streams = LifecycleText.streams(live, width: w)
            streams.priority = 2
            var calls = LifecycleText.callbacks(live, width: w, groups: 4)
            calls.priority = 4
            let lines = LifecycleText.fit([narration, counts, hint, strip, streams, warnings, calls, keysBlock], height: height)
            LifecycleText.draw(lines, live: live, into: &grid, x: inner.x, y: top, width: w)
        }
    }

    /// Capitals three rows high in line strokes, for the badge (only the letters of the state names).
    static let bigLetters: [Character: [String]] = [
        "A": ["┏━┓", "┣━┫", "╹ ╹"], "B": ["┏┓ ", "┣┻┓", "┗━┛"], "C": ["┏━╸", "┃  ", "┗━╸"], "D": ["╺┳┓", " ┃┃", "╺┻┛"],
        "E": ["┏━╸", "┣╸ ", "┗━╸"], "G": ["┏━╸", "┃╺┓", "┗━┛"], "I": ["╻", "┃", "╹"], "K": ["╻┏ ", "┣┻┓", "╹ ╹"],
        "M": ["┏┳┓", "┃┃┃", "╹ ╹"], "N": ["┏┓╻", "┃┗┫", "╹ ╹"], "O": ["┏━┓", "┃ ┃", "┗━┛"], "P": ["┏━┓", "┣━┛", "╹  "],
        "R": ["┏━┓", "┣┳┛", "╹┗╸"], "S": ["┏━┓", "┗━┓", "┗━┛"], "T": ["╺┳╸", " ┃ ", " ╹ "], "U": ["╻ ╻", "┃ ┃", "┗━┛"],
        "V": ["╻ ╻", "┃┏┛", "┗┛ "], "-": ["   ", "╺━╸", "   "],
    ]

    /// `word` in capitals three rows high, a column between letters; with `ascii`, in `+ - |` strokes.
    /// nil when a letter has no big form.
    static func bigText(_ word: String, ascii: Bool) -> [String]? {
        var rows = ["", "", ""]
        for (i, c) in word.uppercased().enumerated() {
            guard let glyph = bigLetters[c] else { return nil }
            for r in 0..<3 { rows[r] += (i > 0 ? " " : "") + glyph[r] }
        }
        guard ascii else { return rows }
        return rows.map { row in
            String(row.map { c -> Character in
                switch c {
                case "━", "╸", "╺": "-"
                case "┃", "╻", "╹": "|"
                case " ": " "
                default: "+"
                }
            })
        }
    }

    /// The state in capitals three rows high on the badge colour (readable from the back of a room; spaced
    /// capitals on one row when the view is too narrow); beside it the time in state with what keeps the app
    /// alive, the clock and the expectations.
    static func drawBadge(_ live: LiveSession, into grid: inout Grid, inner: Rect, ascii: Bool) {
        let role: Role = live.state == .active ? .badgeActive : .badgeWarning
        let big = bigText(live.state.rawValue, ascii: ascii)
        let bigWidth = big?.first?.count ?? 0
        let badgeWidth: Int
        if let big, inner.width - (bigWidth + 4) >= 14 + 2 {
            badgeWidth = max(24, bigWidth + 4)
            for row in 0..<3 {
                grid.fill(Rect(x: inner.x, y: inner.y + row, width: badgeWidth, height: 1), " ", role)
                grid.put(inner.x + (badgeWidth - bigWidth) / 2, inner.y + row, big[row], role, limit: badgeWidth)
            }
        } else {
            let label = live.state.rawValue.uppercased().map(String.init).joined(separator: " ")
            badgeWidth = min(inner.width, max(24, label.count + 6))
            for row in 0..<3 { grid.fill(Rect(x: inner.x, y: inner.y + row, width: badgeWidth, height: 1), " ", role) }
            grid.put(inner.x + max(0, (badgeWidth - label.count) / 2), inner.y + 1, label, role, limit: badgeWidth)
        }
        let x = inner.x + badgeWidth + 2
        let width = inner.maxX - x
        guard width >= 12 else { return }
        let sim = live.simulator
        let alive = !sim.aliveBy.isEmpty ? " · alive by " + sim.aliveBy.joined(separator: ", ")
            : sim.state == .background ? " · nothing keeps it alive" : ""
        var side = ["\(live.state.rawValue) for \(Int(live.timeInState)) s" + alive]
        side.append("t = \(String(format: "%.1f", live.now)) s · " + live.clockText)
        if live.isScenario {
            side.append("expect \(live.expectationsPassed) ok" + (live.expectationsFailed > 0 ? ", \(live.expectationsFailed) FAILED" : "")
                        + (live.scenarioFinished ? " · finished" : ""))
        } else {
            let c = sim.configuration
            side.append("\(c.style.rawValue) · [\(c.backgroundModes.map(\.rawValue).joined(separator: ", "))] · \(c.category.rawValue)"
                        + (c.mixesWithOthers ? " · mix" : ""))
        }
        // Beside the badge, three rows: a line too long ends after a whole word (the panel below says the rest).
        for (i, text) in side.enumerated() { grid.put(x, inner.y + i, text.fitWords(width), i == 0 ? .title : .dim, limit: width) }
    }

    /// Callbacks as they fire, newest at the bottom: as many of the latest as fit.
    static func callbacks(_ live: LiveSession, width: Int, height: Int) -> [LifecycleText.Line] {
        guard height > 0 else { return [] }
        var body: [LifecycleText.Line] = []
        for g in live.callbacks.reversed() {
            let lines = LifecycleText.paragraph(String(format: "%7.1f ", g.time) + g.names.joined(separator: ", "), .normal,
                                                width: width, hang: 8)
            if body.count + lines.count > height - 1 { break }
            body = lines + body
        }
        if body.isEmpty && height > 1 { body = [.text("  none yet", .dim, indent: 0)] }
        return [.text("callbacks as they fire", .title, indent: 0)] + body
    }
}
