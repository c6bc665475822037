import Lifecycle
import MIDI
import TextOutput

/// The lifecycle panel: state and time in state, configuration, narration, a strip of the last 60 s,
/// callbacks in order with the style's names, the streams table and the warnings. `P` shows the same
/// full screen (`LifecyclePresenter`).
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
    public static func strip(_ live: LiveSession, width: Int) -> String {
        String((0..<width).map { i in letter(live.state(at: live.now - Double(width - 1 - i))) })
    }

    /// Draws the panel: every block whole when there is room; on a short panel the least important blocks
    /// (strip, configuration, remark, callbacks) shrink or go first, so state, narration, streams and
    /// warnings stay. Text wraps at word boundaries and no word is dropped.
    public static func draw(_ live: LiveSession, into grid: inout Grid, rect: Rect, context: DrawContext) {
        guard !rect.isEmpty else { return }
        context.frame(&grid, rect, PanelID.lifecycle.title + (live.scenarioTitle.map { ": " + TerminalText.sanitized($0) } ?? ""))
        let inner = rect.inset(1)
        guard inner.height >= 1, inner.width >= 10 else { return }
        let w = inner.width
        let badge = "state ".count + live.state.rawValue.count + 2
        let tail = LifecycleText.wrap(LifecycleText.stateTail(live), width: w - 2, first: w - badge)
        let stateLines: [LifecycleText.Line] = [.state(tail: tail.first ?? "")] + tail.dropFirst().map { .text($0, .normal, indent: 2) }
        let blocks: [LifecycleText.Block] = [
            .init(priority: 0, full: stateLines, compact: Array(stateLines.prefix(1))),
            LifecycleText.configuration(live, width: w),
            LifecycleText.narration(live, width: w),
            LifecycleText.midiCounts(live, width: w),
            LifecycleText.hint(live, width: w),
            LifecycleText.strip(width: w, priority: 8),
            LifecycleText.callbacks(live, width: w, groups: 3),
            LifecycleText.streams(live, width: w),
            LifecycleText.warnings(live, width: w),
            LifecycleText.remark(live, width: w),
        ]
        LifecycleText.draw(LifecycleText.fit(blocks, height: inner.height), live: live, into: &grid, x: inner.x, y: inner.y, width: w)
    }
}
