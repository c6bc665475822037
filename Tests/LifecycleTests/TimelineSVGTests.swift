// The SVG drawing of a run: well-formed XML, the names as text, foreign strings escaped, labels packed.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Lifecycle

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
    #expect(text.contains("keeps the app alive"), "a legend")
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
