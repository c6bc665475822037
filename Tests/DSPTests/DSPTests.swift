import Testing
@testable import DSP

@Test func DSPModuleLinks() { #expect(Bool(true)) }
