import Testing
@testable import TUI

@Test func TUIModuleLinks() { #expect(Bool(true)) }
