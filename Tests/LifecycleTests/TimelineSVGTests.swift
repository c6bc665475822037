// The SVG drawing of a run: well-formed XML, the names as text, foreign strings escaped, labels packed.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Lifecycle
import TextOutput

/// Parses `svg` with Foundation's XMLParser; returns the character data of every <text> element, or the
/// parser's error.
final class SVGTextCollector: NSObject, XMLParserDelegate {
    var texts: [String] = []
    var inText = false
    var elements: [String] = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(name)
        if name == "text" { inText = true; texts.append("") }
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { inText = false }
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { texts[texts.count - 1] += string }
    }

    static func parse(_ svg: String) throws -> SVGTextCollector {
        let collector = SVGTextCollector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        guard parser.parse() else {
            throw ScenarioError(file: "svg", line: parser.lineNumber, message: parser.parserError.map { "\($0)" } ?? "XML error")
        }
        return collector
    }
}

@Test("every bundled scenario draws as well-formed SVG with its states and streams named", arguments: bundledScenarios())
func bundledScenarioSVG(name: String) throws {
    let run = try Scenario.load(path: scenariosFolder.appendingPathComponent(name).path).run()
    let svg = TimelineSVG.render(run)
    let parsed = try SVGTextCollector.parse(svg)
    #expect(parsed.elements.first == "svg")
    let text = parsed.texts.joined(separator: "\n")
    for e in entries(run) { #expect(text.contains(e.state.rawValue), "state \(e.state.rawValue)") }
    for s in run.scenario.configuration.streams { #expect(text.contains(s.name), "stream \(s.name)") }
    for e in entries(run) {
        for w in e.warnings { #expect(text.contains(w.code.rawValue), "warning \(w.code.rawValue)") }
        for c in e.callbacks { #expect(text.contains(c), "callback \(c)") }
    }
    for step in run.scenario.steps { if let say = step.say { #expect(text.contains(say.split(separator: " ").first!), "narration") } }
    #expect(text.contains("stream runs") || text.contains("keeps the app alive"), "a legend of the lanes (only what is drawn: see labelsSitAtTheirEventsTime)")
}

@Test func foreignStringsAreEscapedAndForbiddenCharactersDropped() throws {
    let text = """
    title = "A <b>&</b> \\"talk\\" \\u0001 \\u001b[31m"
    lifecycle = "swiftui"
    [[streams]]
    name = "synth<&'>"
    kind = "audio-output"
    [[steps]]
    at = 0
    event = "launch"
    say = "tab\\there & <there>"
    """
    let run = try Scenario.parse(text, file: "x.toml").run()
    let svg = TimelineSVG.render(run)
    #expect(!svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    let parsed = try SVGTextCollector.parse(svg)
    let all = parsed.texts.joined(separator: "\n")
    #expect(all.contains("A <b>&</b> \"talk\""))
    #expect(all.contains("synth<&'>"))
    #expect(all.contains("tab here & <there>"), "the TOML tab becomes a space")
    #expect(XMLText.escape("a\u{0}b\u{FFFE}c\u{85}d") == "abcd")
    #expect(XMLText.escape("<&>\"'") == "&lt;&amp;&gt;&quot;&apos;")
}

@Test func labelsInATrackDoNotOverlap() {
    let labels = (0..<12).map { i in
        TimelineSVG.Label(time: Double(i) * 0.5, lines: [("event-\(i) with a long name", true, "#000")], size: 22)
    }
    let x: (Double) -> Double = { 260 + $0 * 100 }
    let placed = TimelineSVG.pack(labels, x: x, right: 1550)
    #expect(Set(placed.map(\.track)).count > 1, "close labels are stacked")
    for (i, a) in placed.enumerated() {
        for (j, b) in placed.enumerated() where j > i && a.track == b.track {
            let aEnd = a.left + labels[i].width, bEnd = b.left + labels[j].width
            #expect(aEnd <= b.left || bEnd <= a.left, "labels \(i) and \(j) overlap in track \(a.track)")
        }
        #expect(a.left + labels[i].width <= 1550 + 1)
    }
}

@Test func wrapKeepsLinesShort() {
    let lines = TimelineSVG.wrap("The user leaves while the video plays and Picture in Picture starts at once", 20)
    #expect(lines.allSatisfy { $0.count <= 20 })
    #expect(lines.joined(separator: " ") == "The user leaves while the video plays and Picture in Picture starts at once")
}

// Issue 27: an `until` of 1e19 s or more trapped (Double to Int) while drawing; 1.7e308 made the axis endless.
@Test("a timeline whose times pass what Int holds draws, with its ticks", arguments: ["1e19", "1e308", "1.7976931348623157e308"])
func hugeUntilDraws(until: String) throws {
    let text = "lifecycle = \"swiftui\"\nuntil = \(until)\n[[steps]]\nat = 0\nevent = \"launch\"\n"
    let svg = TimelineSVG.render(try Scenario.parse(text, file: "huge.toml").run())
    let texts = try SVGTextCollector.parse(svg).texts
    #expect(texts.contains("time (s)"))
    #expect(texts.contains("0"), "the axis starts at 0")
    #expect(!svg.contains("nan") && !svg.contains("inf"), "every coordinate is a number")
}

/// Every element of an SVG in document order, with its attributes and, for <text>, its characters.
final class SVGElements: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
        func number(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }
    }
    var elements: [Element] = []
    private var open: Int?
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(Element(name: name, attributes: attributes))
        if name == "text" { open = elements.count - 1 }
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { open = nil }
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let open { elements[open].text += string }
    }
    static func parse(_ svg: String) -> [Element] {
        let collector = SVGElements()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        _ = parser.parse()
        return collector.elements
    }
}

/// The time axis of a drawing, read from its tick labels: x of a time.
func axisScale(_ elements: [SVGElements.Element]) -> (Double) -> Double {
    let axisY = elements.first { $0.name == "text" && $0.text == "time (s)" }?.number("y")
    let ticks = elements.filter { $0.name == "text" && $0.number("y") == axisY && $0.attributes["text-anchor"] == "middle" }
        .compactMap { e in Double(e.text).map { ($0, e.number("x") ?? 0) } }
    guard let a = ticks.first, let b = ticks.last, b.0 > a.0 else { return { _ in .nan } }
    return { t in a.1 + (t - a.0) * (b.1 - a.1) / (b.0 - a.0) }
}

@Test("every event label and warning sits at its event's time, and the legend lists only what is drawn", arguments: bundledScenarios())
func labelsSitAtTheirEventsTime(name: String) throws {
    let run = try Scenario.load(path: scenariosFolder.appendingPathComponent(name).path).run()
    let elements = SVGElements.parse(TimelineSVG.render(run))
    let x = axisScale(elements)
    let texts = elements.filter { $0.name == "text" }
    // The label text touches its marker: starting 8 units right of the event's x, or ending 8 units left of it.
    func check(_ label: SVGElements.Element?, time: Double, offset: Double, what: String) {
        guard let label, let lx = label.number("x") else { Issue.record("no label for \(what) at \(time) s"); return }
        let ends = label.attributes["text-anchor"] == "end"
        let expected = x(time) + (ends ? -offset : offset)
        #expect(abs(lx - expected) < 0.11, "\(what) at \(time) s: label x \(lx), event x \(x(time)), \(ends ? "ending" : "starting") there")
    }
    var number = 0
    var used = Set<Int>()
    let events = texts.filter { $0.attributes["font-weight"] == "bold" && $0.attributes["stroke"] != nil && $0.attributes["fill"] == "#111111" }
    for e in entries(run) {
        guard let event = e.event else { continue }
        if e.narration != nil { number += 1 }
        let title = (e.narration != nil ? "\(number) · " : "") + event
        let i = events.indices.first { !used.contains($0) && (events[$0].text == title || events[$0].text.hasPrefix(title + " ")) }
        if let i { used.insert(i) }
        check(i.map { events[$0] }, time: e.time, offset: 8, what: title)
    }
    var usedWarnings = Set<Int>()
    let warningTexts = texts.indices.filter { texts[$0].attributes["fill"] == "#c0392b" && texts[$0].attributes["stroke"] != nil }
    for e in entries(run) {
        guard let first = e.warnings.first else { continue }
        let i = warningTexts.first { !usedWarnings.contains($0) && texts[$0].text == first.code.rawValue }
        if let i { usedWarnings.insert(i) }
        check(i.map { texts[$0] }, time: e.time, offset: 14, what: "warning \(first.code.rawValue)")
    }
    // No name is cut: the band's state names are whole or absent.
    for t in texts where t.text.hasSuffix("…") {
        #expect(!AppState.allCases.contains { $0.rawValue.hasPrefix(String(t.text.dropLast())) }, "cut state name \(t.text)")
    }
    // The legend: an item only for what the picture draws.
    let legend = Set(texts.map(\.text))
    func fills(_ colour: String) -> Int { elements.filter { $0.name == "rect" && $0.attributes["fill"] == colour }.count }
    for (colour, item) in [("#8fb8e8", "stream runs"), ("#6a1b9a", "keeps the app alive"), ("url(#paused)", "paused by the system")] {
        let drawn = fills(colour) - (legend.contains(item) ? 1 : 0)
        #expect(legend.contains(item) == (drawn > 0), "legend \(item): \(drawn) drawn")
    }
    let triangles = elements.filter { $0.name == "path" && $0.attributes["fill"] == "#c0392b" }.count
    #expect(legend.contains("▲ warning") == (triangles > 0))
    for state in AppState.allCases {
        #expect(legend.contains(state.rawValue) == entries(run).contains { $0.state == state } || state == .notRunning,
                "legend \(state.rawValue)")
    }
}

@Test func dittoLabelsAreAtTheirMarkersAndWhole() throws {
    let run = try Scenario.load(path: scenariosFolder.appendingPathComponent("ditto-background-sync.toml").path).run()
    let svg = TimelineSVG.render(run)
    #expect(!svg.contains("acti…"), "a state name is never cut")
    // Each event label's text touches the marker drawn for it (the circle right after its lines).
    let elements = SVGElements.parse(svg)
    var checked = 0
    var pending: [SVGElements.Element] = []
    for e in elements {
        if e.name == "text", e.attributes["stroke"] != nil, e.attributes["fill"] != "#c0392b" { pending.append(e) }
        if e.name == "circle", let cx = e.number("cx"), let first = pending.first, let lx = first.number("x") {
            let ends = first.attributes["text-anchor"] == "end"
            #expect(abs(lx - (ends ? cx - 8 : cx + 8)) < 0.11, "\(first.text): x \(lx), marker \(cx)")
            for line in pending { #expect(line.number("x") == lx && line.attributes["text-anchor"] == first.attributes["text-anchor"]) }
            checked += 1
            pending = []
        }
    }
    #expect(checked == entries(run).filter { $0.event != nil || !$0.callbacks.isEmpty }.count)
}
