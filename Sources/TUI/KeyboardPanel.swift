import Foundation

/// The piano strip: as many octaves as fit (at least two at the minimum size), the computer keyboard's two
/// octaves centred, held notes lit by velocity, key letters on the keys they play.
public enum KeyboardPanel {
    static let whiteSemitones = [0, 2, 4, 5, 7, 9, 11]
    static let whiteKeyWidth = 3

    /// The note of white key number `index` (0 is note 0, C-1).
    static func whiteNote(_ index: Int) -> Int { index / 7 * 12 + whiteSemitones[index % 7] }
    static func whiteIndex(ofC note: Int) -> Int { note / 12 * 7 }
    static let whiteKeyCount = 75  // notes 0...127

    /// The first white key shown, so the playable range is centred.
    public static func firstWhiteKey(width: Int, octave: Int) -> Int {
        let count = width / whiteKeyWidth
        let playStart = whiteIndex(ofC: (octave + 1) * 12)
        let start = playStart - max(0, (count - 14) / 2)
        return max(0, min(start, whiteKeyCount - count))
    }

    /// The note under a click at (x, y), if any.
    public static func note(atX x: Int, y: Int, rect: Rect, octave: Int) -> UInt8? {
        let inner = rect.inset(1)
        guard inner.contains(x: x, y: y), y < inner.y + 3 else { return nil }
        let first = firstWhiteKey(width: inner.width, octave: octave)
        let column = x - inner.x
        let white = first + column / whiteKeyWidth
        guard white < whiteKeyCount else { return nil }
        if y < inner.y + 2 {
            // Black keys sit over the boundary: the last column of a white key and the first of the next.
            let within = column % whiteKeyWidth
            let semitone = whiteSemitones[white % 7]
            if within == whiteKeyWidth - 1, [0, 2, 5, 7, 9].contains(semitone) { return UInt8(min(127, whiteNote(white) + 1)) }
            if within == 0, column >= whiteKeyWidth, [2, 4, 7, 9, 11].contains(semitone) { return UInt8(whiteNote(white) - 1) }
        }
        let n = whiteNote(white)
        return n <= 127 ? UInt8(n) : nil
    }

    static func heldRole(_ velocity: UInt8) -> Role { velocity >= 96 ? .noteOnLoud : velocity >= 48 ? .noteOnMedium : .noteOnSoft }
    static func heldGlyph(_ velocity: UInt8, _ glyphs: Glyphs) -> Unicode.Scalar {
        if glyphs.isASCII { return velocity >= 96 ? "#" : velocity >= 48 ? ":" : "." }
        return velocity >= 96 ? "█" : velocity >= 48 ? "▓" : "▒"
    }

    public static func draw(held: HeldNotes, keyboard: ComputerKeyboard, playMode: Bool, into grid: inout Grid, rect: Rect, context: DrawContext) {
        context.frame(&grid, rect, PanelID.keyboard.title + (playMode ? " — PLAY: letters play notes, Esc leaves" : ""))
        let inner = rect.inset(1)
        guard inner.height >= 4, inner.width >= whiteKeyWidth * 14 else { return }
        let first = firstWhiteKey(width: inner.width, octave: keyboard.octave)
        let count = min(inner.width / whiteKeyWidth, whiteKeyCount - first)
        var letters: [Int: Character] = [:]
        for key in ComputerKeyboard.lowerRow + ComputerKeyboard.upperRow {
            if let n = keyboard.note(for: key) { letters[Int(n)] = key }
        }
        for k in 0..<count {
            let white = first + k
            let note = whiteNote(white)
            let x = inner.x + k * whiteKeyWidth
            let v = held.velocity(of: note)
            for row in 0..<3 {
                for c in 0..<whiteKeyWidth {
                    let y = inner.y + row
                    if v > 0 { grid.set(x + c, y, heldGlyph(v, context.glyphs), heldRole(v)) }
                    else { grid.set(x + c, y, " ", .whiteKey) }
                }
            }
            // Separator between white keys on the bottom row.
            if v == 0 { grid.set(x + whiteKeyWidth - 1, inner.y + 2, context.glyphs.vertical, .whiteKey) }
            let label: String? = letters[note].map { String($0) } ?? (note % 12 == 0 ? "C\(note / 12 - 1)" : nil)
            if let label { grid.put(x, inner.y + 2, label, v > 0 ? heldRole(v) : .whiteKey, limit: whiteKeyWidth - 1) }
        }
        // Black keys over the white ones, on the top two rows.
        for k in 0..<count {
            let white = first + k
            let note = whiteNote(white)
            guard [0, 2, 5, 7, 9].contains(note % 12), note + 1 <= 127 else { continue }
            let x = inner.x + k * whiteKeyWidth + whiteKeyWidth - 1
            let v = held.velocity(of: note + 1)
            for row in 0..<2 {
                for c in 0..<2 where x + c < inner.x + count * whiteKeyWidth {
                    if v > 0 { grid.set(x + c, inner.y + row, heldGlyph(v, context.glyphs), heldRole(v)) }
                    else { grid.put(x + c, inner.y + row, row == 1 && c == 0 ? (letters[note + 1].map { String($0) } ?? " ") : " ", .blackKey) }
                }
            }
        }
        let info = "octave \(keyboard.octave) (z = C\(keyboard.octave)) · velocity \(keyboard.velocity) · gate \(String(format: "%.2f", keyboard.gate)) s · hold \(keyboard.hold ? "on" : "off") · \(held.heldCount) held"
        grid.put(inner.x, inner.y + 3, info, .normal, limit: inner.width)
    }
}
