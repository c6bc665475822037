import Foundation
import MIDI
import TextOutput

/// One preset of the font, as the browser lists it.
public struct PresetEntry: Equatable, Sendable {
    /// Index into the font's presets (what `WorkstationEngine.choosePreset` takes).
    public var index: Int
    public var bank: Int
    public var program: Int
    public var name: String
    /// An SFZ instrument file the browser offers (`instrument_dir`), loaded on the channel when chosen; nil for
    /// a preset of the font.
    public var file: String?
    public init(index: Int, bank: Int, program: Int, name: String, file: String? = nil) {
        self.index = index; self.bank = bank; self.program = program; self.name = name; self.file = file
    }
    /// "000:005 Electric Piano 2": as the synth panel and the monitor write it; "    SFZ piano.sfz" for a file.
    public var label: String {
        (file == nil ? String(format: "%03d:%03d ", bank, program) : "    SFZ ") + TerminalText.sanitized(name)
    }
}

/// The SoundFont preset browser (Enter on the synth panel's preset row, or `/`): every preset of the font by
/// bank, program and name. Typing filters: letters search the names (case-insensitive, anywhere in the
/// name), a number finds that program in every bank, "bank:program" (e.g. `128:0`, `8:4`) one preset.
/// Up/Down and PgUp/PgDn move, Enter plays the preset on the keyboard's channel, Esc closes.
public struct PresetBrowser: Equatable, Sendable {
    public let presets: [PresetEntry]
    public private(set) var query = ""
    /// Indexes into `presets` that match the query, in font order (bank, program).
    public private(set) var matches: [Int]
    /// Position in `matches`.
    public private(set) var selected = 0

    /// `current`: the preset playing on the keyboard's channel, selected at first.
    public init(presets: [PresetEntry], current: Int?) {
        self.presets = presets
        matches = Array(presets.indices)
        if let current, let i = presets.firstIndex(where: { $0.index == current }) { selected = i }
    }

    /// The preset under the cursor.
    public var chosen: PresetEntry? { matches.indices.contains(selected) ? presets[matches[selected]] : nil }

    public mutating func type(_ c: Character) {
        guard c.unicodeScalars.allSatisfy(TerminalText.isPrintable), query.count < 60 else { return }
        query.append(c)
        refilter()
    }

    public mutating func erase() {
        guard !query.isEmpty else { return }
        query.removeLast()
        refilter()
    }

    public mutating func move(_ d: Int) {
        guard !matches.isEmpty else { return }
        selected = min(matches.count - 1, max(0, selected + d))
    }

    private mutating func refilter() {
        let keep = chosen?.index
        matches = presets.indices.filter { Self.accepts(presets[$0], query) }
        selected = keep.flatMap { k in matches.firstIndex { presets[$0].index == k } } ?? 0
        if Self.isNumber(query) { selected = 0 }
    }

    static func isNumber(_ q: String) -> Bool {
        let t = q.trimmingCharacters(in: .whitespaces)
        return !t.isEmpty && t.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ":") }
    }

    /// Whether `p` answers the query: "N" its program, "B:P" its bank and program (either may be empty:
    /// "128:" a bank), else words found in its name.
    static func accepts(_ p: PresetEntry, _ query: String) -> Bool {
        let q = query.trimmingCharacters(in: .whitespaces)
        if q.isEmpty { return true }
        if isNumber(q) {
            let parts = q.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 1 { return Int(parts[0]) == p.program }
            guard parts.count == 2 else { return false }
            let bankOK = parts[0].isEmpty || Int(parts[0]) == p.bank
            let programOK = parts[1].isEmpty || Int(parts[1]) == p.program
            return bankOK && programOK
        }
        let name = p.name.lowercased()
        return q.lowercased().split(separator: " ").allSatisfy { name.contains($0) }
    }

    /// A box over the middle of the screen: the query, then the matching presets around the selection.
    public func draw(into grid: inout Grid, font: String, glyphs: Glyphs) {
        let width = min(grid.width - 2, 64)
        let height = min(grid.height - 2, max(8, min(24, matches.count + 4)))
        let rect = Rect(x: (grid.width - width) / 2, y: (grid.height - height) / 2, width: width, height: height)
        grid.fill(rect, " ", .help)
        grid.box(rect, title: "Presets: \(TerminalText.sanitized(font))", glyphs: glyphs, role: .borderFocused, titleRole: .borderFocused)
        let inner = rect.inset(1)
        guard inner.height >= 3 else { return }
        let prompt = "find: \(query)_"
        let count = "\(matches.count) of \(presets.count)"
        grid.put(inner.x + 1, inner.y, prompt, .title, limit: inner.width - count.count - 3)
        grid.put(inner.maxX - count.count - 1, inner.y, count, .dim)
        let listHeight = inner.height - 2
        let hint = String.firstFitting(["type a name, N (program) or B:P (bank:program); Up Down move; Enter plays; Esc closes",
                                        "name, N program, B:P; Up Down; Enter plays; Esc", "name, N, B:P; Enter plays; Esc",
                                        "Enter plays; Esc"], width: inner.width - 1)
        grid.put(inner.x + 1, inner.maxY - 1, hint, .dim, limit: inner.width - 1)
        if matches.isEmpty {
            grid.put(inner.x + 1, inner.y + 1, "no preset matches \"\(query)\" (Backspace erases)", .error, limit: inner.width - 1)
            return
        }
        let first = max(0, min(selected - listHeight / 2, matches.count - listHeight))
        for (row, m) in matches.enumerated().dropFirst(first).prefix(listHeight) {
            let isSelected = row == selected
            let marker = isSelected ? String(glyphs.selection) : " "
            grid.put(inner.x, inner.y + 1 + row - first, (marker + " " + presets[m].label).fitted(inner.width), isSelected ? .selected : .help)
        }
    }
}
