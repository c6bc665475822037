// The process states of the simulated app.

/// The process states (docs/lifecycle-rules.md, "States and callbacks").
public enum AppState: String, Sendable, CaseIterable, Equatable {
    case notRunning = "not-running"
    /// Foreground, receiving no events.
    case inactive
    case active
    /// Code runs.
    case background
    /// In memory, runs no code; no callback announces it.
    case suspended
    case terminated

    /// Whether the process executes code in this state (MIDI delivered, audio rendered).
    public var runsCode: Bool { self == .inactive || self == .active || self == .background }
    var isForeground: Bool { self == .inactive || self == .active }
}
