import Testing
@testable import Lifecycle

@Test func LifecycleModuleLinks() { #expect(Bool(true)) }
