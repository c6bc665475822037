import Testing
@testable import MIDI

@Test func MIDIModuleLinks() { #expect(Bool(true)) }
