/// The help overlay: a box over the middle of the screen listing every key; a line wider than the box wraps
/// at word boundaries, the rest of a key's description under its start.
public enum HelpOverlay {
    /// `InputMap.helpLines` for a box `width` cells wide (inside its border and margin).
    static func lines(width: Int) -> [String] {
        var out: [String] = []
        let hang = 2 + 24 + 1
        for line in InputMap.helpLines {
            guard line.count > width, width > hang + 10 else { out.append(line); continue }
            let parts = LifecycleText.wrap(String(line.dropFirst(hang)), width: width - hang)
            out.append(String(line.prefix(hang)) + (parts.first ?? ""))
            for part in parts.dropFirst() { out.append(String(repeating: " ", count: hang) + part) }
        }
        return out
    }

    public static func draw(into grid: inout Grid, scroll: Int, glyphs: Glyphs) {
        let longest = InputMap.helpLines.map(\.count).max() ?? 40
        let width = min(grid.width - 2, longest + 4)
        let lines = lines(width: width - 3)
        let height = min(grid.height - 2, lines.count + 2)
        let rect = Rect(x: (grid.width - width) / 2, y: (grid.height - height) / 2, width: width, height: height)
        grid.fill(rect, " ", .help)
        grid.box(rect, title: "Help — Esc closes", glyphs: glyphs, role: .borderFocused, titleRole: .borderFocused)
        let inner = rect.inset(1)
        let first = max(0, min(scroll, lines.count - inner.height))
        for (i, line) in lines.dropFirst(first).prefix(inner.height).enumerated() {
            let isSection = !line.hasPrefix(" ") && !line.isEmpty
            grid.put(inner.x + 1, inner.y + i, line, isSection ? .title : .help, limit: inner.width - 1)
        }
    }
}
