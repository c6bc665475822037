/// A colour as a theme names it: the terminal default, one of the 8 names, a 256-colour index, or hex RGB.
public enum ThemeColor: Equatable, Sendable, CustomStringConvertible {
    case terminalDefault
    case indexed(Int)
    case rgb(UInt8, UInt8, UInt8)

    public static let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// Parses "default", a name, "bright-NAME", "#rrggbb" or a number 0...255 in a string.
    public init?(text: String) {
        let t = text.lowercased()
        if t == "default" { self = .terminalDefault; return }
        if let i = ThemeColor.names.firstIndex(of: t) { self = .indexed(i); return }
        if t.hasPrefix("bright-"), let i = ThemeColor.names.firstIndex(of: String(t.dropFirst(7))) { self = .indexed(i + 8); return }
        if t.hasPrefix("#"), t.count == 7, let v = UInt32(t.dropFirst(), radix: 16) {
            self = .rgb(UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)); return
        }
        if let n = Int(t), (0...255).contains(n) { self = .indexed(n); return }
        return nil
    }

    public static let expected = "a colour: \"#rrggbb\", a 256-colour index 0...255, \"default\" or one of \(names.joined(separator: ", ")) (optionally \"bright-\")"

    public var description: String {
        switch self {
        case .terminalDefault: "default"
        case .indexed(let i): i < 8 ? ThemeColor.names[i] : String(i)
        case .rgb(let r, let g, let b):
            "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    /// The RGB of this colour (xterm's palette for indexed ones); nil for the terminal default.
    public var rgb: (Int, Int, Int)? {
        switch self {
        case .terminalDefault: nil
        case .rgb(let r, let g, let b): (Int(r), Int(g), Int(b))
        case .indexed(let i): Palette.xterm(i)
        }
    }
}

/// What the terminal can show.
public enum ColorDepth: Int, Comparable, Sendable {
    case none = 0, eight = 8, sixteen = 16, palette256 = 256, direct = 16_777_216
    public static func < (a: ColorDepth, b: ColorDepth) -> Bool { a.rawValue < b.rawValue }

    /// From ncurses' COLORS.
    public init(colors: Int) {
        if colors >= 16_777_216 { self = .direct } else if colors >= 256 { self = .palette256 }
        else if colors >= 16 { self = .sixteen } else if colors >= 8 { self = .eight } else { self = .none }
    }
}

/// xterm's 256-colour palette and nearest-colour search.
public enum Palette {
    static let base16: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// RGB of xterm colour `index` (0...255).
    public static func xterm(_ index: Int) -> (Int, Int, Int) {
        if index < 16 { return base16[max(0, index)] }
        if index < 232 {
            let i = index - 16
            let level = { (v: Int) in v == 0 ? 0 : 55 + v * 40 }
            return (level(i / 36), level((i / 6) % 6), level(i % 6))
        }
        let grey = 8 + (min(index, 255) - 232) * 10
        return (grey, grey, grey)
    }

    /// The colour number to use for `color` on a terminal of `depth`: -1 for the default; RGB packed for direct.
    public static func number(for color: ThemeColor, depth: ColorDepth) -> Int {
        switch color {
        case .terminalDefault: return -1
        case .indexed(let i) where i < depth.rawValue && depth != .direct: return i
        default: break
        }
        guard let (r, g, b) = color.rgb else { return -1 }
        switch depth {
        case .none: return -1
        case .direct: return r << 16 | g << 8 | b
        case .palette256, .sixteen, .eight: return nearest(r, g, b, among: min(depth.rawValue, 256))
        }
    }

    /// Index of the palette entry (0..<count) closest to (r, g, b), by a weighted RGB distance.
    public static func nearest(_ r: Int, _ g: Int, _ b: Int, among count: Int) -> Int {
        var best = 0, bestDistance = Int.max
        for i in 0..<count {
            let (pr, pg, pb) = xterm(i)
            let d = 3 * (pr - r) * (pr - r) + 4 * (pg - g) * (pg - g) + 2 * (pb - b) * (pb - b)
            if d < bestDistance { bestDistance = d; best = i }
        }
        return best
    }
}
