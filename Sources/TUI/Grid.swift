import MIDI
import TextOutput

/// A rectangle of cells: panels draw into one, the curses driver writes the cells that changed.
public struct Rect: Equatable, Sendable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = max(0, width); self.height = max(0, height)
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
    /// This rectangle less `n` cells on every side.
    public func inset(_ n: Int) -> Rect { Rect(x: x + n, y: y + n, width: width - 2 * n, height: height - 2 * n) }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// One character cell: a Unicode scalar (always one column wide) and the theme role that colours it.
public struct Cell: Equatable, Sendable {
    public var scalar: UInt32
    public var role: Role
    public init(_ scalar: Unicode.Scalar, _ role: Role) { self.scalar = scalar.value; self.role = role }
    public static let blank = Cell(" ", .normal)
}

/// The screen as values: what the panels draw, what tests read, what the driver compares frame to frame.
public struct Grid: Equatable, Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    public var cells: [Cell]
    /// Texts `put` cut inside a word or number for want of room (what the tests of issue 36 look for; a
    /// panel picks a form that fits, or `fitWords`, instead). Not part of the screen: `==` ignores it.
    public var cutWords: [String] = []

    public static func == (a: Grid, b: Grid) -> Bool { a.width == b.width && a.height == b.height && a.cells == b.cells }

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Fills `rect` (clipped to the grid) with `scalar` in `role`.
    public mutating func fill(_ rect: Rect, _ scalar: Unicode.Scalar = " ", _ role: Role = .normal) {
        let cell = Cell(scalar, role)
        for y in max(0, rect.y)..<min(height, rect.maxY) where rect.x < width {
            for x in max(0, rect.x)..<min(width, rect.maxX) { cells[y * width + x] = cell }
        }
    }

    /// Sets one cell (clipped): the fast path for bars and keys.
    @inline(__always)
    public mutating func set(_ x: Int, _ y: Int, _ scalar: Unicode.Scalar, _ role: Role) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        cells[y * width + x] = Cell(scalar, role)
    }

    /// Writes `text` from (x, y), clipped to `limit` columns and to the grid; returns the column after it.
    /// Text is assumed safe (ours): outside text goes through `TerminalText.sanitized` first.
    @discardableResult
    public mutating func put(_ x: Int, _ y: Int, _ text: String, _ role: Role = .normal, limit: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let end = min(width, limit.map { x + max(0, $0) } ?? width)
        var column = x
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            if column >= end {
                if Self.isWordScalar(previous) && Self.isWordScalar(scalar) && cutWords.count < 32 { cutWords.append(text) }
                break
            }
            previous = scalar
            if column >= 0 {
                let safe = TerminalText.isPrintable(scalar) ? scalar : "?"
                cells[y * width + column] = Cell(safe, role)
            }
            column += 1
        }
        return column
    }

    /// A letter or digit: cutting between two of them cuts a word or a number.
    static func isWordScalar(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || ("0"..."9").contains(s) }

    /// Draws a box border around `rect` with an optional title on its top edge.
    public mutating func box(_ rect: Rect, title: String = "", glyphs: Glyphs, role: Role = .border, titleRole: Role = .title) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let right = rect.maxX - 1, bottom = rect.maxY - 1
        for x in rect.x + 1..<right {
            set(x, rect.y, glyphs.horizontal, role)
            set(x, bottom, glyphs.horizontal, role)
        }
        for y in rect.y + 1..<bottom {
            set(rect.x, y, glyphs.vertical, role)
            set(right, y, glyphs.vertical, role)
        }
        set(rect.x, rect.y, glyphs.topLeft, role)
        set(right, rect.y, glyphs.topRight, role)
        set(rect.x, bottom, glyphs.bottomLeft, role)
        set(right, bottom, glyphs.bottomRight, role)
        if !title.isEmpty, rect.width > 4 {
            // A title too long for the border (a scenario's) ends after a whole word.
            put(rect.x + 2, rect.y, " \(title.fitWords(rect.width - 6)) ", titleRole, limit: rect.width - 4)
        }
    }

    /// Row `y` as text (tests and the first-frame check read the screen this way).
    public func row(_ y: Int) -> String {
        var s = String.UnicodeScalarView()
        for x in 0..<width { s.append(Unicode.Scalar(self[x, y].scalar) ?? "?") }
        return String(s)
    }

    /// The whole grid as lines of text.
    public var text: String { (0..<height).map(row).joined(separator: "\n") }
}
