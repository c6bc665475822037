import Testing
@testable import TUI

/// The status line's one-line editor that the preset and jump prompts share.
@Suite struct PromptKeyTests {
    let digits: (String, Character) -> Bool = { text, c in c.isNumber && text.count < 2 }

    @Test func editsCancelsEntersAndQuits() {
        #expect(PromptKey.apply(.char("1"), to: "", accepts: digits) == .editing("1"))
        #expect(PromptKey.apply(.char("x"), to: "1", accepts: digits) == .editing("1"))
        #expect(PromptKey.apply(.char("3"), to: "12", accepts: digits) == .editing("12"))
        #expect(PromptKey.apply(.backspace, to: "12", accepts: digits) == .editing("1"))
        #expect(PromptKey.apply(.backspace, to: "", accepts: digits) == .editing(""))
        #expect(PromptKey.apply(.escape, to: "12", accepts: digits) == .cancelled)
        #expect(PromptKey.apply(.enter, to: "12", accepts: digits) == .entered("12"))
        #expect(PromptKey.apply(.function(10), to: "12", accepts: digits) == .quit)
        #expect(PromptKey.apply(.function(2), to: "12", accepts: digits) == .editing("12"))
    }
}
