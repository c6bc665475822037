import Testing
@testable import Engine

@Test func EngineModuleLinks() { #expect(Bool(true)) }
