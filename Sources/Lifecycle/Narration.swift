// What the live panel narrates, and how its pieces join: as sentences, never run together.
import Foundation

/// Narration: a scenario's `say`, or Backbeat's own sentence when the state changed after it.
public struct Narration: Equatable, Sendable {
    public var text: String
    /// Simulated time it was said.
    public var time: Double
    /// True for a scenario's `say`, false for Backbeat's own words.
    public var fromScenario: Bool
}

extension LiveSession {
    /// `text` ending as a sentence does (a scenario's `say` may lack its full stop).
    static func sentence(_ text: String) -> String {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let last = t.last else { return t }
        return ".!?:;…".contains(last) ? t : t + "."
    }

    /// Two pieces of narration as two sentences, never run together.
    static func joined(_ first: String, _ second: String) -> String {
        let a = first.trimmingCharacters(in: .whitespaces)
        if a.isEmpty { return second }
        if a.hasSuffix("”") || a.hasSuffix("\"") { return a + " " + second }
        return sentence(a) + " " + second
    }
}
