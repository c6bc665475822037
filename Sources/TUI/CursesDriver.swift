import CCurses
import Foundation
import MIDI
import TextOutput

/// The terminal: takes the screen, maps the theme onto what the terminal can show, writes the cells that
/// changed since the last frame, reads keys and mouse clicks, and gives the screen back (`close`).
public final class CursesDriver {
    public private(set) var depth: ColorDepth = .none
    public let utf8: Bool
    /// Only ASCII reaches the terminal (locale not UTF-8, or --ascii): panels' few typographic characters
    /// are transliterated, anything else becomes "?".
    public let asciiOnly: Bool
    private var attributes: [attr_t] = []
    private var previous: Grid?
    private var open = false
    private var buffer: [wchar_t] = []

    /// `setlocale(LC_ALL, "")` must run first so wide characters work; the caller decides on ASCII from `localeIsUTF8`.
    public static func prepareLocale() -> Bool {
        setlocale(LC_ALL, "")
        return backbeat_locale_is_utf8()
    }

    /// Why the terminal cannot be used (no terminfo entry for $TERM...), checked before anything starts:
    /// initscr would print its own message and exit.
    public static func terminalProblem() -> String? {
        var error: Int32 = 0
        if backbeat_terminal_usable(&error) != 0 { return nil }
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        return "cannot use the terminal TERM=\"\(TerminalText.sanitized(term))\" (\(error == 0 ? "no terminfo entry" : "generic or unusable")); try TERM=xterm-256color, or --headless"
    }

    /// Takes the screen. `noColor`: `NO_COLOR` is set or the theme asked for none.
    public init(theme: Theme, noColor: Bool, utf8: Bool, asciiOnly: Bool) {
        self.utf8 = utf8
        self.asciiOnly = asciiOnly || !utf8
        backbeat_install_crash_restore()
        set_escdelay(25)
        initscr()
        open = true
        cbreak()
        noecho()
        nonl()
        _ = backbeat_keypad(true)
        backbeat_timeout(33)
        curs_set(0)
        mousemask(backbeat_mouse_clicks(), nil)
        mouseinterval(0)
        applyTheme(theme, noColor: noColor)
    }

    deinit { close() }

    /// Gives the terminal back (idempotent).
    public func close() {
        guard open else { return }
        open = false
        endwin()
    }

    public var size: (width: Int, height: Int) { (Int(backbeat_cols()), Int(backbeat_lines())) }

    /// Colour pairs and attributes for every role, at the terminal's depth.
    public func applyTheme(_ theme: Theme, noColor: Bool) {
        // COLORS is 0 until start_color() has run: read it after, or every terminal looks colourless.
        let colour = !noColor && has_colors()
        if colour {
            start_color()
            use_default_colors()
        }
        depth = colour ? ColorDepth(colors: Int(backbeat_colors())) : .none
        // With a palette terminal that can redefine colours, give each RGB of the theme a slot of its own.
        var custom: [Int: Int] = [:]  // packed rgb -> slot
        let redefine = depth == .palette256 && can_change_color()
        if redefine {
            var slot = 16
            for role in Role.allCases {
                for color in [theme[role].fg, theme[role].bg] {
                    guard case .rgb = color, let (r, g, b) = color.rgb else { continue }
                    let key = r << 16 | g << 8 | b
                    if custom[key] != nil || slot >= Int(backbeat_colors()) { continue }
                    init_extended_color(Int32(slot), Int32(r * 1000 / 255), Int32(g * 1000 / 255), Int32(b * 1000 / 255))
                    custom[key] = slot
                    slot += 1
                }
            }
        }
        attributes = Role.allCases.map { role in
            let style = theme[role]
            var attrs = backbeat_a_normal()
            if style.bold { attrs |= backbeat_a_bold() }
            if style.reverse { attrs |= backbeat_a_reverse() }
            if style.underline { attrs |= backbeat_a_underline() }
            if depth == .none {
                // No colour: a role whose colours set it apart from the text gets reverse video.
                if case .terminalDefault = style.bg {} else if !style.reverse, isBackgroundEmphasis(style) { attrs |= backbeat_a_reverse() }
                return attrs
            }
            func number(_ c: ThemeColor) -> Int32 {
                if redefine, let (r, g, b) = c.rgb, case .rgb = c, let slot = custom[r << 16 | g << 8 | b] { return Int32(slot) }
                return Int32(Palette.number(for: c, depth: depth))
            }
            init_extended_pair(Int32(role.pair), number(style.fg), number(style.bg))
            return attrs
        }
        previous = nil
    }

    private func isBackgroundEmphasis(_ style: Style) -> Bool {
        guard let (r, g, b) = style.bg.rgb else { return false }
        return r + g + b > 200
    }

    /// Writes the cells that differ from the last frame, then refreshes. A size change redraws everything.
    public func present(_ grid: Grid) {
        if previous?.width != grid.width || previous?.height != grid.height {
            backbeat_erase()
            previous = nil
        }
        let old = previous
        for y in 0..<grid.height {
            var x = 0
            let rowStart = y * grid.width
            while x < grid.width {
                if let old, old.cells[rowStart + x] == grid.cells[rowStart + x] { x += 1; continue }
                // A run of changed cells with one role.
                let role = grid.cells[rowStart + x].role
                buffer.removeAll(keepingCapacity: true)
                let start = x
                while x < grid.width, grid.cells[rowStart + x].role == role,
                      old == nil || old!.cells[rowStart + x] != grid.cells[rowStart + x] {
                    let scalar = grid.cells[rowStart + x].scalar
                    buffer.append(wchar_t(bitPattern: asciiOnly && scalar > 0x7E ? CursesDriver.ascii(scalar) : scalar))
                    x += 1
                }
                _ = backbeat_attr_set(attributes[role.index], depth == .none ? 0 : Int32(role.pair))
                // The bottom-right cell scrolls some terminals: ncurses handles it, but skip its return code.
                _ = buffer.withUnsafeBufferPointer { backbeat_mvaddnwstr(Int32(y), Int32(start), $0.baseAddress, Int32($0.count)) }
            }
        }
        previous = grid
        _ = backbeat_wnoutrefresh()
        doupdate()
    }

    /// The ASCII stand-in for a character the panels use.
    static func ascii(_ scalar: UInt32) -> UInt32 {
        switch scalar {
        case 0xB7, 0x2502: return 0x7C        // · │  -> |
        case 0x2014, 0x2500: return 0x2D      // — ─  -> -
        case 0xB1: return 0x2B                // ±    -> +
        case 0x25B6: return 0x3E              // ▶    -> >
        case 0x2026: return 0x7E              // …    -> ~
        case 0x2588, 0x2593: return 0x23      // █ ▓  -> #
        case 0x2592: return 0x3A              // ▒    -> :
        case 0x25CF: return 0x2A              // ●    -> *
        case 0x250C, 0x2510, 0x2514, 0x2518, 0x2534: return 0x2B  // corners, ┴ -> +
        default: return 0x3F
        }
    }

    /// Forces a full repaint on the next `present` (after a resize or Ctrl-L).
    public func invalidate() {
        previous = nil
        _ = backbeat_clearok(true)
    }

    /// The next key, waiting up to `timeoutMilliseconds` (0: do not wait); nil on timeout.
    public func readKey(timeoutMilliseconds: Int32) -> Key? {
        backbeat_timeout(timeoutMilliseconds)
        let code = backbeat_getch()
        if code == backbeat_err() { return nil }
        switch code {
        case backbeat_key_resize(): return .resize
        case backbeat_key_mouse():
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            if event.bstate & (backbeat_button1_pressed() | backbeat_button1_clicked()) != 0 {
                return .mouse(x: Int(event.x), y: Int(event.y))
            }
            return nil
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_SLEFT: return .shiftLeft
        case KEY_SRIGHT: return .shiftRight
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE, 127, 8: return .backspace
        case KEY_ENTER, 10, 13: return .enter
        case 9: return .tab
        case 27: return .escape
        case 12: invalidate(); return .resize  // Ctrl-L repaints
        case KEY_F0 + 1...KEY_F0 + 12: return .function(Int(code - KEY_F0))
        case 32..<127: return .char(Character(Unicode.Scalar(UInt8(code))))
        default: return nil
        }
    }
}
