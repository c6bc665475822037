// TestSupport's `.needs` trait (Tests/TestSupport/Needs.swift), here because TestSupport has no test target of
// its own and MIDITests is the smallest that links it: a present dependency runs the test, a missing one fails
// it on CI with the reason and skips it elsewhere.
import Foundation
import Testing
import TestSupport

@Suite struct NeedsTraitTests {
    @Test func aPresentDependencyRuns() async throws {
        let test = try #require(Test.current)
        let onCI: Needs = .needs(true, "needs nothing", onCI: true)
        try await onCI.prepare(for: test)
        let elsewhere: Needs = .needs(true, "needs nothing", onCI: false)
        try await elsewhere.prepare(for: test)
    }

    @Test func aMissingDependencyFailsOnCIWithTheReason() async throws {
        let test = try #require(Test.current)
        let trait: Needs = .needs(false, "needs /nowhere/font.sf2 (some-soundfont: scripts/setup test)", onCI: true)
        let error = await #expect(throws: MissingDependency.self) { try await trait.prepare(for: test) }
        #expect(error?.description.contains("needs /nowhere/font.sf2 (some-soundfont: scripts/setup test)") == true)
    }

    /// Elsewhere the trait hands the test to ConditionTrait's skip (which, called from inside a running test,
    /// would cancel this one: the verdict is checked instead).
    @Test func aMissingDependencyIsSkippedElsewhereWithTheReason() {
        let reason = "needs /nowhere/font.sf2 (some-soundfont: scripts/setup test)"
        let elsewhere: Needs = .needs(false, reason, onCI: false)
        #expect(elsewhere.verdict == .skip(reason))
        #expect(elsewhere.comments.map(\.rawValue) == [reason])
        let onCI: Needs = .needs(false, reason, onCI: true)
        #expect(onCI.verdict == .fail(reason))
        let present: Needs = .needs(true, reason, onCI: true)
        #expect(present.verdict == .run)
    }

    @Test func onCIFollowsTheEnvironment() {
        #expect(Needs.isCI == (ProcessInfo.processInfo.environment["CI"] == "true"))
    }
}
