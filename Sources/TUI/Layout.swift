/// The panels (Tab follows the screen: `Layout.tabOrder`).
public enum PanelID: Int, CaseIterable, Sendable {
    case monitor, keyboard, synth, meters, lifecycle
    public var title: String {
        switch self {
        case .monitor: "MIDI monitor"
        case .keyboard: "Keyboard"
        case .synth: "Synth"
        case .meters: "Meters"
        case .lifecycle: "Lifecycle"
        }
    }
}

/// Where each panel goes for a terminal size: header on top, status line at the bottom, the piano strip
/// above it, the monitor on the left, meters, synth and the lifecycle panel on the right.
public struct Layout: Equatable, Sendable {
    public static let minWidth = 80
    public static let minHeight = 24

    public var header: Rect
    public var status: Rect
    public var monitor: Rect
    public var meters: Rect
    public var synth: Rect
    /// The lifecycle panel's place; empty when there is no room (the simulator still runs and gates).
    public var lifecycle: Rect
    public var keyboard: Rect

    public func rect(_ panel: PanelID) -> Rect {
        switch panel {
        case .monitor: monitor
        case .keyboard: keyboard
        case .synth: synth
        case .meters: meters
        case .lifecycle: lifecycle
        }
    }

    /// The panels on screen in reading order, left to right and top to bottom (by their top-left corners):
    /// the order Tab moves in. A panel without room (the lifecycle panel on a short terminal) is left out.
    public var tabOrder: [PanelID] {
        PanelID.allCases.filter { !rect($0).isEmpty }.sorted { a, b in
            let ra = rect(a), rb = rect(b)
            return (ra.y, ra.x) < (rb.y, rb.x)
        }
    }

    /// Tab order without a layout (below the minimum size): the screen's at the minimum size.
    public static let defaultTabOrder: [PanelID] = [.monitor, .meters, .synth, .lifecycle, .keyboard]

    /// nil below the minimum size.
    public static func compute(width: Int, height: Int) -> Layout? {
        guard width >= minWidth, height >= minHeight else { return nil }
        let header = Rect(x: 0, y: 0, width: width, height: 1)
        let status = Rect(x: 0, y: height - 1, width: width, height: 1)
        let keyboard = Rect(x: 0, y: height - 7, width: width, height: 6)
        let middleTop = 1, middleHeight = height - 1 - 1 - 6
        let rightWidth = min(64, max(38, width * 2 / 5))
        let monitor = Rect(x: 0, y: middleTop, width: width - rightWidth, height: middleHeight)
        let rightX = width - rightWidth
        let meters = Rect(x: rightX, y: middleTop, width: rightWidth, height: 6)
        let synthHeight = min(14, middleHeight - meters.height)
        let synth = Rect(x: rightX, y: meters.maxY, width: rightWidth, height: synthHeight)
        let rest = middleTop + middleHeight - synth.maxY
        let lifecycle = rest >= 3 ? Rect(x: rightX, y: synth.maxY, width: rightWidth, height: rest) : Rect(x: rightX, y: synth.maxY, width: 0, height: 0)
        return Layout(header: header, status: status, monitor: monitor, meters: meters, synth: synth, lifecycle: lifecycle, keyboard: keyboard)
    }

    /// The "terminal too small" screen: the message centred.
    public static func drawTooSmall(into grid: inout Grid) {
        let lines = ["terminal too small", "(need \(minWidth)x\(minHeight))"]
        let oneLine = "terminal too small (need \(minWidth)x\(minHeight))"
        grid.fill(Rect(x: 0, y: 0, width: grid.width, height: grid.height))
        if oneLine.count <= grid.width {
            grid.put((grid.width - oneLine.count) / 2, grid.height / 2, oneLine, .error)
        } else {
            for (i, line) in lines.enumerated() {
                grid.put(max(0, (grid.width - line.count) / 2), max(0, grid.height / 2 - 1 + i), line, .error)
            }
        }
    }
}

/// What every panel needs to draw itself.
public struct DrawContext: Sendable {
    public var glyphs: Glyphs
    public var focused: Bool
    public init(glyphs: Glyphs, focused: Bool) { self.glyphs = glyphs; self.focused = focused }

    func frame(_ grid: inout Grid, _ rect: Rect, _ title: String) {
        grid.fill(rect)
        grid.box(rect, title: title, glyphs: glyphs, role: focused ? .borderFocused : .border, titleRole: focused ? .borderFocused : .title)
    }
}

extension String {
    func fitted(_ width: Int) -> String {
        if width <= 0 { return "" }
        if count <= width { return self + String(repeating: " ", count: width - count) }
        return String(prefix(width))
    }
    func rightAligned(_ width: Int) -> String {
        count >= width ? String(suffix(width)) : String(repeating: " ", count: width - count) + self
    }
}

extension String {
    /// The words of this text that fit `width` cells whole: cut after the last whole word (and its trailing
    /// separators dropped), never inside a word or number; a single word longer than `width` is cut, as
    /// nothing shorter can say it.
    func fitWords(_ width: Int) -> String {
        if width <= 0 { return "" }
        if count <= width { return self }
        let head = prefix(width + 1)
        guard let space = head.lastIndex(of: " ") else { return String(prefix(width)) }
        var kept = String(head[..<space])
        while let last = kept.last, " ·,;:(".contains(last) { kept.removeLast() }
        return kept.isEmpty ? String(prefix(width)) : kept
    }

    /// The first of `forms` (longest first) that fits `width` whole; else the last one's words that fit.
    static func firstFitting(_ forms: [String], width: Int) -> String {
        forms.first { $0.count <= width } ?? (forms.last ?? "").fitWords(width)
    }
}
