/// The help overlay: a box over the middle of the screen listing every key.
public enum HelpOverlay {
    public static func draw(into grid: inout Grid, scroll: Int, glyphs: Glyphs) {
        let lines = InputMap.helpLines
        let width = min(grid.width - 2, (lines.map(\.count).max() ?? 40) + 4)
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
