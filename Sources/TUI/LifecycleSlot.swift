/// The lifecycle panel's place until it arrives.
public enum LifecycleSlot {
    public static func draw(badge: String, into grid: inout Grid, rect: Rect, context: DrawContext) {
        guard !rect.isEmpty else { return }
        context.frame(&grid, rect, PanelID.lifecycle.title)
        let inner = rect.inset(1)
        grid.put(inner.x, inner.y, "state: \(badge)", .normal, limit: inner.width)
        if inner.height > 1 { grid.put(inner.x, inner.y + 1, "iOS lifecycle simulator: coming soon", .dim, limit: inner.width) }
    }
}
