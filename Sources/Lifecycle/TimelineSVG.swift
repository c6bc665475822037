// A scenario run drawn as SVG, for slides: the state as a coloured band, one lane per stream, events and
// callbacks as labelled ticks, warnings as markers, narration as numbered captions. Pure Swift text output;
// every foreign string (titles, stream names, narration) goes through `XMLText.escape`.
import TextOutput

/// Draws a `ScenarioRun` as a standalone SVG document.
public enum TimelineSVG {
    // Layout, in SVG user units (the drawing scales; these proportions read well projected at 16:9).
    static let width = 1600.0
    static let gutter = 260.0
    static let rightMargin = 50.0
    static let eventFont = 22.0
    static let laneHeight = 46.0
    static let laneGap = 12.0
    static let bandHeight = 64.0
    static let ink = "#111111"
    static let faint = "#6b6b6b"
    static let font = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

    /// The fill and text colour of each state (white text on dark fills, black on light ones).
    static func colours(_ state: AppState) -> (fill: String, text: String) {
        switch state {
        case .notRunning: ("#d9d9d9", ink)
        case .inactive: ("#f2b705", ink)
        case .active: ("#1b7f3b", "#ffffff")
        case .background: ("#1f5fbf", "#ffffff")
        case .suspended: ("#5a5a5a", "#ffffff")
        case .terminated: ("#b3261e", "#ffffff")
        }
    }
    static let runsColour = "#8fb8e8"
    static let aliveColour = "#6a1b9a"
    static let pausedColour = "#d9534f"
    static let warningColour = "#c0392b"

    /// The SVG document for `run`.
    public static func render(_ run: ScenarioRun) -> String {
        var d = Drawing(run: run)
        return d.draw()
    }

    /// Width of `text` at `size`, estimated (DejaVu Sans averages a little under 0.6 em per character).
    static func textWidth(_ text: String, _ size: Double, bold: Bool = false) -> Double {
        Double(text.count) * size * (bold ? 0.64 : 0.6)
    }

    /// `text` cut to `limit` characters with an ellipsis.
    static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(max(1, limit - 1))) + "…"
    }

    /// Words of `text` in lines of at most `limit` characters (a longer word is cut).
    static func wrap(_ text: String, _ limit: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ").map({ clip(String($0), limit) }) {
            if current.isEmpty { current = word } else if current.count + 1 + word.count <= limit { current += " " + word } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.isEmpty ? [""] : lines
    }

    /// A label of one or more lines placed at a time: its first line is `title` (bold).
    struct Label {
        var time: Double
        var lines: [(text: String, bold: Bool, colour: String)]
        var size: Double
        var width: Double {
            lines.map { TimelineSVG.textWidth($0.text, $0.bold ? size : size * 0.87, bold: $0.bold) }.max() ?? 0
        }
        var height: Double { Double(lines.count) * size * 1.2 }
    }

    /// Where a label's text is anchored: `offset` units right of its event's x, starting there, or (when it
    /// would run past the plot) `offset` units left of it, ending there (SVG's text-anchor "end"), so that
    /// the text touches its marker whatever the font's real widths.
    struct Placement {
        var track: Int
        /// The estimated left edge (for packing only).
        var left: Double
        /// The text's x, and whether the text ends there instead of starting there.
        var x: Double
        var endsAtX: Bool
    }

    /// Labels stacked in tracks so that none overlaps another in its track: each goes in the first track
    /// whose last label ends before it starts. Each label is anchored at its event's time.
    static func pack(_ labels: [Label], x: (Double) -> Double, right: Double, gap: Double = 14, offset: Double = 8) -> [Placement] {
        var ends: [Double] = []
        var out: [Placement] = []
        for label in labels {
            let anchor = x(label.time)
            let flip = anchor + offset + label.width > right
            let left = flip ? anchor - offset - label.width : anchor + offset
            let track = ends.firstIndex { $0 + gap <= left } ?? ends.count
            if track == ends.count { ends.append(-Double.infinity) }
            ends[track] = left + label.width
            out.append(Placement(track: track, left: left, x: flip ? anchor - offset : anchor + offset, endsAtX: flip))
        }
        return out
    }
}

/// One drawing in progress: the scale, the y cursor and the SVG text.
private struct Drawing {
    let run: ScenarioRun
    let entries: [TimelineEntry]
    let end: Double
    var y = 0.0
    var body = ""
    /// Vertical guides behind everything, drawn once the chart's height is known.
    var guides: [Double] = []

    typealias S = TimelineSVG

    init(run: ScenarioRun) {
        self.run = run
        entries = run.lines.compactMap { if case .entry(let e) = $0 { e } else { nil } }
        let times = run.lines.map { line -> Double in
            switch line { case .entry(let e): e.time; case .expectation(let x): x.time }
        } + [run.scenario.until ?? 0]
        let last = times.max() ?? 0
        // Any finite time can be drawn (a scenario's times are finite, checked when it is read); the margin
        // after the last one must not overflow to infinity, which would make every x a NaN.
        end = last <= 0 ? 10 : min(last + max(2, last * 0.06), .greatestFiniteMagnitude)
    }

    var plotLeft: Double { S.gutter }
    var plotRight: Double { S.width - S.rightMargin }
    /// The fraction of the time axis first, so a time near Double's limit never overflows on the way.
    func x(_ t: Double) -> Double { plotLeft + (plotRight - plotLeft) * (min(max(t, 0), end) / end) }

    /// A coordinate or time to one decimal, written as an integer when it is one; a value beyond what `Int`
    /// holds exactly (a time of 1e19 s) keeps Double's own spelling, never a trapping conversion.
    static func n(_ v: Double) -> String {
        guard abs(v) < 1e15 else { return String(v.rounded()) }  // no tenths to keep, and `v * 10` could overflow
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    mutating func text(_ s: String, x: Double, y: Double, size: Double, bold: Bool = false, colour: String = S.ink,
                       anchor: String = "start", halo: Bool = false) {
        var attributes = "x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" font-size=\"\(Self.n(size))\" fill=\"\(colour)\""
        if bold { attributes += " font-weight=\"bold\"" }
        if anchor != "start" { attributes += " text-anchor=\"\(anchor)\"" }
        if halo { attributes += " stroke=\"#ffffff\" stroke-width=\"6\" stroke-linejoin=\"round\" paint-order=\"stroke\"" }
        body += "<text \(attributes)>\(XMLText.escape(s))</text>\n"
    }

    mutating func rect(x: Double, y: Double, w: Double, h: Double, fill: String, extra: String = "") {
        body += "<rect x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" width=\"\(Self.n(max(w, 0)))\" height=\"\(Self.n(h))\" fill=\"\(fill)\"\(extra.isEmpty ? "" : " " + extra)/>\n"
    }

    /// The state in force over [from, to), one segment per timeline entry.
    func segments() -> [(from: Double, to: Double, entry: TimelineEntry?)] {
        var out: [(Double, Double, TimelineEntry?)] = []
        var from = 0.0
        var current: TimelineEntry?
        for e in entries {
            if e.time > from { out.append((from, e.time, current)) }
            from = max(from, e.time)
            current = e
        }
        out.append((from, end, current))
        return out
    }

    mutating func draw() -> String {
        let scenario = run.scenario
        let c = scenario.configuration
        y = 52
        text(S.clip(scenario.title, 70), x: 30, y: y, size: 34, bold: true)
        y += 38
        let modes = c.backgroundModes.isEmpty ? "none" : c.backgroundModes.map(\.rawValue).joined(separator: ", ")
        let subtitle = "lifecycle \(c.style.rawValue)" + (c.appDelegateAdaptor ? " with an app delegate adaptor" : "")
            + " · background modes: \(modes) · session \(c.category.rawValue)"
            + (c.mixesWithOthers ? ", mixes with others" : "") + " · iOS \(c.iOSVersion)"
        for line in S.wrap(subtitle, 110) {
            text(line, x: 30, y: y, size: 22, colour: S.faint)
            y += 30
        }
        legend()
        events()
        stateBand()
        lanes()
        warnings()
        axis()
        captions()
        let height = y + 30
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.n(S.width))\" height=\"\(Self.n(height))\" "
        out += "viewBox=\"0 0 \(Self.n(S.width)) \(Self.n(height))\" font-family=\"\(S.font)\">\n"
        out += "<title>\(XMLText.escape(scenario.title))</title>\n"
        out += "<defs><pattern id=\"paused\" width=\"12\" height=\"12\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        out += "<rect width=\"12\" height=\"12\" fill=\"#fbe3e2\"/><rect width=\"5\" height=\"12\" fill=\"\(S.pausedColour)\"/></pattern></defs>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        for g in guides { out += "<line x1=\"\(Self.n(g))\" y1=\"\(Self.n(guideTop))\" x2=\"\(Self.n(g))\" y2=\"\(Self.n(guideBottom))\" stroke=\"#9a9a9a\" stroke-width=\"1.5\" stroke-dasharray=\"4 5\"/>\n" }
        return out + body + "</svg>\n"
    }

    var guideTop = 0.0
    var guideBottom = 0.0

    mutating func legend() {
        let shown = Set(bandSegments().map(\.state))
        var items: [(String, String)] = AppState.allCases.filter(shown.contains).map { (S.colours($0).fill, $0.rawValue) }
        let looks = Set(laneNames().flatMap { laneRuns($0).map(\.look) })
        if looks.contains(.runs) { items.append((S.runsColour, "stream runs")) }
        if looks.contains(.alive) { items.append((S.aliveColour, "keeps the app alive")) }
        if looks.contains(.paused) { items.append(("url(#paused)", "paused by the system")) }
        if entries.contains(where: { !$0.warnings.isEmpty }) { items.append((S.warningColour, "▲ warning")) }
        var x = 30.0
        y += 8
        for (fill, name) in items {
            let w = 28 + 10 + S.textWidth(name, 20) + 26
            if x + w > S.width - 30 { x = 30; y += 36 }
            if name.hasPrefix("▲") {
                text(name, x: x, y: y + 21, size: 20, colour: fill)
            } else {
                rect(x: x, y: y + 2, w: 28, h: 24, fill: fill, extra: "stroke=\"#333333\" stroke-width=\"1\"")
                text(name, x: x + 38, y: y + 21, size: 20)
            }
            x += w
        }
        y += 52
    }

    /// Event and callback labels above the state band, stacked in tracks; the guides run down from them.
    mutating func events() {
        var labels: [TimelineSVG.Label] = []
        var steps = 0
        for e in entries {
            var lines: [(String, Bool, String)] = []
            if let event = e.event {
                var title = event
                if e.narration != nil { steps += 1; title = "\(steps) · " + title }
                if let d = e.delivered { title += d ? " ✓" : " ✗ lost" }
                lines.append((S.clip(title, 34), true, S.ink))
            }
            lines += e.callbacks.map { (S.clip($0, 36), false, "#3a3a3a") }
            if let u = e.unknownRule { lines.append((S.clip(u, 36), false, S.warningColour)) }
            if lines.isEmpty { continue }
            labels.append(.init(time: e.time, lines: lines, size: S.eventFont))
        }
        let placed = S.pack(labels, x: x, right: plotRight)
        let tracks = (placed.map(\.track).max() ?? -1) + 1
        var heights = [Double](repeating: 0, count: tracks)
        for (label, p) in zip(labels, placed) { heights[p.track] = max(heights[p.track], label.height) }
        // Track 0 sits just above the band; higher tracks above it.
        var bottoms = [Double](repeating: 0, count: tracks)
        let top = y
        var cursor = top + heights.reduce(0) { $0 + $1 + 12 }
        for t in 0..<tracks { bottoms[t] = cursor; cursor -= heights[t] + 12 }
        guideTop = top
        for (label, p) in zip(labels, placed) {
            let ax = x(label.time)
            guides.append(ax)
            var ly = bottoms[p.track] - label.height + label.size
            for line in label.lines {
                let size = line.bold ? label.size : label.size * 0.87
                text(line.text, x: p.x, y: ly, size: size, bold: line.bold, colour: line.colour, anchor: p.endsAtX ? "end" : "start", halo: true)
                ly += label.size * 1.2
            }
            body += "<circle cx=\"\(Self.n(ax))\" cy=\"\(Self.n(bottoms[p.track] + 4))\" r=\"4\" fill=\"\(S.ink)\"/>\n"
        }
        y = top + heights.reduce(0) { $0 + $1 + 12 } + 12
    }

    /// The state band's segments: runs of the same state merged, empty ones dropped.
    func bandSegments() -> [(from: Double, to: Double, state: AppState)] {
        var out: [(from: Double, to: Double, state: AppState)] = []
        for seg in segments() where seg.to > seg.from {
            let state = seg.entry?.state ?? .notRunning
            if let last = out.last, last.state == state { out[out.count - 1].to = seg.to } else { out.append((seg.from, seg.to, state)) }
        }
        return out
    }

    mutating func stateBand() {
        text("state", x: 30, y: y + S.bandHeight / 2 + 9, size: 26, bold: true)
        for seg in bandSegments() {
            let state = seg.state
            let (fill, ink) = S.colours(state)
            let x0 = x(seg.from), x1 = x(seg.to)
            rect(x: x0, y: y, w: x1 - x0, h: S.bandHeight, fill: fill)
            let name = state.rawValue
            let room = x1 - x0 - 12
            // The whole name at the largest size that fits, or none (the legend names the colour): never cut.
            if let size = [24.0, 20, 16, 13].first(where: { S.textWidth(name, $0, bold: true) <= room }) {
                text(name, x: (x0 + x1) / 2, y: y + S.bandHeight / 2 + size * 0.37, size: size, bold: true, colour: ink, anchor: "middle")
            }
        }
        rect(x: plotLeft, y: y, w: plotRight - plotLeft, h: S.bandHeight, fill: "none", extra: "stroke=\"#222222\" stroke-width=\"1.5\"")
        y += S.bandHeight + 22
    }

    /// One lane per stream: light when it runs, strong green while it keeps the app alive, hatched red while
    /// the system holds it paused.
    func laneNames() -> [String] {
        run.scenario.configuration.streams.map(\.name)
            + (entries.last?.streams.map(\.name) ?? []).filter { n in !run.scenario.configuration.streams.contains { $0.name == n } }
    }

    enum Look: Equatable, Hashable { case none, runs, alive, paused }

    /// What a stream's lane shows over each segment, runs of the same look merged.
    func laneRuns(_ name: String) -> [(from: Double, to: Double, look: Look)] {
        var runs: [(from: Double, to: Double, look: Look)] = []
        for seg in segments() where seg.to > seg.from {
            var look = Look.none
            if let e = seg.entry, let s = e.streams.first(where: { $0.name == name }) {
                if e.aliveBy.contains(name) { look = .alive } else if s.isRunning { look = .runs } else if s.pausedBy != nil && e.state != .terminated { look = .paused }
            }
            if let last = runs.last, last.look == look, last.to == seg.from { runs[runs.count - 1].to = seg.to } else { runs.append((seg.from, seg.to, look)) }
        }
        return runs
    }

    mutating func lanes() {
        for name in laneNames() {
            let kind = entries.compactMap { $0.streams.first { $0.name == name }?.kind }.first
            text(S.clip(name, 15), x: 30, y: y + 24, size: 24, bold: true)
            if let kind { text(kind.rawValue, x: 30, y: y + 45, size: 16, colour: S.faint) }
            rect(x: plotLeft, y: y, w: plotRight - plotLeft, h: S.laneHeight, fill: "#f3f3f3")
            for run in laneRuns(name) {
                let x0 = x(run.from), w = x(run.to) - x0
                switch run.look {
                case .none: break
                case .alive:
                    rect(x: x0, y: y + 2, w: w, h: S.laneHeight - 4, fill: S.aliveColour)
                    if w > 170 { text("keeps alive", x: x0 + 10, y: y + 30, size: 19, bold: true, colour: "#ffffff") }
                case .runs:
                    rect(x: x0, y: y + 10, w: w, h: S.laneHeight - 20, fill: S.runsColour)
                case .paused:
                    rect(x: x0, y: y + 10, w: w, h: S.laneHeight - 20, fill: "url(#paused)")
                    if w > 120 { text("paused", x: x0 + 8, y: y + 30, size: 18, bold: true, colour: S.pausedColour, halo: true) }
                }
            }
            y += S.laneHeight + S.laneGap
        }
    }

    /// Warning markers: a triangle at the time, the codes beside it, stacked in tracks.
    mutating func warnings() {
        let raised = entries.filter { !$0.warnings.isEmpty }
        y += 6
        guideBottom = y
        guard !raised.isEmpty else {
            text("warnings", x: 30, y: y + 24, size: 24, bold: true)
            text("none", x: plotLeft + 8, y: y + 24, size: 20, colour: S.faint)
            y += 44
            return
        }
        let labels = raised.map { e in
            TimelineSVG.Label(time: e.time, lines: e.warnings.map { (S.clip($0.code.rawValue, 30), true, S.warningColour) }, size: 21)
        }
        // Beside the triangle (9 units each side of the time), anchored at the warning's time.
        let placed = S.pack(labels, x: x, right: plotRight, offset: 14)
        let tracks = (placed.map(\.track).max() ?? 0) + 1
        var heights = [Double](repeating: 0, count: tracks)
        for (label, p) in zip(labels, placed) { heights[p.track] = max(heights[p.track], label.height) }
        text("warnings", x: 30, y: y + 24, size: 24, bold: true)
        var tops = [Double](repeating: 0, count: tracks)
        var cursor = y
        for t in 0..<tracks { tops[t] = cursor; cursor += heights[t] + 10 }
        for (label, p) in zip(labels, placed) {
            let ax = x(label.time)
            body += "<line x1=\"\(Self.n(ax))\" y1=\"\(Self.n(y - 6))\" x2=\"\(Self.n(ax))\" y2=\"\(Self.n(tops[p.track] + 10))\" stroke=\"\(S.warningColour)\" stroke-width=\"2\"/>\n"
            let ty = tops[p.track]
            body += "<path d=\"M \(Self.n(ax - 9)) \(Self.n(ty + 18)) L \(Self.n(ax + 9)) \(Self.n(ty + 18)) L \(Self.n(ax)) \(Self.n(ty + 2)) Z\" fill=\"\(S.warningColour)\"/>\n"
            var ly = ty + label.size
            for line in label.lines {
                text(line.text, x: p.x, y: ly, size: label.size, bold: true, colour: line.colour, anchor: p.endsAtX ? "end" : "start", halo: true)
                ly += label.size * 1.2
            }
        }
        y = cursor + 4
    }

    /// The time axis, in seconds, with a tick every 1, 2, 5, 10, 20, 30, 60... seconds.
    mutating func axis() {
        body += "<line x1=\"\(Self.n(plotLeft))\" y1=\"\(Self.n(y))\" x2=\"\(Self.n(plotRight))\" y2=\"\(Self.n(y))\" stroke=\"\(S.ink)\" stroke-width=\"2\"/>\n"
        let step = [1.0, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 1200, 3600].first { end / $0 <= 12 } ?? (end / 10).rounded(.up)
        // Ticks counted, not summed: at times near Double's limit `t += step` can stop moving or overshoot.
        for i in 0...13 {
            let t = Double(i) * step
            guard t <= end else { break }
            let ax = x(t)
            body += "<line x1=\"\(Self.n(ax))\" y1=\"\(Self.n(y))\" x2=\"\(Self.n(ax))\" y2=\"\(Self.n(y + 10))\" stroke=\"\(S.ink)\" stroke-width=\"2\"/>\n"
            text(Self.n(t), x: ax, y: y + 34, size: 20, anchor: "middle")
        }
        text("time (s)", x: 30, y: y + 34, size: 22, bold: true)
        y += 60
    }

    /// Narration, numbered as the event labels are, and what time alone changed (a suspension, an expiry,
    /// the end of a wake) or what ended the process, with the simulator's reason.
    mutating func captions() {
        var number = 0
        var previous: TimelineEntry?
        for e in entries {
            var lead: String?
            var lines: [(String, String)] = []
            if let say = e.narration, e.event != nil {
                number += 1
                lead = "\(number) · \(TimelineFormat.number(e.time)) s"
                lines += S.wrap(say, 92).map { ($0, S.ink) }
            }
            if let reason = e.reason, e.event == nil || e.state == .terminated {
                lines += S.wrap("→ \(e.state.rawValue): \(reason)", 92).map { ($0, S.faint) }
            }
            // Streams the system paused at this moment, and why.
            let before = previous?.streams ?? []
            for s in e.streams where e.state != .terminated {
                guard let why = s.pausedBy, before.first(where: { $0.name == s.name })?.pausedBy != why else { continue }
                lines += S.wrap("→ \(s.name) paused: \(why)", 92).map { ($0, S.warningColour) }
            }
            previous = e
            if lead == nil && !lines.isEmpty { lead = "\(TimelineFormat.number(e.time)) s" }
            guard let lead else { continue }
            for (i, line) in lines.enumerated() {
                if i == 0 { text(lead, x: 30, y: y + 24, size: 22, bold: true, colour: line.1) }
                text(line.0, x: plotLeft, y: y + 24, size: 22, colour: line.1)
                y += 30
            }
            y += 4
        }
    }
}
