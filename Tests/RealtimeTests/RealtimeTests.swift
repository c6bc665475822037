import Testing
@testable import Realtime

@Test func RealtimeModuleLinks() { #expect(Bool(true)) }
