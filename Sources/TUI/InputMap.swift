import Engine
import Lifecycle
import MIDI
import TextOutput

/// A key or mouse event as the driver reports it.
public enum Key: Equatable, Sendable {
    case char(Character)
    case up, down, left, right, shiftLeft, shiftRight
    case pageUp, pageDown, home, end
    case tab, backTab, escape, enter, backspace
    case function(Int)
    case mouse(x: Int, y: Int)
    case resize
}

/// What a key does. Whether letters are notes or commands depends on the mode: in play mode (the keyboard
/// panel focused) note keys play; everywhere else letters are commands.
public enum Command: Equatable, Sendable {
    case quit, help, closeOverlay, focusNext, focusPrevious, enterPlay, leavePlay
    case note(Character), octave(Int), velocity(Int), gate(Int), toggleHold, allNotesOff
    case pause, clear, channelFilter(Int), typeFilter, toggleClock, scroll(Int), scrollPage(Int), scrollOldest, scrollNewest
    case select(Int), change(Int), patch(Int), savePreset, loadPreset(Int), browsePresets
    case resetClip, demo, recordMIDI, recordAudio, recordTake, presenter
    case lifecycle(LifecycleKey)
    /// The song player's transport (`backbeat play`).
    case transport(SongPlayer.Transport)
    /// The song player: type a bar or M:SS in the status line and go there (`J`); the A/B loop (`V` `N` `C`).
    case typeSeek, abLoop(ABLoop)
    /// The channel mixer shown in place of the monitor and the panels beside it, or hidden (`O`).
    case toggleMixer
    case click(x: Int, y: Int)
    /// A key that does nothing where it was pressed: the status line says so and what to press instead.
    case unbound(String)
}

/// The A/B loop's keys: A where the song is (`V`), B there and loop (`N`), no loop (`C`).
public enum ABLoop: Equatable, Sendable { case setA, setB, clear }

/// The key map, and the help overlay's text from the same table.
public enum InputMap {
    public static func command(for key: Key, focus: PanelID, playMode: Bool) -> Command? {
        if case .mouse(let x, let y) = key { return .click(x: x, y: y) }
        if playMode {
            switch key {
            case .char(let c) where ComputerKeyboard.lowerRow.contains(c) || ComputerKeyboard.upperRow.contains(c): return .note(c)
            case .escape: return .leavePlay
            case .tab: return .focusNext
            case .backTab: return .focusPrevious
            case .left, .char("-"): return .octave(-1)
            case .right, .char("="), .char("+"): return .octave(1)
            case .down, .char("["): return .velocity(-10)
            case .up, .char("]"): return .velocity(10)
            case .char(","): return .gate(-1)
            case .char("."): return .gate(1)
            case .char(" "): return .toggleHold
            case .backspace, .char("!"): return .allNotesOff
            case .char("<"): return .octave(-1)
            case .char(">"): return .octave(1)
            case .pageUp: return .patch(-1)
            case .pageDown: return .patch(1)
            case .char("/"): return .browsePresets
            case .char("?"), .function(1): return .help
            case .function(10): return .quit
            case .char(let c): return .unbound(playModeHint(c))
            case .enter, .home, .end, .shiftLeft, .shiftRight, .function: return .unbound(playModeHint(nil))
            default: return nil
            }
        }
        switch key {
        case .char("q"), .function(10): return .quit
        case .char("?"), .function(1): return .help
        case .escape: return .closeOverlay
        case .tab: return .focusNext
        case .backTab: return .focusPrevious
        case .char("i"): return .enterPlay
        case .char("x"): return .resetClip
        case .char("D"): return .demo
        case .char("M"): return .recordMIDI
        case .char("A"): return .recordAudio
        case .char("R"): return .recordTake
        case .char("!"): return .allNotesOff
        case .char("P"): return .presenter
        case .char("K"): return .transport(.togglePause)
        case .char("{"): return .transport(.bars(-1))
        case .char("}"): return .transport(.bars(1))
        case .char("("): return .transport(.songs(-1))
        case .char(")"): return .transport(.songs(1))
        case .char("B"): return .transport(.restart)
        case .char("W"): return .transport(.tempo(-10))
        case .char("E"): return .transport(.tempo(10))
        case .char("Z"): return .transport(.transpose(-1))
        case .char("X"): return .transport(.transpose(1))
        case .char("J"): return .typeSeek
        case .char("V"): return .abLoop(.setA)
        case .char("N"): return .abLoop(.setB)
        case .char("C"): return .abLoop(.clear)
        case .char("O"): return .toggleMixer
        // The lifecycle panel's synth key, pressed elsewhere: where it works rather than nothing.
        case .char("a") where focus != .lifecycle: return .unbound(synthKeyHint)
        default: break
        }
        switch focus {
        case .monitor:
            switch key {
            case .char(" "), .char("p"): return .pause
            case .char("c"): return .clear
            case .char("f"), .right, .char("l"): return .channelFilter(1)
            case .char("F"), .left, .char("h"): return .channelFilter(-1)
            case .char("t"): return .typeFilter
            case .char("s"): return .toggleClock
            case .up, .char("k"): return .scroll(1)
            case .down, .char("j"): return .scroll(-1)
            case .pageUp: return .scrollPage(1)
            case .pageDown: return .scrollPage(-1)
            case .home, .char("g"): return .scrollOldest
            case .end, .char("G"): return .scrollNewest
            default: return nil
            }
        case .synth:
            switch key {
            case .up, .char("k"): return .select(-1)
            case .down, .char("j"): return .select(1)
            case .left, .char("h"): return .change(-1)
            case .right, .char("l"): return .change(1)
            case .shiftLeft, .char("H"): return .change(-4)
            case .shiftRight, .char("L"): return .change(4)
            case .char("<"), .pageUp: return .patch(-1)
            case .char(">"), .pageDown: return .patch(1)
            case .char("s"): return .savePreset
            case .enter, .char("/"): return .browsePresets
            case .char("["): return .loadPreset(-1)
            case .char("]"): return .loadPreset(1)
            default: return nil
            }
        case .keyboard:
            switch key {
            case .enter, .char(" "): return .enterPlay
            case .left, .char("h"): return .octave(-1)
            case .right, .char("l"): return .octave(1)
            case .up, .char("k"): return .velocity(10)
            case .down, .char("j"): return .velocity(-10)
            default: return nil
            }
        case .lifecycle:
            guard case .char(let c) = key, let action = lifecycleKeys[c] else { return nil }
            return .lifecycle(action)
        case .meters:
            return nil
        }
    }

    /// What `a` says outside the Lifecycle panel.
    static let synthKeyHint = "a stops or plays the synth in the Lifecycle panel (Tab to it, or P)"

    /// What the status line says of a key that plays nothing in play mode (nil: a key without a character).
    static func playModeHint(_ c: Character?) -> String {
        let name = c.map { $0 == " " ? "Space" : "'\(TerminalText.sanitized(String($0)))'" } ?? "that key"
        let caps = c.map { c in
            let lower = Character(c.lowercased())
            return c.isUppercase && (ComputerKeyboard.lowerRow.contains(lower) || ComputerKeyboard.upperRow.contains(lower))
        } ?? false
        return "\(name) plays nothing in play mode\(caps ? " (Caps Lock on?)" : ""): notes z s x d c v g b h n j m / q 2 w 3 e r 5 t 6 y 7 u, "
            + "< > octave, ! panic, PgUp PgDn patch, / presets, Esc command keys"
    }

    /// The lifecycle panel's keys (letters are case-sensitive: `l` locks, `L` launches).
    static let lifecycleKeys: [Character: LifecycleKey] = [
        // What the user or the system does to the app.
        "h": .event(.home), "l": .event(.lock), "w": .event(.appSwitcher), "c": .event(.controlCenter),
        "d": .event(.dismissOverlay), "p": .event(.pipStart), "f": .event(.foreground), "t": .event(.terminate),
        "L": .event(.launch),
        // Phone calls, and another app's audio.
        "n": .event(.callIncoming), "r": .event(.callDeclined), "y": .event(.callAnswered), "e": .event(.callEnded),
        "o": .otherAppAudio,
        // The app's configuration and its streams.
        "s": .cycleStyle, "b": .cycleModes, "g": .cycleCategory, "m": .toggleMix,
        "1": .keepAlive, "2": .video, "3": .location, "4": .backgroundTask, "a": .toggleSynth,
        // The simulated clock.
        " ": .pause, ".": .step, "-": .slower, "+": .faster, "=": .faster,
    ]

    /// The help overlay: (keys, what they do) by section.
    public static let help: [(section: String, keys: [(String, String)])] = [
        ("Everywhere", [
            ("?  F1", "this help (Esc closes)"),
            ("q  F10", "quit (F10 also in play mode; Ctrl-C quits too)"),
            ("Tab  Shift-Tab", "next / previous panel"),
            ("i", "play mode: letters play notes (Esc leaves)"),
            ("x", "reset clip lamps and peak holds"),
            ("!", "panic: silence every voice now (sustained ones too)"),
            ("P", "presenter view: the lifecycle panel fills the screen (P or Esc back)"),
            ("D", "demo sequencer on/off"),
            ("M  A", "record MIDI / audio on/off"),
            ("R", "record MIDI and audio together, one take name (R again saves both)"),
            ("mouse", "click the piano to play"),
        ]),
        ("Song player (backbeat play FILE.mid)", [
            ("K", "pause / resume (sounding notes released, sustain lifted)"),
            ("{  }", "one bar back / forward"),
            ("(  )", "previous / next file of the queue"),
            ("B", "the song again from its start"),
            ("W  E", "tempo 10 % slower / faster (25 ... 400 %)"),
            ("Z  X", "transpose a semitone down / up (drums stay)"),
            ("J", "jump to a bar or a time: type 12 or 1:05, Enter (Esc cancels)"),
            ("V  N  C", "A/B loop: A here / B here (loops from A) / clear"),
        ]),
        ("Channel mixer (O shows it in place of the monitor and the panels beside it; O or Esc hides it)", [
            ("Up Down  k j", "select a channel strip"),
            ("m  s", "mute / solo the channel (its notes released at once)"),
            ("Left Right  h l", "volume offset -1 / +1 dB (-24 ... +12)"),
            ("<  >", "pan offset left / right"),
            ("0", "the channel's offsets back to none"),
        ]),
        ("Play mode (Keyboard panel, after i or Enter)", [
            ("z s x d c v g b h n j m", "lower octave C ... B"),
            ("q 2 w 3 e r 5 t 6 y 7 u", "upper octave C ... B"),
            ("Left Right  - =  < >", "octave down / up"),
            ("Up Down  ] [", "velocity up / down"),
            (",  .", "gate time shorter / longer"),
            ("Space", "hold mode: a second press ends the note"),
            ("!  Backspace", "panic: silence every voice now"),
            ("PgUp PgDn", "previous / next patch or preset"),
            ("/", "preset browser (Enter plays, Esc back to playing)"),
            ("Esc", "leave play mode (letters are commands again)"),
            ("other keys", "play nothing: the status line says so and what to press"),
        ]),
        ("MIDI monitor", [
            ("Space  p", "pause / resume (scroll back while paused)"),
            ("c", "clear"),
            ("f F  l h  Right Left", "channel filter next / previous (all, 1...16)"),
            ("t", "type filter (all, notes, CC, ...)"),
            ("s", "show / hide clock and active sensing"),
            ("Up Down  k j", "scroll one line"),
            ("PgUp PgDn", "scroll a page"),
            ("Home g  End G", "oldest / newest"),
        ]),
        ("Synth", [
            ("Up Down  k j", "select a row"),
            ("Left Right  h l", "change the value"),
            ("H L  Shift-arrows", "change by 4 steps"),
            ("< >  PgUp PgDn", "previous / next patch (with a SoundFont: the keyboard channel's preset)"),
            ("Enter  /", "preset browser: type a name or a number (N, bank:program), Enter plays"),
            ("s", "save these settings as a preset (type a name, Enter; Esc cancels)"),
            ("[  ]", "load the previous / next saved preset"),
            ("reverb room size chorus", "rows: the running effects' reverb level, decay time (RT60), chorus level"),
        ]),
        ("What the screen says", [
            ("dropped while suspended", "MIDI that arrived while the simulated app was suspended or terminated:"),
            ("", "the lifecycle gate dropped it (LOST rows in the monitor), as iOS would"),
            ("lost to input overflow", "events dropped because a queue between threads was full (keys, ALSA,"),
            ("", "demo into the synth, or the engine's reports to the screen); header: overflow"),
            ("ignored", "monitor: a sysex the synth did not act on (unknown, bad checksum, not modelled)"),
            ("in thru out local", "monitor direction: arrived; arrived and sent on (--midi-thru);"),
            ("", "Backbeat's own, sent on midi_out; Backbeat's own, played here only"),
            ("no sound card", "a private dummy server runs: nothing is heard until out_L/out_R are"),
            ("", "connected, or run with --driver alsa"),
        ]),
        ("Lifecycle (Tab to the panel; iOS events for the simulated app)", [
            ("h  l", "home / lock (background)"),
            ("w  c  d", "app switcher / control center / dismiss them"),
            ("n  r  y  e", "call incoming / declined / answered / ended"),
            ("p", "Picture in Picture starts (leaves the app)"),
            ("o", "another app's audio starts or stops (interrupts a non-mixable session in background)"),
            ("f", "foreground (back to the app)"),
            ("t  L", "terminate / launch again"),
            ("s", "lifecycle style: app-delegate, scenes, swiftui"),
            ("b", "background modes: [audio], [audio, location], [location], []"),
            ("g  m", "session category next / mixWithOthers on/off"),
            ("1", "keep-alive player: empty, near-silent, off"),
            ("2", "video player: attached, detached, off"),
            ("3  4", "location updates / background task on/off"),
            ("a", "synth stops / plays (stopped, nothing keeps the app alive: h suspends it)"),
            ("Space  .", "pause / single-step the simulated clock (scenarios: to the next step)"),
            ("-  +", "simulated time slower / faster (0.25x ... 8x)"),
        ]),
    ]

    public static var helpLines: [String] {
        var lines: [String] = []
        for (section, keys) in help {
            if !lines.isEmpty { lines.append("") }
            lines.append(section)
            for (k, what) in keys { lines.append("  " + k.fitted(24) + " " + what) }
        }
        return lines
    }
}
