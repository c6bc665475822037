import Foundation
import Testing
@testable import TUI

/// The help overlay (`InputMap.help`) and docs/keys.md (hence the man page, made from it) against the input
/// map itself: every key they name does something where they say, and a row naming pairs of keys for "X / Y"
/// pairs them the way the map does (`[ ]` for "velocity up / down" was wrong: `[` lowers it).
@Suite struct KeyTableTests {
    /// A key as the tables spell it; nil for words that are not keys ("mouse", "reverb").
    static func key(_ name: String) -> Key? {
        switch name {
        case "Up": .up
        case "Down": .down
        case "Left": .left
        case "Right": .right
        case "Shift-Left": .shiftLeft
        case "Shift-Right": .shiftRight
        case "PgUp": .pageUp
        case "PgDn": .pageDown
        case "Home": .home
        case "End": .end
        case "Tab": .tab
        case "Shift-Tab": .backTab
        case "Esc": .escape
        case "Enter": .enter
        case "Backspace": .backspace
        case "Space": .char(" ")
        case "F1": .function(1)
        case "F10": .function(10)
        default: name.count == 1 ? .char(name.first!) : nil
        }
    }

    /// Where a section of a table is: the focus and mode its keys act in; nil for a section of no keys.
    static func place(_ section: String) -> (PanelID, Bool)? {
        let s = section.lowercased()
        if s.hasPrefix("everywhere") { return (.meters, false) }
        if s.hasPrefix("play mode") { return (.keyboard, true) }
        if s.hasPrefix("midi monitor") { return (.monitor, false) }
        if s.hasPrefix("synth") { return (.synth, false) }
        if s.hasPrefix("keyboard") { return (.keyboard, false) }
        if s.hasPrefix("lifecycle") { return (.lifecycle, false) }
        return nil
    }

    /// What is wrong with one row: (section, groups of keys, description).
    static func problems(_ section: String, _ groups: [[String]], _ what: String) -> [String] {
        guard let (focus, play) = place(section) else { return [] }
        var out: [String] = []
        func command(_ k: Key) -> Command? { InputMap.command(for: k, focus: focus, playMode: play) }
        let keys = groups.map { $0.compactMap(key) }
        for (name, k) in groups.joined().compactMap({ n in key(n).map { (n, $0) } }) {
            switch command(k) {
            case nil, .unbound?: out.append("\(section): '\(name)' does nothing there (\(what))")
            default: break
            }
        }
        // Pairs: groups of two keys with different commands must agree on which is which.
        let pairs = keys.filter { $0.count == 2 }.map { (command($0[0]), command($0[1])) }.filter { $0.0 != $0.1 }
        if what.contains(" / "), let first = pairs.first, pairs.contains(where: { $0.0 != first.0 || $0.1 != first.1 }) {
            out.append("\(section): the pairs \(groups) of '\(what)' disagree")
        }
        return out
    }

    @Test func theHelpOverlayAgreesWithTheInputMap() {
        var found: [String] = []
        for (section, rows) in InputMap.help {
            for (keys, what) in rows {
                let groups = keys.components(separatedBy: "  ").map { $0.split(separator: " ").map(String.init) }.filter { !$0.isEmpty }
                found += Self.problems(section, groups, what)
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func docsKeysAgreesWithTheInputMap() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/keys.md"), encoding: .utf8)
        var section = "", found: [String] = [], rows = 0
        for line in text.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| Where") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            if !cells[1].isEmpty { section = cells[1] }
            let groups = cells[2].components(separatedBy: " / ").map { group in
                group.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.flatMap { $0.element.split(separator: " ").map(String.init) }
            }
            found += Self.problems(section, groups, cells[3])
            rows += 1
        }
        #expect(rows > 40, "the key table was read")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
