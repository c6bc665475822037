// The status line's one-line editor, which the preset name (`s`) and the player's jump (`J`) prompts share.

/// What one key did to a one-line prompt.
enum PromptKey: Equatable {
    /// The text after the key (unchanged when the key was refused or means nothing here).
    case editing(String)
    /// Esc: the prompt is dropped.
    case cancelled
    /// Enter: the text is taken.
    case entered(String)
    /// F10: quit, as everywhere.
    case quit
}

extension PromptKey {
    /// `key` applied to `text`: a character that `accepts(text, c)` takes is appended, Backspace removes the
    /// last character, Esc cancels, Enter enters, F10 quits, any other key leaves the text as it is.
    static func apply(_ key: Key, to text: String, accepts: (String, Character) -> Bool) -> PromptKey {
        var text = text
        switch key {
        case .char(let c): if accepts(text, c) { text.append(c) }
        case .backspace: if !text.isEmpty { text.removeLast() }
        case .escape: return .cancelled
        case .enter: return .entered(text)
        case .function(10): return .quit
        default: break
        }
        return .editing(text)
    }
}
